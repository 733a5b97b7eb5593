package markdown

import "strings"

// normalize prepares content as Python-Markdown's whitespace step does:
// newlines are \n, tabs expand to 4-column stops, and lines holding only
// spaces become empty.
func normalize(s string) string {
	if strings.ContainsRune(s, '\r') {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	if !strings.ContainsAny(s, "\t ") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if strings.IndexByte(line, '\t') >= 0 {
			col := 0
			for _, r := range line {
				if r == '\t' {
					n := 4 - col%4
					b.WriteString("    "[:n])
					col += n
					continue
				}
				b.WriteRune(r)
				col++
			}
			continue
		}
		if strings.Trim(line, " ") == "" {
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}
