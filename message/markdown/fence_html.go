package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// fenceHTML renders fenced blocks: code blocks, quotes as <blockquote>,
// spoilers as Zulip's spoiler-block divs, and math blocks as Zulip renders
// them without KaTeX (one tex-error span per paragraph of TeX).
type fenceHTML struct{}

func (fenceHTML) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindFence, renderFence)
	reg.Register(KindSpoilerHeader, renderSpoilerHeader)
}

func renderFence(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*fenceNode)
	switch n.Mode {
	case fenceCode:
		if entering && len(n.code) > 0 {
			writeCodeBlock(w, n.Lang, codeLines(strings.Join(n.code, "\n")))
		}
		return ast.WalkSkipChildren, nil
	case fenceMath:
		if entering && len(n.code) > 0 {
			writeMathBlock(w, strings.Join(n.code, "\n"))
		}
		return ast.WalkSkipChildren, nil
	case fenceQuote:
		if n.FirstChild() == nil {
			return ast.WalkSkipChildren, nil
		}
		if entering {
			openBlock(w, "<blockquote>", n)
		} else {
			_, _ = w.WriteString("</blockquote>\n")
		}
	case fenceSpoiler:
		if entering {
			_, _ = w.WriteString(`<div class="spoiler-block"><div class="spoiler-header">` + "\n")
		} else {
			_, _ = w.WriteString("</div></div>\n")
		}
	}
	return ast.WalkContinue, nil
}

func renderSpoilerHeader(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString(`</div><div class="spoiler-content" aria-hidden="true">` + "\n")
	}
	return ast.WalkContinue, nil
}
