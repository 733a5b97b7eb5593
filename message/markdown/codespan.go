package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Inline code: a run of backticks, then text on the same line, then a run
// of the same length. Unlike CommonMark, Zulip keeps the spaces inside.

// KindCode is the node kind of inline code.
var KindCode = ast.NewNodeKind("ZulipCode")

type codeNode struct {
	ast.BaseInline
	Code []byte
}

func (n *codeNode) Kind() ast.NodeKind { return KindCode }

func (n *codeNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

type codeSpanParser struct{}

func newCodeSpanParser() parser.InlineParser { return codeSpanParser{} }

func (codeSpanParser) Trigger() []byte { return []byte{'`'} }

func (codeSpanParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if seg.Start > 0 && block.Source()[seg.Start-1] == '`' {
		return nil
	}
	if n, end := matchCode(line); n != nil {
		block.Advance(end)
		return n
	}
	// No closer: the whole run is text.
	run := 0
	for run < len(line) && line[run] == '`' {
		run++
	}
	t := ast.NewTextSegment(seg.WithStop(seg.Start + run))
	block.Advance(run)
	return t
}

// matchCode matches a code span at the start of line.
func matchCode(line []byte) (*codeNode, int) {
	run := 0
	for run < len(line) && line[run] == '`' {
		run++
	}
	for j := run + 1; j < len(line) && line[j] != '\n'; j++ {
		if line[j] != '`' {
			continue
		}
		k := j
		for k < len(line) && line[k] == '`' {
			k++
		}
		if k-j == run {
			return &codeNode{Code: line[run:j]}, k
		}
		j = k - 1
	}
	return nil, 0
}

func renderCode(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString("<code>")
		writeEscaped(w, node.(*codeNode).Code)
		_, _ = w.WriteString("</code>")
	}
	return ast.WalkSkipChildren, nil
}
