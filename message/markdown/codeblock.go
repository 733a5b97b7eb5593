package markdown

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/yuin/goldmark/util"
)

// Code blocks render as Pygments' "codehilite" markup:
// <div class="codehilite" data-code-language="Python"><pre><span></span>
// <code>…</code></pre></div>. A language chroma knows gets token spans
// with Pygments' short class names; data-code-language is the lexer's
// name, or the language as written when no lexer knows it.

// codeLines joins right-trimmed lines and drops leading and trailing
// blank lines, as Zulip's code handler does.
func codeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

var codeReplacer = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

// writeCodeBlock writes a highlighted code block. Without a language the
// text is escaped as Pygments escapes it (quotes too); with one, as the
// re-serialized markup Zulip sends (quotes plain).
func writeCodeBlock(w util.BufWriter, lang, code string) {
	code += "\n"
	if lang == "" {
		_, _ = w.WriteString(`<div class="codehilite"><pre><span></span><code>`)
		_, _ = w.WriteString(codeReplacer.Replace(code))
		_, _ = w.WriteString("</code></pre></div>\n")
		return
	}
	name := lang
	lexer := lexers.Get(lang)
	if lexer != nil {
		name = lexer.Config().Name
	}
	writeTag(w, "div", [][2]string{{"class", "codehilite"}, {"data-code-language", name}})
	_, _ = w.WriteString("<pre><span></span><code>")
	if lexer == nil || !highlight(w, lexer, code) {
		_, _ = w.WriteString(escapeText(code))
	}
	_, _ = w.WriteString("</code></pre></div>\n")
}

// highlight writes code as token spans; false if the lexer failed.
func highlight(w util.BufWriter, lexer chroma.Lexer, code string) bool {
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return false
	}
	var b strings.Builder
	class, pending := "", strings.Builder{}
	flush := func() {
		if pending.Len() == 0 {
			return
		}
		if class == "" {
			b.WriteString(escapeText(pending.String()))
		} else {
			b.WriteString(`<span class="` + class + `">` + escapeText(pending.String()) + "</span>")
		}
		pending.Reset()
	}
	for tok := it(); tok != chroma.EOF; tok = it() {
		c := ""
		if tok.Type != chroma.Text && tok.Type != chroma.TextWhitespace && tok.Type != chroma.Whitespace {
			c = chroma.StandardTypes[tok.Type]
		}
		if c != class {
			flush()
			class = c
		}
		pending.WriteString(tok.Value)
	}
	flush()
	_, _ = w.WriteString(b.String())
	return true
}
