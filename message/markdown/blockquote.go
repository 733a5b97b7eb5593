package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// blockquoteParser is Zulip's `>` quote: it opens only when some line of
// the block has more than a bare `>`, and once open it holds the rest of
// the block (up to a blank line), `>` or not. Blank lines end a quote, so
// two quotes separated by one stay two.
type blockquoteParser struct{}

func newBlockquoteParser() parser.BlockParser { return blockquoteParser{} }

func (blockquoteParser) Trigger() []byte { return []byte{'>'} }

// stripMarker advances past `>` and one optional space.
func stripMarker(reader text.Reader) bool {
	line, _ := reader.PeekLine()
	w, pos := util.IndentWidth(line, reader.LineOffset())
	if w > 3 || pos >= len(line) || line[pos] != '>' {
		return false
	}
	pos++
	if pos < len(line) && line[pos] == ' ' {
		pos++
	}
	reader.Advance(pos)
	return true
}

// onlyEmptyMarkers reports whether the block from src[start:] up to the
// next blank line holds nothing but `>` markers.
func onlyEmptyMarkers(src []byte, start int) bool {
	for start < len(src) {
		end := start
		for end < len(src) && src[end] != '\n' {
			end++
		}
		line := src[start:end]
		if util.IsBlank(line) {
			return true
		}
		i := 0
		for i < len(line) && i < 3 && line[i] == ' ' {
			i++
		}
		if i >= len(line) || line[i] != '>' || !util.IsBlank(line[i+1:]) {
			return false
		}
		start = end + 1
	}
	return true
}

func (blockquoteParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	_, seg := reader.PeekLine()
	if onlyEmptyMarkers(reader.Source(), seg.Start) {
		return nil, parser.NoChildren
	}
	if !stripMarker(reader) {
		return nil, parser.NoChildren
	}
	return ast.NewBlockquote(), parser.HasChildren
}

func (blockquoteParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	line, _ := reader.PeekLine()
	if util.IsBlank(line) {
		return parser.Close
	}
	if stripMarker(reader) {
		return parser.Continue | parser.HasChildren
	}
	if _, _, _, _, ok := itemLine(line); ok || isFenceLine(line) {
		return parser.Close
	}
	return parser.Continue | parser.HasChildren
}

func (blockquoteParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}

func (blockquoteParser) CanInterruptParagraph() bool { return true }

func (blockquoteParser) CanAcceptIndentedLine() bool { return false }

// inQuote reports whether n sits in a quote, where mentions are silent.
func inQuote(n ast.Node) bool {
	for ; n != nil; n = n.Parent() {
		if n.Kind() == ast.KindBlockquote {
			return true
		}
		if f, ok := n.(*fenceNode); ok && f.Mode == fenceQuote {
			return true
		}
	}
	return false
}
