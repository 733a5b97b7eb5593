package message

import (
	"strings"
)

// HTMLDiff marks what changed between two renderings of a message, as
// the content_html_diff of its edit history: the new HTML, with inserted
// text in <span class="highlight_text_inserted"> and removed text in
// <span class="highlight_text_deleted">. Tags are compared as wholes and
// text word by word.
func HTMLDiff(oldHTML, newHTML string) string {
	a, b := htmlTokens(oldHTML), htmlTokens(newHTML)
	const maxCells = 4 << 20
	if len(a)*len(b) > maxCells {
		// Too large to align: everything old went, everything new came.
		return diffSpan("deleted", textOf(a)) + markInserted(b)
	}
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int32, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	var pending strings.Builder
	pendingKind := ""
	flush := func() {
		if pending.Len() > 0 {
			out.WriteString(diffSpan(pendingKind, pending.String()))
			pending.Reset()
		}
	}
	emit := func(kind, tok string) {
		if isTag(tok) {
			if kind == "deleted" {
				return
			}
			flush()
			out.WriteString(tok)
			return
		}
		if kind != pendingKind {
			flush()
			pendingKind = kind
		}
		if kind == "" {
			out.WriteString(tok)
			return
		}
		pending.WriteString(tok)
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			emit("", b[j])
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			emit("deleted", a[i]) // what went comes before what replaced it
			i++
		default:
			emit("inserted", b[j])
			j++
		}
	}
	flush()
	return out.String()
}

func diffSpan(kind, text string) string {
	if kind == "" || text == "" {
		return text
	}
	return `<span class="highlight_text_` + kind + `">` + text + "</span>"
}

func markInserted(toks []string) string {
	var out strings.Builder
	for _, t := range toks {
		if isTag(t) {
			out.WriteString(t)
		} else {
			out.WriteString(diffSpan("inserted", t))
		}
	}
	return out.String()
}

func textOf(toks []string) string {
	var out strings.Builder
	for _, t := range toks {
		if !isTag(t) {
			out.WriteString(t)
		}
	}
	return out.String()
}

func isTag(tok string) bool { return strings.HasPrefix(tok, "<") }

// htmlTokens splits HTML into tags, runs of spaces and words.
func htmlTokens(s string) []string {
	var out []string
	for len(s) > 0 {
		switch {
		case s[0] == '<':
			end := strings.IndexByte(s, '>')
			if end < 0 {
				end = len(s) - 1
			}
			out = append(out, s[:end+1])
			s = s[end+1:]
		default:
			n := 0
			space := s[0] == ' ' || s[0] == '\n' || s[0] == '\t'
			for n < len(s) && s[n] != '<' && (s[n] == ' ' || s[n] == '\n' || s[n] == '\t') == space {
				n++
			}
			out = append(out, s[:n])
			s = s[n:]
		}
	}
	return out
}
