package markdown

import (
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// Tables use goldmark's GFM table parser and render as Python-Markdown's
// tables extension does.
type tableHTML struct{}

func (tableHTML) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(east.KindTable, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			_, _ = w.WriteString("<table>\n")
		} else {
			if n.LastChild() != nil && n.LastChild().Kind() == east.KindTableRow {
				_, _ = w.WriteString("</tbody>\n")
			}
			_, _ = w.WriteString("</table>\n")
		}
		return ast.WalkContinue, nil
	})
	reg.Register(east.KindTableHeader, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			_, _ = w.WriteString("<thead>\n<tr>\n")
		} else {
			_, _ = w.WriteString("</tr>\n</thead>\n")
			if n.NextSibling() != nil {
				_, _ = w.WriteString("<tbody>\n")
			}
		}
		return ast.WalkContinue, nil
	})
	reg.Register(east.KindTableRow, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			_, _ = w.WriteString("<tr>\n")
		} else {
			_, _ = w.WriteString("</tr>\n")
		}
		return ast.WalkContinue, nil
	})
	reg.Register(east.KindTableCell, func(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		n := node.(*east.TableCell)
		tag := "td"
		if _, ok := n.Parent().(*east.TableHeader); ok {
			tag = "th"
		}
		if !entering {
			_, _ = w.WriteString("</" + tag + ">\n")
			return ast.WalkContinue, nil
		}
		var attrs [][2]string
		switch n.Alignment {
		case east.AlignLeft:
			attrs = append(attrs, [2]string{"style", "text-align: left;"})
		case east.AlignRight:
			attrs = append(attrs, [2]string{"style", "text-align: right;"})
		case east.AlignCenter:
			attrs = append(attrs, [2]string{"style", "text-align: center;"})
		}
		writeTag(w, tag, attrs)
		return ast.WalkContinue, nil
	})
}
