// Package linkifier holds realm linkifiers: the validation Zulip applies to
// a linkifier's pattern, URL templates, reverse template and example input,
// and finding and expanding matches in text.
//
// Patterns use RE2 syntax, as Zulip's server does, including Python-style
// named groups `(?P<name>...)`; they are compiled with regexp2 and run under
// a match timeout so that no pattern can stall a send.
package linkifier

import (
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/dlclark/regexp2"
)

// DefaultMatchTimeout bounds one pattern's matching over one text.
const DefaultMatchTimeout = 20 * time.Millisecond

// timeoutCheckPeriod is how often regexp2's shared clock ticks while a
// match with a timeout runs; its default of 100 ms would let a timed-out
// match run 100 ms past its deadline.
const timeoutCheckPeriod = 5 * time.Millisecond

func init() { regexp2.SetTimeoutCheckPeriod(timeoutCheckPeriod) }

// Pattern is a compiled linkifier pattern.
type Pattern struct {
	source string
	re     *regexp2.Regexp
	// linear is the same pattern compiled by Go's regexp package, when it
	// can be (no backreferences or lookaround): it matches in linear time
	// and, being leftmost-first, finds the same matches as a backtracking
	// engine, so it is used instead of re when set.
	linear *regexp.Regexp
	groups []string // named groups, in pattern order
}

// ValidationError is a linkifier that Zulip would refuse; its text is the
// message sent back to the client.
type ValidationError string

func (e ValidationError) Error() string { return string(e) }

// Compile checks and compiles a pattern.
func Compile(source string, timeout time.Duration) (*Pattern, error) {
	if source == "" {
		return nil, ValidationError("Bad regular expression: missing pattern")
	}
	re, err := regexp2.Compile(source, regexp2.RE2)
	if err != nil {
		return nil, ValidationError(fmt.Sprintf("Bad regular expression: %s", trimRegexpError(err)))
	}
	if timeout <= 0 {
		timeout = DefaultMatchTimeout
	}
	re.MatchTimeout = timeout
	p := &Pattern{source: source, re: re}
	if linear, err := regexp.Compile(source); err == nil {
		p.linear = linear
	}
	for _, name := range re.GetGroupNames() {
		if !isNumber(name) {
			p.groups = append(p.groups, name)
		}
	}
	return p, nil
}

func isNumber(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

func trimRegexpError(err error) string {
	var msg = err.Error()
	const prefix = "error parsing regexp: "
	if len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
		return msg[len(prefix):]
	}
	return msg
}

// Source is the pattern as written.
func (p *Pattern) Source() string { return p.source }

// Groups lists the pattern's named groups in order.
func (p *Pattern) Groups() []string { return p.groups }

// Match is one match of a pattern in a text: its byte range and the
// values of the named groups.
type Match struct {
	Start, End int // byte offsets in the text
	Text       string
	Groups     map[string]string
}

// ErrTimeout is returned when matching ran out of time.
var ErrTimeout = errors.New("linkifier: match timeout")

// FindAll returns every non-overlapping match in text, left to right.
func (p *Pattern) FindAll(text string) ([]Match, error) {
	if p.linear != nil {
		return p.findAllLinear(text), nil
	}
	var out []Match
	m, err := p.re.FindStringMatch(text)
	runes := []rune(text)
	for err == nil && m != nil {
		start := len(string(runes[:m.Index]))
		mt := Match{Start: start, End: start + len(m.String()), Text: m.String(), Groups: map[string]string{}}
		for _, name := range p.groups {
			if g := m.GroupByName(name); g != nil && len(g.Captures) > 0 {
				mt.Groups[name] = g.String()
			}
		}
		out = append(out, mt)
		m, err = p.re.FindNextMatch(m)
	}
	if err != nil {
		return out, ErrTimeout
	}
	return out, nil
}

// MatchWhole reports whether the whole of text matches the pattern, and
// the named groups' values if so.
func (p *Pattern) MatchWhole(text string) (map[string]string, bool) {
	matches, err := p.FindAll(text)
	if err != nil {
		return nil, false
	}
	for _, m := range matches {
		if m.Start == 0 && m.End == len(text) {
			return m.Groups, true
		}
	}
	return nil, false
}

// findAllLinear is FindAll with Go's linear-time engine.
func (p *Pattern) findAllLinear(text string) []Match {
	all := p.linear.FindAllStringSubmatchIndex(text, -1)
	if all == nil {
		return nil
	}
	names := p.linear.SubexpNames()
	out := make([]Match, 0, len(all))
	for _, loc := range all {
		mt := Match{Start: loc[0], End: loc[1], Text: text[loc[0]:loc[1]], Groups: map[string]string{}}
		for i, name := range names {
			if name != "" && loc[2*i] >= 0 {
				mt.Groups[name] = text[loc[2*i]:loc[2*i+1]]
			}
		}
		out = append(out, mt)
	}
	return out
}
