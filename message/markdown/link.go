package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Links: [text](url "title"). Zulip has no images and no reference links;
// a link whose URL it refuses stays text. The text is not parsed further,
// except for inline code; empty text shows the URL.

type linkParser struct{}

func newLinkParser() parser.InlineParser { return linkParser{} }

func (linkParser) Trigger() []byte { return []byte{'['} }

func (linkParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	// The label: brackets nest.
	i := labelEnd(line, 0)
	if i >= len(line) || i+1 >= len(line) || line[i+1] != '(' {
		return nil
	}
	closing := i
	dest, title, end, ok := parseLinkTarget(line, i+1)
	if !ok {
		return nil
	}
	st := getState(pc)
	href, ok := sanitizeURL(dest)
	if !ok {
		return nil
	}
	href = st.localLink(href)
	link := ast.NewLink()
	link.Destination = []byte(href)
	if title != "" {
		link.Title = []byte(title)
	}
	label := seg.WithStop(seg.Start + closing)
	label.Start++
	if strings.TrimSpace(string(line[1:closing])) == "" {
		link.AppendChild(link, ast.NewString([]byte(href)))
	} else {
		appendLabel(link, block.Source(), label)
	}
	st.noteLink(href)
	block.Advance(end)
	return link
}

// labelEnd is the index of the "]" closing the label whose "[" is at
// line[from] (brackets nest, a backslash escapes), or len(line) if none.
func labelEnd(line []byte, from int) int {
	depth, i := 0, from
	for ; i < len(line); i++ {
		c := line[i]
		if c == '\\' {
			i++
			continue
		}
		if c == '[' {
			depth++
		} else if c == ']' {
			depth--
			if depth == 0 {
				break
			}
		}
	}
	return i
}

// appendLabel adds a link's text: plain text and inline code spans.
func appendLabel(link ast.Node, src []byte, seg text.Segment) {
	line := seg.Value(src)
	start := 0
	for i := 0; i < len(line); i++ {
		if line[i] != '`' {
			continue
		}
		if n, end := matchCode(line[i:]); n != nil {
			if i > start {
				link.AppendChild(link, ast.NewTextSegment(text.NewSegment(seg.Start+start, seg.Start+i)))
			}
			link.AppendChild(link, n)
			i += end - 1
			start = i + 1
		}
	}
	if start < len(line) {
		link.AppendChild(link, ast.NewTextSegment(text.NewSegment(seg.Start+start, seg.Stop)))
	}
}

// parseLinkTarget parses `(url "title")` at line[i]: the URL may be in
// angle brackets, parentheses in it must balance, and an optional quoted
// title ends it. end is the offset after the closing parenthesis.
func parseLinkTarget(line []byte, i int) (dest, title string, end int, ok bool) {
	j := i + 1
	for j < len(line) && (line[j] == ' ' || line[j] == '\n') {
		j++
	}
	if j < len(line) && line[j] == '<' {
		k := j + 1
		for k < len(line) && line[k] != '>' && line[k] != '<' && line[k] != '\n' {
			k++
		}
		if k < len(line) && line[k] == '>' {
			dest = strings.TrimSpace(string(line[j+1 : k]))
			k++
			for k < len(line) && line[k] == ' ' {
				k++
			}
			if k < len(line) && (line[k] == '"' || line[k] == '\'') {
				q := line[k]
				e := k + 1
				for e < len(line) && line[e] != q {
					e++
				}
				if e >= len(line) {
					return "", "", 0, false
				}
				title = string(line[k+1 : e])
				k = e + 1
				for k < len(line) && line[k] == ' ' {
					k++
				}
			}
			if k < len(line) && line[k] == ')' {
				return dest, title, k + 1, true
			}
		}
		return "", "", 0, false
	}
	depth := 1
	k := j
	for ; k < len(line) && line[k] != '\n'; k++ {
		if line[k] == '(' {
			depth++
		} else if line[k] == ')' {
			depth--
			if depth == 0 {
				break
			}
		}
	}
	if k >= len(line) || line[k] != ')' {
		return "", "", 0, false
	}
	inner := strings.TrimSpace(string(line[j:k]))
	// A trailing quoted title after whitespace.
	if n := len(inner); n >= 2 && (inner[n-1] == '"' || inner[n-1] == '\'') {
		q := inner[n-1]
		if s := strings.LastIndexAny(inner[:n-1], " \t"); s >= 0 && s+1 < n-1 && inner[s+1] == q {
			title = inner[s+2 : n-1]
			inner = strings.TrimSpace(inner[:s])
		}
	}
	return inner, title, k + 1, true
}
