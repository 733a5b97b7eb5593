package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// TeX: inline $$…$$ and ```math blocks. Zulip renders them with KaTeX;
// without KaTeX (as here) Zulip emits the TeX source in a tex-error span,
// and so does this renderer.

// KindTex is the node kind of inline TeX.
var KindTex = ast.NewNodeKind("ZulipTex")

type texNode struct {
	ast.BaseInline
	Body []byte
}

func (n *texNode) Kind() ast.NodeKind { return KindTex }

func (n *texNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

type texParser struct{}

func newTexParser() parser.InlineParser { return texParser{} }

func (texParser) Trigger() []byte { return []byte{'$'} }

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// Parse matches $$body$$ with a body that does not start with _ or $,
// holds no newline or unescaped $, and no word character around.
func (texParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	src := block.Source()
	if seg.Start > 0 {
		if prev := src[seg.Start-1]; prev == '$' || isWordByte(prev) {
			return nil
		}
	}
	if len(line) < 5 || line[0] != '$' || line[1] != '$' {
		return nil
	}
	if c := line[2]; c == '\n' || c == '_' || c == '$' {
		return nil
	}
	i := 2
	for i < len(line) {
		c := line[i]
		if c == '\\' && i+1 < len(line) && line[i+1] == '$' {
			i += 2
			continue
		}
		if c == '$' || c == '\n' {
			break
		}
		i++
	}
	if i+1 >= len(line) || line[i] != '$' || line[i+1] != '$' {
		return nil
	}
	if i+2 < len(line) && (line[i+2] == '$' || isWordByte(line[i+2])) {
		return nil
	}
	n := &texNode{Body: line[2:i]}
	block.Advance(i + 2)
	return n
}

func renderTex(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString(`<span class="tex-error">$$`)
		writeEscaped(w, node.(*texNode).Body)
		_, _ = w.WriteString(`$$</span>`)
	}
	return ast.WalkSkipChildren, nil
}

var djangoEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;")

// writeMathBlock writes a math fence: each paragraph of TeX in its own
// tex-error span.
func writeMathBlock(w util.BufWriter, tex string) {
	for _, par := range strings.Split(tex, "\n\n") {
		_, _ = w.WriteString(`<p><span class="tex-error">`)
		_, _ = w.WriteString(djangoEscaper.Replace(par))
		_, _ = w.WriteString("</span></p>\n")
	}
}
