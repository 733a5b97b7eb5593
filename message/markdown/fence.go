package markdown

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Zulip's fences: a line of three or more backticks or tildes at the very
// start of a line (at top level or inside another quote or spoiler
// fence), an optional language and header, closed by the same fence
// string. The language picks the kind: quote/quoted, spoiler, math, or a
// code block.

type fenceMode int

const (
	fenceCode fenceMode = iota
	fenceQuote
	fenceSpoiler
	fenceMath
)

// KindFence is the node kind of a fenced block.
var KindFence = ast.NewNodeKind("ZulipFence")

// KindSpoilerHeader is the node kind of a spoiler's header.
var KindSpoilerHeader = ast.NewNodeKind("ZulipSpoilerHeader")

// fenceNode is a fenced block. Code and math blocks keep their lines;
// quote and spoiler blocks hold parsed children (a spoiler's first child
// is its header).
type fenceNode struct {
	ast.BaseBlock
	Mode   fenceMode
	Fence  string
	Lang   string
	closed bool
	code   []string // code and math content, lines right-trimmed
}

func (n *fenceNode) Kind() ast.NodeKind { return KindFence }

func (n *fenceNode) IsRaw() bool { return n.Mode == fenceCode || n.Mode == fenceMath }

func (n *fenceNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

type spoilerHeader struct{ ast.BaseBlock }

func (n *spoilerHeader) Kind() ast.NodeKind { return KindSpoilerHeader }

func (n *spoilerHeader) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// fenceLine is a parsed opening fence line.
type fenceLine struct {
	fence       string
	lang        string
	headerStart int // offset of the header in the line, -1 if none
	headerEnd   int
}

func isLangByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '+' || c == ',' || c == '-' || c == '.' || c == '/' || c == '#'
}

// parseFenceLine matches Zulip's fence line: the fence, spaces, an
// optional `{` and `.`, the language, spaces, a header that holds no
// backtick or tilde, an optional `}`.
func parseFenceLine(line []byte) (fenceLine, bool) {
	line = bytes.TrimRight(line, "\n")
	if len(line) < 3 || (line[0] != '`' && line[0] != '~') {
		return fenceLine{}, false
	}
	c := line[0]
	i := 0
	for i < len(line) && line[i] == c {
		i++
	}
	if i < 3 {
		return fenceLine{}, false
	}
	fl := fenceLine{fence: string(line[:i]), headerStart: -1}
	for i < len(line) && line[i] == ' ' {
		i++
	}
	if i == len(line) {
		return fl, true
	}
	j := i
	if j < len(line) && line[j] == '{' {
		j++
	}
	if j < len(line) && line[j] == '.' {
		j++
	}
	k := j
	for k < len(line) && isLangByte(line[k]) {
		k++
	}
	if k == j {
		return fenceLine{}, false
	}
	fl.lang = string(line[j:k])
	for k < len(line) && line[k] == ' ' {
		k++
	}
	rest := line[k:]
	if bytes.ContainsAny(rest, "`~") {
		return fenceLine{}, false
	}
	if len(rest) > 0 {
		if rest[0] == '}' && len(rest) == 1 {
			return fl, true
		}
		fl.headerStart, fl.headerEnd = k, len(line)
	}
	return fl, true
}

// isFenceLine reports whether line opens a fence.
func isFenceLine(line []byte) bool {
	_, ok := parseFenceLine(line)
	return ok
}

type fenceParser struct{}

func newFenceParser() parser.BlockParser { return fenceParser{} }

func (fenceParser) Trigger() []byte { return []byte{'`', '~'} }

// atLineStart reports whether the reader sits at the very start of a
// source line, with no indentation or container prefix consumed.
func atLineStart(reader text.Reader) bool {
	_, seg := reader.PeekLine()
	src := reader.Source()
	return seg.Padding == 0 && (seg.Start == 0 || src[seg.Start-1] == '\n')
}

func (fenceParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	switch p := parent.(type) {
	case *ast.Document:
	case *fenceNode:
		if p.Mode != fenceQuote && p.Mode != fenceSpoiler {
			return nil, parser.NoChildren
		}
	default:
		return nil, parser.NoChildren
	}
	if !atLineStart(reader) {
		return nil, parser.NoChildren
	}
	line, seg := reader.PeekLine()
	fl, ok := parseFenceLine(line)
	if !ok {
		return nil, parser.NoChildren
	}
	if fl.lang == "" {
		// A fence naming no language takes the realm's default, which
		// may itself be quote, spoiler or math, as on Zulip.
		fl.lang = getState(pc).ctx.DefaultCodeBlockLanguage
	}
	n := &fenceNode{Fence: fl.fence, Lang: fl.lang}
	switch strings.ToLower(fl.lang) {
	case "quote", "quoted":
		n.Mode = fenceQuote
	case "spoiler":
		n.Mode = fenceSpoiler
		h := &spoilerHeader{}
		if fl.headerStart >= 0 {
			p := ast.NewParagraph()
			p.Lines().Append(text.NewSegment(seg.Start+fl.headerStart, seg.Start+fl.headerEnd))
			h.AppendChild(h, p)
		}
		n.AppendChild(n, h)
	case "math":
		n.Mode = fenceMath
	default:
		n.Lang = strings.ToLower(fl.lang)
	}
	reader.AdvanceToEOL()
	if n.Mode == fenceQuote || n.Mode == fenceSpoiler {
		return n, parser.HasChildren
	}
	return n, parser.NoChildren
}

// openInnerFence reports whether n's last child is a fence still open,
// which sees lines before n does.
func openInnerFence(n ast.Node) bool {
	f, ok := n.LastChild().(*fenceNode)
	return ok && !f.closed
}

func (fenceParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	n := node.(*fenceNode)
	line, _ := reader.PeekLine()
	body := strings.TrimRight(string(line), " \t\n")
	if n.Mode == fenceQuote || n.Mode == fenceSpoiler {
		if !openInnerFence(n) && body == n.Fence && atLineStart(reader) {
			reader.AdvanceToEOL()
			return parser.Close
		}
		return parser.Continue | parser.HasChildren
	}
	if body == n.Fence {
		reader.AdvanceToEOL()
		return parser.Close
	}
	n.code = append(n.code, body)
	reader.AdvanceToEOL()
	return parser.Continue | parser.NoChildren
}

func (fenceParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	node.(*fenceNode).closed = true
}

func (fenceParser) CanInterruptParagraph() bool { return true }

func (fenceParser) CanAcceptIndentedLine() bool { return false }
