package markdown

import (
	"bufio"
	"bytes"
	_ "embed"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Zulip's autolinks: a bare URL starts after whitespace, one of '"(,:<
// or the start of the text; it is http(s):// and a host, or a dotted
// domain ending in a known top-level domain, or an e-mail address; it
// may have a path whose parentheses balance (at most seven deep), and it
// must be followed only by closing punctuation and then whitespace or the
// end.

//go:embed data/tlds.txt
var tldData []byte

var (
	tldOnce sync.Once
	tldSet  map[string]bool
	tldMax  int
)

// falsePositiveTLDs are file extensions Zulip does not take as domains.
var falsePositiveTLDs = map[string]bool{"java": true, "md": true, "mov": true, "py": true, "zip": true}

func loadTLDs() {
	tldSet = map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(tldData))
	for sc.Scan() {
		t := strings.TrimSpace(sc.Text())
		if t == "" || t[0] == '#' || falsePositiveTLDs[t] {
			continue
		}
		tldSet[t] = true
		if len(t) > tldMax {
			tldMax = len(t)
		}
	}
}

func isTLD(s string) bool {
	tldOnce.Do(loadTLDs)
	return tldSet[s]
}

type autolinkParser struct{}

func newAutolinkParser() parser.InlineParser { return autolinkParser{} }

// Trigger: goldmark offers ' ' at spaces and at a line's start.
func (autolinkParser) Trigger() []byte { return []byte{' ', '\'', '"', '(', ',', ':', '<'} }

func (p autolinkParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	lead := 0
	if len(line) > 0 && strings.IndexByte(" '\"(,:<\t", line[0]) >= 0 {
		lead = 1
	}
	rest := line[lead:]
	n := matchURL(rest)
	if n == 0 {
		return nil
	}
	url := string(rest[:n])
	st := getState(pc)
	href, ok := sanitizeURL(url)
	if !ok {
		return nil
	}
	href = st.localLink(href)
	if lead > 0 {
		ast.MergeOrAppendTextSegment(parent, seg.WithStop(seg.Start+lead))
	}
	link := ast.NewLink()
	link.Destination = []byte(href)
	link.AppendChild(link, ast.NewTextSegment(text.NewSegment(seg.Start+lead, seg.Start+lead+n)))
	st.noteLink(href)
	block.Advance(lead + n)
	return link
}

func wordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// runWhile returns how many bytes of b from i satisfy f.
func runWhile(b []byte, i int, f func(rune) bool) int {
	j := i
	for j < len(b) {
		r, size := utf8.DecodeRune(b[j:])
		if !f(r) {
			break
		}
		j += size
	}
	return j - i
}

// urlEndOK is Zulip's lookahead after a URL: closing punctuation, then
// whitespace or the end.
func urlEndOK(b []byte, i int) bool {
	for i < len(b) && strings.IndexByte("!:;?),.'\">", b[i]) >= 0 {
		i++
	}
	if i >= len(b) {
		return true
	}
	r, _ := utf8.DecodeRune(b[i:])
	return unicode.IsSpace(r)
}

// matchPath matches a path at b[i] == '/': the shortest one after which
// the URL may end, with balanced parentheses. It returns the end or -1.
func matchPath(b []byte, i int) int {
	depth := 0
	for j := i + 1; ; {
		if depth == 0 && urlEndOK(b, j) {
			return j
		}
		if j >= len(b) {
			return -1
		}
		r, size := utf8.DecodeRune(b[j:])
		switch {
		case unicode.IsSpace(r) || r == '"':
			return -1
		case r == '(':
			depth++
			if depth > 7 {
				return -1
			}
		case r == ')':
			if depth == 0 {
				return -1
			}
			depth--
		}
		j += size
	}
}

// matchURL returns the length of the URL at the start of b, or 0.
func matchURL(b []byte) int {
	if !mayBeURL(b) {
		return 0
	}
	if n := matchWebURL(b); n > 0 {
		return n
	}
	return matchEmail(b)
}

// mayBeURL is a quick test run before the full matchers: a link needs a
// scheme, or a dot (domain) or an '@' (email) before the next space.
func mayBeURL(b []byte) bool {
	if bytes.HasPrefix(b, []byte("http://")) || bytes.HasPrefix(b, []byte("https://")) {
		return true
	}
	for _, c := range b {
		switch c {
		case '.', '@':
			return true
		case ' ', '\t', '\n', '\r':
			return false
		}
	}
	return false
}

func hostRune(r rune) bool { return wordRune(r) || r == '.' || r == ':' || r == '@' || r == '-' }

func matchWebURL(b []byte) int {
	start := 0
	switch {
	case bytes.HasPrefix(b, []byte("http://")):
		start = 7
	case bytes.HasPrefix(b, []byte("https://")):
		start = 8
	}
	if start > 0 {
		h := runWhile(b, start, hostRune)
		for k := 1; k <= h; k++ {
			end := start + k
			if k == h && end < len(b) && b[end] == '/' {
				if e := matchPath(b, end); e > 0 {
					return e
				}
			}
			if urlEndOK(b, end) {
				return end
			}
		}
	}
	return matchDomain(b)
}

func domainRune(r rune) bool { return wordRune(r) || r == '-' }

// matchDomain matches dotted labels ending in a known TLD, then an
// optional path.
func matchDomain(b []byte) int {
	// Offsets just after each dot of a run of labels.
	var dots []int
	for i := 0; ; {
		n := runWhile(b, i, domainRune)
		if n == 0 || i+n >= len(b) || b[i+n] != '.' {
			break
		}
		i += n + 1
		dots = append(dots, i)
	}
	if len(dots) == 0 {
		return 0
	}
	tldOnce.Do(loadTLDs)
	for d := len(dots) - 1; d >= 0; d-- {
		at := dots[d]
		avail := runWhile(b, at, domainRune)
		for l := min(avail, tldMax); l >= 1; l-- {
			if !isTLD(string(b[at : at+l])) {
				continue
			}
			end := at + l
			if end < len(b) && b[end] == '/' {
				if e := matchPath(b, end); e > 0 {
					return e
				}
			}
			if urlEndOK(b, end) {
				return end
			}
		}
	}
	return 0
}

func emailRune(r rune) bool { return wordRune(r) || r == '.' || r == '-' }

// matchEmail matches name@domain.tld.
func matchEmail(b []byte) int {
	n := runWhile(b, 0, emailRune)
	if n == 0 || n >= len(b) || b[n] != '@' {
		return 0
	}
	d := runWhile(b, n+1, emailRune)
	host := b[n+1 : n+1+d]
	for k := len(host); k > 0; k-- {
		h := host[:k]
		dot := bytes.LastIndexByte(h, '.')
		if dot <= 0 || dot == len(h)-1 {
			continue
		}
		if runWhile(h, dot+1, wordRune) != len(h)-dot-1 {
			continue
		}
		if urlEndOK(b, n+1+k) {
			return n + 1 + k
		}
	}
	return 0
}
