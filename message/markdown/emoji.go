package markdown

import (
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Emoji by name, :name:, looked up in the realm's emoji, then Zulip's
// built-in :zulip:, then Zulip's Unicode emoji names. An unknown :name:
// stays text.

// KindEmoji is the node kind of an emoji.
var KindEmoji = ast.NewNodeKind("ZulipEmoji")

// emojiNode is a Unicode emoji (Code set) or an image emoji (URL set).
type emojiNode struct {
	ast.BaseInline
	Name string // as written, without colons
	Code string
	URL  string
}

func (n *emojiNode) Kind() ast.NodeKind { return KindEmoji }

func (n *emojiNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// zulipEmojiURL is the image of Zulip's own :zulip: emoji.
const zulipEmojiURL = "/static/generated/emoji/images/emoji/unicode/zulip.png"

type emojiParser struct{}

func newEmojiParser() parser.InlineParser { return emojiParser{} }

func (emojiParser) Trigger() []byte { return []byte{':'} }

func emojiNameRune(r rune) bool { return wordRune(r) || r == '-' || r == '+' }

func (emojiParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	n := runWhile(line, 1, emojiNameRune)
	if n == 0 || 1+n >= len(line) || line[1+n] != ':' {
		return nil
	}
	name := string(line[1 : 1+n])
	end := n + 2
	st := getState(pc)
	var node ast.Node
	if url, ok := st.lookup().RealmEmoji(name); ok {
		node = &emojiNode{Name: name, URL: url}
	} else if name == "zulip" {
		node = &emojiNode{Name: name, URL: zulipEmojiURL}
	} else if code, ok := emojiCode(name); ok {
		node = &emojiNode{Name: name, Code: code}
	} else {
		// Zulip consumes an unknown :name: as text.
		node = ast.NewTextSegment(seg.WithStop(seg.Start + end))
	}
	block.Advance(end)
	return node
}

func renderEmoji(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*emojiNode)
	title := strings.ReplaceAll(n.Name, "_", " ")
	if n.URL != "" {
		writeTag(w, "img", [][2]string{{"alt", ":" + n.Name + ":"}, {"class", "emoji"}, {"src", n.URL}, {"title", title}})
		return ast.WalkSkipChildren, nil
	}
	writeTag(w, "span", [][2]string{{"aria-label", title}, {"class", "emoji emoji-" + n.Code}, {"role", "img"}, {"title", title}})
	_, _ = w.WriteString(":" + escapeText(n.Name) + ":</span>")
	return ast.WalkSkipChildren, nil
}

// Emoticons (when the sender translates them): :) (: :( <3 :| :/ ;) :D
// :o :O :p :P, standing alone between spaces or punctuation.

var emoticons = []struct{ text, name string }{
	{":)", "smile"}, {"(:", "smile"}, {":(", "frown"}, {"<3", "heart"}, {":|", "neutral"},
	{":/", "confused"}, {";)", "wink"}, {":D", "grinning"}, {":o", "open_mouth"},
	{":O", "open_mouth"}, {":p", "stuck_out_tongue"}, {":P", "stuck_out_tongue"},
}

const emoticonEdges = ",.;?!()[] \"'\n\t"

type emoticonParser struct{}

func newEmoticonParser() parser.InlineParser { return emoticonParser{} }

func (emoticonParser) Trigger() []byte { return []byte{':', '(', '<', ';'} }

func (emoticonParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if !getState(pc).ctx.TranslateEmoticons {
		return nil
	}
	line, seg := block.PeekLine()
	src := block.Source()
	if seg.Start > 0 && strings.IndexByte(emoticonEdges, src[seg.Start-1]) < 0 {
		return nil
	}
	for _, e := range emoticons {
		if len(line) < 2 || string(line[:2]) != e.text {
			continue
		}
		if len(line) > 2 && strings.IndexByte(emoticonEdges, line[2]) < 0 {
			return nil
		}
		code, ok := emojiCode(e.name)
		if !ok {
			return nil
		}
		block.Advance(2)
		return &emojiNode{Name: e.name, Code: code}
	}
	return nil
}

// unicodeEmojiTransformer turns Unicode emoji in text into Zulip's emoji
// spans: a whole emoji sequence (flags, modifiers, keycaps, tags, ZWJ
// joins) is looked up, and one Zulip does not name stays text.
type unicodeEmojiTransformer struct{}

func (unicodeEmojiTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	src := reader.Source()
	var texts []*ast.Text
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindLink, KindCode, KindFence:
			return ast.WalkSkipChildren, nil
		case ast.KindText:
			t := n.(*ast.Text)
			if hasNonASCII(t.Segment.Value(src)) {
				texts = append(texts, t)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, t := range texts {
		splitText(t, src, findUnicodeEmoji)
	}
}

func hasNonASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

const (
	zwj  = 0x200d
	vs16 = 0xfe0f
)

func isRI(r rune) bool       { return r >= 0x1f1e6 && r <= 0x1f1ff }
func isModifier(r rune) bool { return r >= 0x1f3fb && r <= 0x1f3ff }

// emojiElement matches one element of an emoji sequence at b[i]: a flag
// pair, or an emoji with a modifier, a variation selector (and keycap) or
// a tag run. It returns the end, or i.
func emojiElement(b []byte, i int, t *emojiTable) int {
	r, size := utf8.DecodeRune(b[i:])
	if isRI(r) {
		if r2, s2 := utf8.DecodeRune(b[i+size:]); i+size < len(b) && isRI(r2) {
			return i + size + s2
		}
	}
	if !inRanges(t.isEmoji, r) {
		return i
	}
	j := i + size
	if j < len(b) {
		r2, s2 := utf8.DecodeRune(b[j:])
		switch {
		case isModifier(r2):
			j += s2
		case r2 == vs16:
			j += s2
			if r3, s3 := utf8.DecodeRune(b[j:]); j < len(b) && r3 == 0x20e3 {
				j += s3
			}
		case r2 >= 0xe0020 && r2 <= 0xe007e:
			k := j
			for k < len(b) {
				r3, s3 := utf8.DecodeRune(b[k:])
				if r3 < 0xe0020 || r3 > 0xe007e {
					break
				}
				k += s3
			}
			if r3, s3 := utf8.DecodeRune(b[k:]); k < len(b) && r3 == 0xe007f {
				j = k + s3
			}
		}
	}
	return j
}

// findUnicodeEmoji finds the next emoji Zulip names in b from i.
func findUnicodeEmoji(b []byte, i int) (start, end int, node ast.Node) {
	t := emojiData()
	for i < len(b) {
		c := b[i]
		if c < 0x80 && c != '#' && c != '*' && (c < '0' || c > '9') && c != 0xa9 {
			i++
			continue
		}
		j := emojiElement(b, i, t)
		if j == i {
			_, size := utf8.DecodeRune(b[i:])
			i += size
			continue
		}
		for j < len(b) {
			r, size := utf8.DecodeRune(b[j:])
			if r != zwj || j+size >= len(b) {
				break
			}
			k := emojiElement(b, j+size, t)
			if k == j+size {
				break
			}
			j = k
		}
		seq := b[i:j]
		if textPresentation(seq, t) {
			i = j
			continue
		}
		var parts []string
		for _, r := range string(seq) {
			if r != vs16 {
				parts = append(parts, strconvHex(r))
			}
		}
		code := strings.Join(parts, "-")
		if name, ok := t.byCode[code]; ok {
			return i, j, &emojiNode{Name: name, Code: code}
		}
		i = j
	}
	return -1, -1, nil
}

// textPresentation reports a lone character that shows as text by
// default (optionally with a keycap), which Zulip leaves alone.
func textPresentation(seq []byte, t *emojiTable) bool {
	r, size := utf8.DecodeRune(seq)
	rest := seq[size:]
	if len(rest) > 0 {
		r2, s2 := utf8.DecodeRune(rest)
		if r2 != 0x20e3 || s2 != len(rest) {
			return false
		}
	}
	return !inRanges(t.presenting, r)
}

func strconvHex(r rune) string {
	const digits = "0123456789abcdef"
	if r == 0 {
		return "0"
	}
	var buf [8]byte
	i := len(buf)
	for r > 0 {
		i--
		buf[i] = digits[r&0xf]
		r >>= 4
	}
	s := string(buf[i:])
	for len(s) < 4 {
		s = "0" + s
	}
	return s
}

// splitText replaces the matches find reports in t by their nodes.
func splitText(t *ast.Text, src []byte, find func(b []byte, i int) (int, int, ast.Node)) {
	parent := t.Parent()
	seg := t.Segment
	b := seg.Value(src)
	pos := 0
	cur := ast.Node(t)
	for {
		s, e, node := find(b, pos)
		if node == nil {
			break
		}
		before := ast.NewTextSegment(text.NewSegment(seg.Start+pos, seg.Start+s))
		parent.InsertBefore(parent, t, before)
		parent.InsertBefore(parent, t, node)
		pos = e
		cur = node
	}
	if cur == ast.Node(t) {
		return
	}
	t.Segment = text.NewSegment(seg.Start+pos, seg.Stop)
}
