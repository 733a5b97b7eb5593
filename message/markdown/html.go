package markdown

import (
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// baseHTML renders goldmark's core nodes the way Python-Markdown
// serializes them: HTML (not XHTML) void tags, a newline after every block,
// one after a block's opening tag when its first child is a block, nl2br
// line breaks, and text escaped but never unescaped.
type baseHTML struct{}

func (baseHTML) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindDocument, renderNothing)
	reg.Register(ast.KindParagraph, renderParagraph)
	reg.Register(ast.KindTextBlock, renderParagraph)
	reg.Register(ast.KindHeading, renderHeading)
	reg.Register(ast.KindThematicBreak, renderThematicBreak)
	reg.Register(ast.KindCodeBlock, renderIndentedCode)
	reg.Register(ast.KindBlockquote, renderBlockquote)
	reg.Register(ast.KindText, renderText)
	reg.Register(ast.KindString, renderString)
	reg.Register(ast.KindLink, renderLink)
	// Raw HTML is never parsed; these only guard against a stray node.
	reg.Register(ast.KindRawHTML, renderSkip)
	reg.Register(ast.KindHTMLBlock, renderSkip)
	reg.Register(ast.KindAutoLink, renderSkip)
	reg.Register(ast.KindImage, renderSkip)
	reg.Register(ast.KindEmphasis, renderSkip)
	reg.Register(ast.KindCodeSpan, renderSkip)
	reg.Register(ast.KindList, renderSkip)
	reg.Register(ast.KindListItem, renderSkip)
	reg.Register(ast.KindLinkReferenceDefinition, renderSkip)
}

func renderNothing(util.BufWriter, []byte, ast.Node, bool) (ast.WalkStatus, error) {
	return ast.WalkContinue, nil
}

func renderSkip(util.BufWriter, []byte, ast.Node, bool) (ast.WalkStatus, error) {
	return ast.WalkSkipChildren, nil
}

// isBlock reports whether n renders as a block-level element.
func isBlock(n ast.Node) bool {
	if n == nil {
		return false
	}
	if _, ok := n.(*previewNode); ok {
		return true
	}
	return n.Type() == ast.TypeBlock
}

// openBlock writes a block's opening tag and, when its first child is a
// block, the newline Python-Markdown puts after it.
func openBlock(w util.BufWriter, tag string, n ast.Node) {
	_, _ = w.WriteString(tag)
	if isBlock(n.FirstChild()) {
		_ = w.WriteByte('\n')
	}
}

func renderParagraph(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	bare := false
	if li, ok := n.Parent().(*listItem); ok && !li.Loose {
		bare = true
	}
	if bare {
		return ast.WalkContinue, nil
	}
	if entering {
		_, _ = w.WriteString("<p>")
	} else {
		_, _ = w.WriteString("</p>\n")
	}
	return ast.WalkContinue, nil
}

func renderHeading(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Heading)
	if entering {
		_, _ = w.WriteString("<h" + string(rune('0'+n.Level)) + ">")
	} else {
		_, _ = w.WriteString("</h" + string(rune('0'+n.Level)) + ">\n")
	}
	return ast.WalkContinue, nil
}

func renderThematicBreak(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString("<hr>\n")
	}
	return ast.WalkContinue, nil
}

func renderIndentedCode(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	var b strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(source))
	}
	writeCodeBlock(w, "", codeLines(b.String()))
	return ast.WalkSkipChildren, nil
}

func renderBlockquote(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		openBlock(w, "<blockquote>", n)
	} else {
		_, _ = w.WriteString("</blockquote>\n")
	}
	return ast.WalkContinue, nil
}

// renderText writes a text segment, then, at a line end, the spaces and
// backslash goldmark trimmed from it and an nl2br <br>.
func renderText(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Text)
	seg := n.Segment
	writeEscaped(w, seg.Value(source))
	if n.SoftLineBreak() || n.HardLineBreak() {
		i := seg.Stop
		for i < len(source) && source[i] != '\n' {
			i++
		}
		writeEscaped(w, source[seg.Stop:i])
		if n.NextSibling() != nil || !isLastInBlock(n) {
			_, _ = w.WriteString("<br>\n")
		}
	} else if isLastInBlock(n) && ast.IsParagraph(blockOf(n)) {
		i := seg.Stop
		for i < len(source) && (source[i] == ' ' || source[i] == '\t') {
			i++
		}
		_, _ = w.Write(source[seg.Stop:i])
	}
	return ast.WalkContinue, nil
}

// isLastInBlock reports whether t ends its paragraph (its trailing line
// break is the paragraph's end).
func isLastInBlock(t ast.Node) bool {
	for n := t; n != nil && n.Type() == ast.TypeInline; n = n.Parent() {
		if n.NextSibling() != nil {
			return false
		}
	}
	return true
}

// blockOf is the block holding an inline node.
func blockOf(n ast.Node) ast.Node {
	for n != nil && n.Type() == ast.TypeInline {
		n = n.Parent()
	}
	return n
}

func renderString(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.String)
	if n.IsCode() {
		_, _ = w.Write(n.Value)
	} else {
		writeEscaped(w, n.Value)
	}
	return ast.WalkContinue, nil
}

func renderLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	if entering {
		attrs := [][2]string{{"href", string(n.Destination)}}
		if len(n.Title) > 0 {
			attrs = append(attrs, [2]string{"title", string(n.Title)})
		}
		writeTag(w, "a", attrs)
	} else {
		_, _ = w.WriteString("</a>")
	}
	return ast.WalkContinue, nil
}

// writeTag writes an opening tag with its attributes sorted by name, as
// Zulip's serializer orders them.
func writeTag(w util.BufWriter, tag string, attrs [][2]string) {
	sort.Slice(attrs, func(i, j int) bool { return attrs[i][0] < attrs[j][0] })
	_ = w.WriteByte('<')
	_, _ = w.WriteString(tag)
	for _, a := range attrs {
		_ = w.WriteByte(' ')
		_, _ = w.WriteString(a[0])
		_, _ = w.WriteString(`="`)
		_, _ = w.WriteString(escapeAttr(a[1]))
		_ = w.WriteByte('"')
	}
	_ = w.WriteByte('>')
}

var textReplacer = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
var attrReplacer = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// escapeText escapes text content: &, < and >; quotes stay.
func escapeText(s string) string { return textReplacer.Replace(s) }

// escapeAttr escapes an attribute value.
func escapeAttr(s string) string { return attrReplacer.Replace(s) }

func writeEscaped(w util.BufWriter, b []byte) {
	start := 0
	for i, c := range b {
		var rep string
		switch c {
		case '&':
			rep = "&amp;"
		case '<':
			rep = "&lt;"
		case '>':
			rep = "&gt;"
		default:
			continue
		}
		_, _ = w.Write(b[start:i])
		_, _ = w.WriteString(rep)
		start = i + 1
	}
	_, _ = w.Write(b[start:])
}
