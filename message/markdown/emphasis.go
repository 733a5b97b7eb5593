package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Emphasis follows Zulip's patterns rather than CommonMark's flanking
// rules: only `*` (never `_`) makes emphasis, nothing spans a line,
// **strong** closes at the first `**` after it, *em* and ***strong em***
// may not hold a `*` (or `^`) nor start or end with a space.
//
// An opener whose closer lies further on the line becomes a marker node;
// the parser closes it when parsing reaches that closer, wrapping what
// was parsed in between. A marker never closed renders as its text.

// KindEmphasis is the node kind of em, strong, strong-em and del.
var KindEmphasis = ast.NewNodeKind("ZulipEmphasis")

// KindMarker is the node kind of an emphasis opener waiting for its closer.
var KindMarker = ast.NewNodeKind("ZulipEmphasisMarker")

type emphasisStyle int

const (
	styleEm emphasisStyle = iota
	styleStrong
	styleStrongEm
	styleDel
)

type emphasisNode struct {
	ast.BaseInline
	Style emphasisStyle
}

func (n *emphasisNode) Kind() ast.NodeKind { return KindEmphasis }

func (n *emphasisNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

type markerNode struct {
	ast.BaseInline
	Segment text.Segment
	style   emphasisStyle
	closeAt int // source offset of the closer
	closeN  int // closer length
}

func (n *markerNode) Kind() ast.NodeKind { return KindMarker }

func (n *markerNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

var markersKey = parser.NewContextKey()

func openMarkers(pc parser.Context) []*markerNode {
	if v, ok := pc.Get(markersKey).([]*markerNode); ok {
		return v
	}
	return nil
}

// closeMarker ends the innermost open marker whose closer is at pos:
// the nodes after it become the emphasis node's children.
func closeMarker(parent ast.Node, block text.Reader, pc parser.Context, pos int) ast.Node {
	ms := openMarkers(pc)
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		if m.closeAt != pos || m.Parent() != parent {
			continue
		}
		// Markers opened after m and still open stay literal.
		pc.Set(markersKey, ms[:i])
		em := &emphasisNode{Style: m.style}
		for c := m.NextSibling(); c != nil; {
			next := c.NextSibling()
			em.AppendChild(em, c)
			c = next
		}
		parent.RemoveChild(parent, m)
		block.Advance(m.closeN)
		return em
	}
	return nil
}

func pushMarker(block text.Reader, pc parser.Context, seg text.Segment, n int, style emphasisStyle, closeAt, closeN int) ast.Node {
	m := &markerNode{Segment: seg.WithStop(seg.Start + n), style: style, closeAt: closeAt, closeN: closeN}
	pc.Set(markersKey, append(openMarkers(pc), m))
	block.Advance(n)
	return m
}

type emphasisParser struct{}

func newEmphasisParser() parser.InlineParser { return emphasisParser{} }

func (emphasisParser) Trigger() []byte { return []byte{'*'} }

// skipCode returns the end of a code span starting at line[i], or i.
func skipCode(line []byte, i int) int {
	n := 0
	for i+n < len(line) && line[i+n] == '`' {
		n++
	}
	for j := i + n; j < len(line); {
		if line[j] != '`' {
			j++
			continue
		}
		k := j
		for k < len(line) && line[k] == '`' {
			k++
		}
		if k-j == n {
			return k
		}
		j = k
	}
	return i
}

// tightContent reports the end of em-like content starting at i: bytes
// other than `*`, `^` and newline, not starting or ending with a space,
// followed by a `*`. -1 if none.
func tightContent(line []byte, i int) int {
	j := i
	for j < len(line) && line[j] != '*' && line[j] != '^' && line[j] != '\n' {
		j++
	}
	if j == i || j >= len(line) || line[j] != '*' {
		return -1
	}
	if util.IsSpace(line[i]) || util.IsSpace(line[j-1]) {
		return -1
	}
	return j
}

func (emphasisParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if n := closeMarker(parent, block, pc, seg.Start); n != nil {
		return n
	}
	run := 0
	for run < len(line) && line[run] == '*' {
		run++
	}
	if run >= 3 {
		if j := tightContent(line, 3); j > 0 && j+2 < len(line) && line[j+1] == '*' && line[j+2] == '*' {
			return pushMarker(block, pc, seg, 3, styleStrongEm, seg.Start+j, 3)
		}
	}
	if run >= 2 {
		for j := 3; j+1 < len(line) && line[j] != '\n'; j++ {
			if line[j] == '`' {
				if k := skipCode(line, j); k > j {
					j = k - 1
					continue
				}
			}
			if line[j] == '*' && line[j+1] == '*' {
				return pushMarker(block, pc, seg, 2, styleStrong, seg.Start+j, 2)
			}
		}
	}
	if j := tightContent(line, 1); j > 0 {
		return pushMarker(block, pc, seg, 1, styleEm, seg.Start+j, 1)
	}
	return nil
}

// CloseBlock forgets the paragraph's unclosed markers; they stay text.
func (emphasisParser) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	pc.Set(markersKey, nil)
}

type strikethroughParser struct{}

func newStrikethroughParser() parser.InlineParser { return strikethroughParser{} }

func (strikethroughParser) Trigger() []byte { return []byte{'~'} }

// Parse matches ~~text~~: no ~ before or after, no ~ or newline inside.
func (strikethroughParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if n := closeMarker(parent, block, pc, seg.Start); n != nil {
		return n
	}
	if len(line) < 5 || line[1] != '~' || (seg.Start > 0 && block.Source()[seg.Start-1] == '~') {
		return nil
	}
	j := 2
	for j < len(line) && line[j] != '~' && line[j] != '\n' {
		j++
	}
	if j == 2 || j+1 >= len(line) || line[j] != '~' || line[j+1] != '~' {
		return nil
	}
	if j+2 < len(line) && line[j+2] == '~' {
		return nil
	}
	return pushMarker(block, pc, seg, 2, styleDel, seg.Start+j, 2)
}

func renderEmphasis(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	var open, close string
	switch node.(*emphasisNode).Style {
	case styleEm:
		open, close = "<em>", "</em>"
	case styleStrong:
		open, close = "<strong>", "</strong>"
	case styleStrongEm:
		open, close = "<strong><em>", "</em></strong>"
	case styleDel:
		open, close = "<del>", "</del>"
	}
	if entering {
		_, _ = w.WriteString(open)
	} else {
		_, _ = w.WriteString(close)
	}
	return ast.WalkContinue, nil
}

func renderMarker(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		writeEscaped(w, node.(*markerNode).Segment.Value(source))
	}
	return ast.WalkContinue, nil
}
