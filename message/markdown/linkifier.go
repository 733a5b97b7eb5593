package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/minizulip/minizulip/linkifier"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Linkifiers: each realm linkifier's pattern is matched in text outside
// links and code, in the realm's order; a match must start after
// whitespace, one of '"(,:< or the start of the text, and not be followed
// by a letter or digit. Patterns are RE2 and run in linear time (package
// linkifier), so no pattern can stall a render.

type linkifierTransformer struct{}

func (linkifierTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	st := getState(pc)
	ls := st.lookup().Linkifiers()
	if len(ls) == 0 {
		return
	}
	src := reader.Source()
	merged := false
	for _, l := range ls {
		if !l.MayMatch(src) {
			continue
		}
		if !merged {
			mergeAdjacentTexts(doc)
			merged = true
		}
		var texts []*ast.Text
		_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch n.Kind() {
			case ast.KindLink, KindCode, KindFence, KindChannelLink, KindMention:
				return ast.WalkSkipChildren, nil
			case ast.KindText:
				texts = append(texts, n.(*ast.Text))
			}
			return ast.WalkContinue, nil
		})
		for _, t := range texts {
			splitText(t, src, linkifierFinder(st, l, src, t.Segment))
		}
	}
}

// linkifierFinder finds l's next acceptable match in a text segment.
func linkifierFinder(st *state, l *linkifier.Linkifier, src []byte, seg text.Segment) func([]byte, int) (int, int, ast.Node) {
	var links []linkifier.Link
	done := false
	return func(b []byte, pos int) (int, int, ast.Node) {
		if !done {
			links = l.Links(string(b))
			done = true
		}
		for _, m := range links {
			if m.Start < pos || m.End <= m.Start {
				continue
			}
			if !linkifierBoundary(src, seg.Start+m.Start, seg.Start+m.End) {
				continue
			}
			href, ok := sanitizeURL(m.URL)
			if !ok {
				continue
			}
			link := ast.NewLink()
			href = st.localLink(href)
			link.Destination = []byte(href)
			link.AppendChild(link, ast.NewTextSegment(text.NewSegment(seg.Start+m.Start, seg.Start+m.End)))
			st.noteLink(href)
			return m.Start, m.End, link
		}
		return -1, -1, nil
	}
}

func linkifierBoundary(src []byte, start, end int) bool {
	if start > 0 {
		r, _ := utf8.DecodeLastRune(src[:start])
		if !unicode.IsSpace(r) && !unicode.In(r, unicode.Z) && r != 0x85 && !strings.ContainsRune(`'"(,:<`, r) {
			return false
		}
	}
	if end < len(src) {
		r, _ := utf8.DecodeRune(src[end:])
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			return false
		}
	}
	return true
}

// mergeAdjacentTexts joins sibling text nodes that cover contiguous
// source on one line. Inline parsers that look at a character and decline
// (such as '#' for channel links) leave the text split there, and a
// linkifier match may span the split.
func mergeAdjacentTexts(doc ast.Node) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			t, ok := c.(*ast.Text)
			if !ok {
				continue
			}
			for {
				next, ok := t.NextSibling().(*ast.Text)
				if !ok || t.SoftLineBreak() || t.HardLineBreak() || t.IsRaw() || next.IsRaw() ||
					t.Segment.Stop != next.Segment.Start || t.Segment.Padding != 0 || next.Segment.Padding != 0 {
					break
				}
				t.Segment = text.NewSegment(t.Segment.Start, next.Segment.Stop)
				t.SetSoftLineBreak(next.SoftLineBreak())
				t.SetHardLineBreak(next.HardLineBreak())
				n.RemoveChild(n, next)
			}
		}
		return ast.WalkContinue, nil
	})
}
