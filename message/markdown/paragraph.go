package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// paragraphParser is goldmark's paragraph with Python-Markdown's edges:
// only the paragraph's start is left-trimmed and trailing spaces stay.
type paragraphParser struct{}

func newParagraphParser() parser.BlockParser { return paragraphParser{} }

func (paragraphParser) Trigger() []byte { return nil }

func (paragraphParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, seg := reader.PeekLine()
	if util.IsBlank(line) {
		return nil, parser.NoChildren
	}
	seg = seg.TrimLeftSpace(reader.Source())
	n := ast.NewParagraph()
	n.Lines().Append(seg)
	reader.AdvanceToEOL()
	return n, parser.NoChildren
}

func (paragraphParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	line, seg := reader.PeekLine()
	if util.IsBlank(line) {
		return parser.Close
	}
	node.Lines().Append(seg)
	reader.AdvanceToEOL()
	return parser.Continue | parser.NoChildren
}

func (paragraphParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	lines := node.Lines()
	if lines.Len() == 0 {
		node.Parent().RemoveChild(node.Parent(), node)
		return
	}
	last := lines.At(lines.Len() - 1)
	src := reader.Source()
	for last.Stop > last.Start && (src[last.Stop-1] == '\n' || src[last.Stop-1] == '\r') {
		last.Stop--
	}
	lines.Set(lines.Len()-1, last)
}

func (paragraphParser) CanInterruptParagraph() bool { return false }

func (paragraphParser) CanAcceptIndentedLine() bool { return false }
