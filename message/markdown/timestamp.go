package markdown

import (
	"strconv"
	"strings"
	"time"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Global times: <time:…> holding an ISO 8601 time, a date in words or a
// Unix timestamp renders as <time datetime="…Z">…</time>; a time without
// zone is UTC. Anything else is shown as written (before Zulip 12.0, as a
// timestamp-error span: WithTimestampErrors).

// KindTimestamp is the node kind of a global time.
var KindTimestamp = ast.NewNodeKind("ZulipTimestamp")

type timestampNode struct {
	ast.BaseInline
	Input    string
	DateTime string // "" when the input is not a time
	// ErrorSpan shows an input that is not a time as the
	// timestamp-error span (WithTimestampErrors), not as written.
	ErrorSpan bool
}

func (n *timestampNode) Kind() ast.NodeKind { return KindTimestamp }

func (n *timestampNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

type timestampParser struct{}

func newTimestampParser() parser.InlineParser { return timestampParser{} }

func (timestampParser) Trigger() []byte { return []byte{'<'} }

func (timestampParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	const open = "<time:"
	if len(line) < len(open)+1 || string(line[:len(open)]) != open {
		return nil
	}
	end := strings.IndexAny(string(line[len(open):]), ">\n")
	if end < 0 || line[len(open)+end] != '>' {
		return nil
	}
	input := string(line[len(open) : len(open)+end])
	n := &timestampNode{Input: input, ErrorSpan: getState(pc).fmt.timestampErrors}
	if t, ok := parseTime(input); ok {
		n.DateTime = isoUTC(t)
	}
	block.Advance(len(open) + end + 1)
	return n
}

// isoUTC formats t as Python's isoformat() in UTC, with Z.
func isoUTC(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond() != 0 {
		return t.Format("2006-01-02T15:04:05.000000") + "Z"
	}
	return t.Format("2006-01-02T15:04:05") + "Z"
}

// zoneOffsets are the zone abbreviations accepted in times written in
// words, in seconds east of UTC.
var zoneOffsets = map[string]int{
	"UTC": 0, "GMT": 0, "Z": 0, "IST": 19800, "EST": -18000, "EDT": -14400, "CST": -21600,
	"CDT": -18000, "MST": -25200, "MDT": -21600, "PST": -28800, "PDT": -25200,
	"CET": 3600, "CEST": 7200, "BST": 3600, "JST": 32400, "AEST": 36000, "AEDT": 39600,
}

var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999Z0700",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
	"2006-01-02",
	"2 Jan 2006 3:04 pm",
	"2 Jan 2006 3:04pm",
	"2 Jan 2006 15:04",
	"2 Jan 2006",
	"Jan 2 2006 3:04 pm",
	"Jan 2 2006",
	"January 2 2006",
	"2 January 2006",
	"Mon, 2 Jan 2006 15:04:05 -0700",
	"Mon Jan 2 15:04:05 2006",
}

// parseTime reads a time as Zulip's date parser would for common forms.
func parseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		sec := int64(f)
		return time.Unix(sec, int64((f-float64(sec))*1e6)*1e3).UTC(), true
	}
	loc := time.UTC
	words := strings.Fields(strings.ReplaceAll(s, ",", " "))
	if n := len(words); n > 1 {
		if off, ok := zoneOffsets[strings.ToUpper(words[n-1])]; ok {
			loc = time.FixedZone(words[n-1], off)
			words = words[:n-1]
		}
	}
	cleaned := strings.Join(words, " ")
	cleaned = strings.ReplaceAll(strings.ReplaceAll(cleaned, " AM", " am"), " PM", " pm")
	for _, l := range timeLayouts {
		if t, err := time.ParseInLocation(l, cleaned, loc); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func renderTimestamp(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*timestampNode)
	switch {
	case n.DateTime == "" && n.ErrorSpan:
		_, _ = w.WriteString(`<span class="timestamp-error">Invalid time format: ` + escapeText(n.Input) + "</span>")
		return ast.WalkSkipChildren, nil
	case n.DateTime == "":
		_, _ = w.WriteString(escapeText("<time:" + n.Input + ">"))
		return ast.WalkSkipChildren, nil
	}
	writeTag(w, "time", [][2]string{{"datetime", n.DateTime}})
	_, _ = w.WriteString(escapeText(n.Input) + "</time>")
	return ast.WalkSkipChildren, nil
}
