package message

import (
	"html"
	"strings"
	"unicode/utf8"
)

// highlightOpen and highlightClose wrap a search match in match_content
// and match_subject, as Zulip marks them.
const (
	highlightOpen  = `<span class="highlight">`
	highlightClose = `</span>`
)

// HighlightHTML is rendered message HTML with every case-insensitive
// occurrence of a search term in its text (never inside a tag) wrapped in
// <span class="highlight">: GET /messages's match_content. Terms are
// matched in their HTML-escaped form, as the text holds them.
func HighlightHTML(rendered string, terms []string) string {
	escaped := escapedTerms(terms)
	if len(escaped) == 0 {
		return rendered
	}
	var b strings.Builder
	for len(rendered) > 0 {
		lt := strings.IndexByte(rendered, '<')
		if lt < 0 {
			highlightText(&b, rendered, escaped)
			break
		}
		highlightText(&b, rendered[:lt], escaped)
		gt := strings.IndexByte(rendered[lt:], '>')
		if gt < 0 { // an unclosed tag: keep the rest as it is
			b.WriteString(rendered[lt:])
			break
		}
		b.WriteString(rendered[lt : lt+gt+1])
		rendered = rendered[lt+gt+1:]
	}
	return b.String()
}

// HighlightTopic is a topic name HTML-escaped, with every case-insensitive
// occurrence of a search term wrapped in <span class="highlight">: GET
// /messages's match_subject.
func HighlightTopic(topic string, terms []string) string {
	var b strings.Builder
	highlightText(&b, html.EscapeString(topic), escapedTerms(terms))
	return b.String()
}

// escapedTerms are the non-empty terms, HTML-escaped.
func escapedTerms(terms []string) []string {
	var out []string
	for _, t := range terms {
		if t != "" {
			out = append(out, html.EscapeString(t))
		}
	}
	return out
}

// highlightText writes text with the longest term matching at each
// position, leftmost first, wrapped in a highlight span.
func highlightText(b *strings.Builder, text string, terms []string) {
	for i := 0; i < len(text); {
		n := 0
		for _, t := range terms {
			if l := foldPrefix(text[i:], t); l > n {
				n = l
			}
		}
		if n > 0 {
			b.WriteString(highlightOpen)
			b.WriteString(text[i : i+n])
			b.WriteString(highlightClose)
			i += n
			continue
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		b.WriteString(text[i : i+size])
		i += size
	}
}

// foldPrefix is the length in bytes of the prefix of s that equals term
// under Unicode case folding, or 0 if s does not start with term.
func foldPrefix(s, term string) int {
	i := 0
	for _, tr := range term {
		if i >= len(s) {
			return 0
		}
		sr, size := utf8.DecodeRuneInString(s[i:])
		if sr != tr && !equalFoldRune(sr, tr) {
			return 0
		}
		i += size
	}
	return i
}

func equalFoldRune(a, b rune) bool {
	return strings.EqualFold(string(a), string(b))
}
