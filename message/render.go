package message

import (
	"bufio"
	"bytes"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Renderer turns message Markdown into HTML with goldmark: CommonMark with
// Zulip's hard line breaks and strikethrough, raw HTML shown as text.
// Safe for concurrent use.
type Renderer struct {
	md   goldmark.Markdown
	bufs sync.Pool // *renderBuf
}

// renderBuf is an output buffer with the buffered writer goldmark needs,
// reused so a render allocates neither.
type renderBuf struct {
	out bytes.Buffer
	w   *bufio.Writer
}

// NewRenderer builds the renderer.
func NewRenderer() *Renderer {
	md := goldmark.New(
		goldmark.WithExtensions(extension.Strikethrough),
		goldmark.WithRendererOptions(html.WithHardWraps(), html.WithXHTML()),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(escapedHTML{}, 100))),
	)
	r := &Renderer{md: md}
	r.bufs.New = func() any {
		rb := &renderBuf{}
		rb.w = bufio.NewWriterSize(&rb.out, 4096)
		return rb
	}
	return r
}

// Render returns the HTML of content. Parsing never fails; an internal
// writer error falls back to the escaped source.
func (r *Renderer) Render(content string) string {
	rb := r.bufs.Get().(*renderBuf)
	defer r.bufs.Put(rb)
	rb.out.Reset()
	rb.w.Reset(&rb.out)
	source := []byte(content)
	doc := r.md.Parser().Parse(text.NewReader(source))
	if err := r.md.Renderer().Render(rb.w, source, doc); err != nil {
		return "<p>" + htmlEscape(content) + "</p>"
	}
	_ = rb.w.Flush()
	return strings.TrimRight(rb.out.String(), "\n")
}

// escapedHTML renders raw HTML nodes as visible, escaped text: Zulip never
// passes user HTML through.
type escapedHTML struct{}

func (escapedHTML) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, renderRawHTML)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
}

func renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	segs := node.(*ast.RawHTML).Segments
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		_, _ = w.WriteString(htmlEscape(string(seg.Value(source))))
	}
	return ast.WalkSkipChildren, nil
}

func renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.HTMLBlock)
	if !entering {
		return ast.WalkContinue, nil
	}
	var text strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		text.Write(seg.Value(source))
	}
	if n.HasClosure() {
		text.Write(n.ClosureLine.Value(source))
	}
	body := strings.TrimRight(text.String(), "\n")
	_, _ = w.WriteString("<p>" + strings.ReplaceAll(htmlEscape(body), "\n", "<br />\n") + "</p>\n")
	return ast.WalkSkipChildren, nil
}

var htmlReplacer = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

func htmlEscape(s string) string { return htmlReplacer.Replace(s) }
