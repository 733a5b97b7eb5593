package linkifier

import (
	"fmt"
)

// Spec is a linkifier as a client sends it (POST/PATCH /realm/filters).
type Spec struct {
	Pattern     string
	URLTemplate string
	// ExampleInput, when set, must match the pattern as a whole.
	ExampleInput *string
	// ReverseTemplate, when set, must reproduce ExampleInput from the
	// groups extracted from it. An empty string means none.
	ReverseTemplate         *string
	AlternativeURLTemplates []string
}

// Linkifier is a validated, compiled linkifier. It is immutable.
type Linkifier struct {
	ID   int
	Spec Spec

	pattern *Pattern
	url     *URLTemplate
	reverse *ReverseTemplate
}

// New validates spec as Zulip does and compiles it. The error is a
// ValidationError whose text is Zulip's message.
func New(id int, spec Spec) (*Linkifier, error) {
	p, err := Compile(spec.Pattern)
	if err != nil {
		return nil, err
	}
	url, err := ParseURLTemplate(spec.URLTemplate)
	if err != nil {
		return nil, err
	}
	if err := checkVariablesMatch(url, p.Groups(), true); err != nil {
		return nil, err
	}
	for _, alt := range spec.AlternativeURLTemplates {
		t, err := ParseURLTemplate(alt)
		if err != nil {
			return nil, ValidationError(fmt.Sprintf("Invalid alternative URL template: %s", alt))
		}
		if err := checkVariablesMatch(t, p.Groups(), false); err != nil {
			return nil, err
		}
	}
	l := &Linkifier{ID: id, Spec: spec, pattern: p, url: url}
	if spec.ReverseTemplate != nil && *spec.ReverseTemplate == "" {
		l.Spec.ReverseTemplate = nil
	}
	if l.Spec.ReverseTemplate != nil {
		if l.reverse, err = ParseReverseTemplate(*l.Spec.ReverseTemplate, p.Groups()); err != nil {
			return nil, err
		}
		if spec.ExampleInput == nil || *spec.ExampleInput == "" {
			return nil, ValidationError("An example input is required to check the reverse template.")
		}
	}
	if spec.ExampleInput != nil && *spec.ExampleInput != "" {
		groups, ok := p.MatchWhole(*spec.ExampleInput)
		if !ok {
			return nil, ValidationError("Example input does not match the linkifier pattern.")
		}
		if l.reverse != nil {
			if got := l.reverse.Expand(groups); got != *spec.ExampleInput {
				return nil, ValidationError(fmt.Sprintf("Reverse template output '%s' does not match the example input '%s'.", got, *spec.ExampleInput))
			}
		}
	}
	return l, nil
}

// Pattern is the compiled pattern.
func (l *Linkifier) Pattern() *Pattern { return l.pattern }

// Link is a linkified span of text.
type Link struct {
	Start, End int // byte offsets
	Text       string
	URL        string
}

// Links finds the links this linkifier makes in text.
func (l *Linkifier) Links(text string) []Link {
	matches := l.pattern.FindAll(text)
	out := make([]Link, 0, len(matches))
	for _, m := range matches {
		out = append(out, Link{Start: m.Start, End: m.End, Text: m.Text, URL: l.url.Expand(m.Groups)})
	}
	return out
}

// ReverseText is the text the reverse template makes from a link's
// groups, or "" without a reverse template.
func (l *Linkifier) ReverseText(groups map[string]string) string {
	if l.reverse == nil {
		return ""
	}
	return l.reverse.Expand(groups)
}

// MayMatch reports cheaply whether the pattern can match anywhere in
// text, so a renderer can skip a linkifier without walking a document.
func (l *Linkifier) MayMatch(text []byte) bool { return l.pattern.re.Match(text) }
