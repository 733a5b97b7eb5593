package linkifier

import (
	"fmt"
	"slices"
	"strings"

	"github.com/yosida95/uritemplate/v3"
)

// URLTemplate is a checked RFC 6570 URL template.
type URLTemplate struct {
	source string
	tpl    *uritemplate.Template
}

// ParseURLTemplate checks that s is a valid RFC 6570 template.
func ParseURLTemplate(s string) (*URLTemplate, error) {
	if strings.TrimSpace(s) == "" {
		return nil, ValidationError("Invalid URL template.")
	}
	tpl, err := uritemplate.New(s)
	if err != nil {
		return nil, ValidationError("Invalid URL template.")
	}
	return &URLTemplate{source: s, tpl: tpl}, nil
}

// Source is the template as written.
func (t *URLTemplate) Source() string { return t.source }

// Variables lists the template's variable names.
func (t *URLTemplate) Variables() []string { return t.tpl.Varnames() }

// Expand fills the template with group values.
func (t *URLTemplate) Expand(groups map[string]string) string {
	vals := uritemplate.Values{}
	for k, v := range groups {
		vals.Set(k, uritemplate.String(v))
	}
	out, err := t.tpl.Expand(vals)
	if err != nil {
		return ""
	}
	return out
}

// checkVariablesMatch applies Zulip's rule that a URL template and a pattern
// name the same variables: each template variable must be a group, and
// (when all is set) each group must be used.
func checkVariablesMatch(t *URLTemplate, groups []string, all bool) error {
	vars := t.Variables()
	slices.Sort(vars)
	for _, v := range vars {
		if !slices.Contains(groups, v) {
			return ValidationError(fmt.Sprintf("Group '%s' in URL template is not present in linkifier pattern.", v))
		}
	}
	if all {
		sorted := slices.Clone(groups)
		slices.Sort(sorted)
		for _, g := range sorted {
			if !slices.Contains(vars, g) {
				return ValidationError(fmt.Sprintf("Group '%s' in linkifier pattern is not present in URL template.", g))
			}
		}
	}
	return nil
}

// reversePart is a literal run or a variable of a reverse template.
type reversePart struct {
	literal  string
	variable string
}

// ReverseTemplate turns a link back into the text that produces it, e.g.
// "{org}/{repo}#{id}". "{{" and "}}" stand for literal braces.
type ReverseTemplate struct {
	source string
	parts  []reversePart
}

// ParseReverseTemplate reads a reverse template; every variable must be a
// named group of the pattern.
func ParseReverseTemplate(s string, groups []string) (*ReverseTemplate, error) {
	rt := &ReverseTemplate{source: s}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			rt.parts = append(rt.parts, reversePart{literal: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '{' && i+1 < len(s) && s[i+1] == '{':
			lit.WriteByte('{')
			i++
		case c == '}' && i+1 < len(s) && s[i+1] == '}':
			lit.WriteByte('}')
			i++
		case c == '{':
			end := strings.IndexByte(s[i+1:], '}')
			if end < 0 {
				return nil, ValidationError("Invalid reverse template: unclosed '{'.")
			}
			name := s[i+1 : i+1+end]
			if name == "" || strings.ContainsAny(name, "{ ") {
				return nil, ValidationError(fmt.Sprintf("Invalid reverse template: bad variable '{%s}'.", name))
			}
			if !slices.Contains(groups, name) {
				return nil, ValidationError(fmt.Sprintf("Group '%s' in reverse template is not present in linkifier pattern.", name))
			}
			flush()
			rt.parts = append(rt.parts, reversePart{variable: name})
			i += end + 1
		case c == '}':
			return nil, ValidationError("Invalid reverse template: unmatched '}'; write '}}' for a literal brace.")
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	return rt, nil
}

// Source is the reverse template as written.
func (rt *ReverseTemplate) Source() string { return rt.source }

// Expand fills the reverse template with group values.
func (rt *ReverseTemplate) Expand(groups map[string]string) string {
	var b strings.Builder
	for _, p := range rt.parts {
		if p.variable != "" {
			b.WriteString(groups[p.variable])
		} else {
			b.WriteString(p.literal)
		}
	}
	return b.String()
}
