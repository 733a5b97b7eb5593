package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// HTML entities (&amp;, &#39;, &#x27;, &name;) pass through as written;
// any other & is escaped.

type entityParser struct{}

func newEntityParser() parser.InlineParser { return entityParser{} }

func (entityParser) Trigger() []byte { return []byte{'&'} }

func (entityParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	i := 1
	alnum := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }
	if i < len(line) && line[i] == '#' {
		i++
		if i < len(line) && (line[i] == 'x' || line[i] == 'X') {
			i++
			j := i
			for j < len(line) && (line[j] >= '0' && line[j] <= '9' || line[j] >= 'a' && line[j] <= 'f' || line[j] >= 'A' && line[j] <= 'F') {
				j++
			}
			if j == i {
				return nil
			}
			i = j
		} else {
			j := i
			for j < len(line) && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j == i {
				return nil
			}
			i = j
		}
	} else {
		j := i
		for j < len(line) && alnum(line[j]) {
			j++
		}
		if j == i {
			return nil
		}
		i = j
	}
	if i >= len(line) || line[i] != ';' {
		return nil
	}
	s := ast.NewString(append([]byte(nil), line[:i+1]...))
	s.SetCode(true) // written raw
	block.Advance(i + 1)
	return s
}
