package message

import (
	"strings"
)

// MaxAlertWordLength is the longest alert word Zulip accepts, in
// characters.
const MaxAlertWordLength = 100

// alertBefore are the characters an alert word may follow; alertAfter
// those it may precede (Zulip's lists; a match at the very start or end
// of the text also counts).
var (
	alertBefore = " \n(\".,';[*`>"
	alertAfter  = " \n)?:.,';]!*`"
)

// AlertText is the text alert words are looked for in: the content,
// lower-cased, with fenced code blocks left out (Zulip stashes them
// before it looks).
func AlertText(content string) []rune {
	var b strings.Builder
	fence := ""
	for _, line := range strings.SplitAfter(content, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			if len(line)-len(trimmed) <= 3 && strings.HasPrefix(strings.TrimRight(trimmed, " \n"), fence) &&
				strings.Trim(strings.TrimRight(trimmed, " \n"), fence[:1]) == "" {
				fence = ""
			}
			b.WriteString("\n")
			continue
		}
		if open := fenceOpening(line); open != "" {
			fence = open
			b.WriteString("\n")
			continue
		}
		b.WriteString(line)
	}
	return []rune(strings.ToLower(b.String()))
}

// fenceOpening returns the fence (``` or ~~~, at least three) a line
// opens, or "".
func fenceOpening(line string) string {
	trimmed := strings.TrimLeft(line, " ")
	if len(line)-len(trimmed) > 3 || len(trimmed) < 3 {
		return ""
	}
	c := trimmed[0]
	if c != '`' && c != '~' {
		return ""
	}
	n := 0
	for n < len(trimmed) && trimmed[n] == c {
		n++
	}
	if n < 3 {
		return ""
	}
	return trimmed[:n]
}

// ContainsAlertWord reports whether text (from AlertText) contains word as
// Zulip matches alert words: case-insensitively, anywhere, as long as the
// character before the match and the one after it are in Zulip's
// punctuation lists. Zulip checks the character before the match only
// from the second position on, so a match starting at the text's second
// character counts whatever precedes it; that quirk is kept.
func ContainsAlertWord(text []rune, word string) bool {
	w := []rune(strings.ToLower(word))
	if len(w) == 0 || len(w) > len(text) {
		return false
	}
	for start := 0; start+len(w) <= len(text); start++ {
		if !runesEqual(text[start:start+len(w)], w) {
			continue
		}
		before, after := start-1, start+len(w)
		okBefore := before <= 0 || strings.ContainsRune(alertBefore, text[before])
		okAfter := after >= len(text) || strings.ContainsRune(alertAfter, text[after])
		if okBefore && okAfter {
			return true
		}
	}
	return false
}

func runesEqual(a, b []rune) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
