// Package linkifier holds realm linkifiers: the validation Zulip applies to
// a linkifier's pattern, URL templates, reverse template and example input,
// and finding and expanding matches in text.
//
// Patterns use RE2 syntax, as Zulip's server does (it compiles them with
// re2), including Python-style named groups `(?P<name>...)`. What RE2 does
// not have (backreferences, lookaround) is refused, and every pattern runs
// on Go's linear-time engine, so no pattern can stall a send.
package linkifier

import (
	"fmt"
	"regexp"
)

// MaxPatternLength bounds a pattern's size, in bytes: a linkifier runs on
// every message, so its pattern stays small. (Zulip bounds it through its
// re2 compiler's program size; this bound is minizulip's.)
const MaxPatternLength = 1000

// Pattern is a compiled linkifier pattern.
type Pattern struct {
	source string
	re     *regexp.Regexp
	groups []string // named groups, in pattern order
}

// ValidationError is a linkifier that Zulip would refuse; its text is the
// message sent back to the client.
type ValidationError string

func (e ValidationError) Error() string { return string(e) }

// Compile checks and compiles a pattern.
func Compile(source string) (*Pattern, error) {
	if source == "" {
		return nil, ValidationError("Bad regular expression: missing pattern")
	}
	if len(source) > MaxPatternLength {
		return nil, ValidationError(fmt.Sprintf("Bad regular expression: longer than %d bytes", MaxPatternLength))
	}
	re, err := regexp.Compile(source)
	if err != nil {
		return nil, ValidationError(fmt.Sprintf("Bad regular expression: %s", trimRegexpError(err)))
	}
	p := &Pattern{source: source, re: re}
	for _, name := range re.SubexpNames() {
		if name != "" {
			p.groups = append(p.groups, name)
		}
	}
	return p, nil
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

// FindAll returns every non-overlapping match in text, left to right, in
// time linear in the text.
func (p *Pattern) FindAll(text string) []Match {
	all := p.re.FindAllStringSubmatchIndex(text, -1)
	if all == nil {
		return nil
	}
	names := p.re.SubexpNames()
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

// MatchWhole reports whether the whole of text matches the pattern, and
// the named groups' values if so.
func (p *Pattern) MatchWhole(text string) (map[string]string, bool) {
	for _, m := range p.FindAll(text) {
		if m.Start == 0 && m.End == len(text) {
			return m.Groups, true
		}
	}
	return nil, false
}
