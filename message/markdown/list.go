package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Zulip's lists follow Python-Markdown's "sane lists" with a 2-space
// indent: items are `*`, `-`, `+` or `1.` markers at most one space in,
// nested content is indented by two spaces, bullets of any kind make one
// list but bullets and numbers do not mix, a list may hang directly off a
// paragraph, and a blank line makes the items after it (and the one
// before it) loose.

// KindList is the node kind of a Zulip list.
var KindList = ast.NewNodeKind("ZulipList")

// KindListItem is the node kind of a Zulip list item.
var KindListItem = ast.NewNodeKind("ZulipListItem")

type listNode struct {
	ast.BaseBlock
	Ordered bool
	Start   string // as written; "" for bullets

	pendingBlank bool // a blank line was seen since the last content
	looseFromNow bool // items opened from now on are loose
}

func (n *listNode) Kind() ast.NodeKind { return KindList }

func (n *listNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

type listItem struct {
	ast.BaseBlock
	// Loose items wrap their paragraphs in <p>.
	Loose    bool
	sawBlank bool

	wasLoose  bool
	looseLine int
	// dedent: the current child block began after a blank line, so its
	// lines lose the item's indent (Python-Markdown dedents such blocks).
	dedent bool
}

func (n *listItem) Kind() ast.NodeKind { return KindListItem }

func (n *listItem) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// itemLine parses a list item's first line: its indent, kind, start
// number and the width of indent, marker and spaces.
func itemLine(line []byte) (indent int, ordered bool, start string, width int, ok bool) {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	indent = i
	if i >= len(line) {
		return
	}
	switch c := line[i]; {
	case c == '*' || c == '-' || c == '+':
		i++
	case c >= '0' && c <= '9':
		j := i
		for j < len(line) && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j >= len(line) || line[j] != '.' {
			return
		}
		ordered, start = true, string(line[i:j])
		i = j + 1
	default:
		return
	}
	if i >= len(line) || line[i] != ' ' {
		return
	}
	for i < len(line) && line[i] == ' ' {
		i++
	}
	return indent, ordered, start, i, true
}

func lineIndent(line []byte) int {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	return i
}

type listParser struct{}

func newListParser() parser.BlockParser { return listParser{} }

func (listParser) Trigger() []byte {
	return []byte{'*', '-', '+', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'}
}

func (listParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	if _, ok := parent.(*listNode); ok {
		return nil, parser.NoChildren
	}
	line, _ := reader.PeekLine()
	indent, ordered, start, _, ok := itemLine(line)
	if !ok || indent > 1 {
		return nil, parser.NoChildren
	}
	return &listNode{Ordered: ordered, Start: start}, parser.HasChildren
}

func (listParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	l := node.(*listNode)
	line, _ := reader.PeekLine()
	if util.IsBlank(line) {
		l.pendingBlank = true
		return parser.Continue | parser.HasChildren
	}
	indent, ordered, _, _, isItem := itemLine(line)
	switch {
	case isItem && indent <= 1:
		if ordered != l.Ordered {
			return parser.Close
		}
		if l.pendingBlank {
			if last, ok := l.LastChild().(*listItem); ok {
				last.Loose = true
			}
			l.looseFromNow = true
			l.pendingBlank = false
		}
		return parser.Continue | parser.HasChildren
	case indent >= 2:
		l.pendingBlank = false
		return parser.Continue | parser.HasChildren
	case l.pendingBlank || isFenceLine(line):
		return parser.Close
	}
	return parser.Continue | parser.HasChildren
}

func (listParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}

func (listParser) CanInterruptParagraph() bool { return true }

func (listParser) CanAcceptIndentedLine() bool { return false }

type listItemParser struct{}

func newListItemParser() parser.BlockParser { return listItemParser{} }

func (listItemParser) Trigger() []byte {
	return []byte{'*', '-', '+', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'}
}

func (listItemParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	l, ok := parent.(*listNode)
	if !ok {
		return nil, parser.NoChildren
	}
	line, _ := reader.PeekLine()
	indent, ordered, _, width, ok := itemLine(line)
	if !ok || indent > 1 || ordered != l.Ordered {
		return nil, parser.NoChildren
	}
	if width >= len(line) || line[width] == '\n' {
		width = len(line) - 1
		if width < 0 {
			width = 0
		}
	}
	reader.Advance(width)
	return &listItem{Loose: l.looseFromNow}, parser.HasChildren
}

func (listItemParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	it := node.(*listItem)
	line, _ := reader.PeekLine()
	if util.IsBlank(line) {
		it.sawBlank = true
		it.dedent = false
		return parser.Continue | parser.HasChildren
	}
	indent, _, _, _, isItem := itemLine(line)
	switch {
	case isItem && indent <= 1:
		return parser.Close
	case indent >= 2:
		if it.sawBlank || isItem || it.dedent {
			reader.Advance(2)
			if it.sawBlank {
				it.dedent = true
				line, _ := reader.Position()
				it.wasLoose, it.looseLine = it.Loose, line
				it.Loose = true
				// A block that goes on into a nested list's item makes
				// that item loose, not the outer one.
				if l, ok := it.Parent().(*listNode); ok {
					if outer, ok := l.Parent().(*listItem); ok && outer.looseLine == line {
						outer.Loose = outer.wasLoose
					}
				}
			}
			it.sawBlank = false
		}
		return parser.Continue | parser.HasChildren
	case it.sawBlank || isFenceLine(line):
		return parser.Close
	}
	return parser.Continue | parser.HasChildren
}

func (listItemParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}

func (listItemParser) CanInterruptParagraph() bool { return true }

func (listItemParser) CanAcceptIndentedLine() bool { return false }

// listHTML renders lists.
func renderList(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*listNode)
	tag := "ul"
	if n.Ordered {
		tag = "ol"
	}
	if !entering {
		_, _ = w.WriteString("</" + tag + ">\n")
		return ast.WalkContinue, nil
	}
	var attrs [][2]string
	if n.Ordered && n.Start != "1" {
		attrs = append(attrs, [2]string{"start", n.Start})
	}
	writeTag(w, tag, attrs)
	_ = w.WriteByte('\n')
	return ast.WalkContinue, nil
}

func renderListItem(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*listItem)
	if !entering {
		_, _ = w.WriteString("</li>\n")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("<li>")
	fc := n.FirstChild()
	if isBlock(fc) && (n.Loose || !ast.IsParagraph(fc)) {
		_ = w.WriteByte('\n')
	}
	return ast.WalkContinue, nil
}

type listHTML struct{}

func (listHTML) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindList, renderList)
	reg.Register(KindListItem, renderListItem)
}
