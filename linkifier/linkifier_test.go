package linkifier

import (
	"strings"
	"testing"
)

func sp(s string) *string { return &s }

func TestNewValidation(t *testing.T) {
	cases := []struct {
		name string
		spec Spec
		err  string // "" means valid
	}{
		{"issue number", Spec{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://github.com/zulip/zulip/issues/{id}"}, ""},
		{"org repo id", Spec{Pattern: `(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_-]+)#(?P<id>[0-9]+)`,
			URLTemplate: "https://github.com/{org}/{repo}/pull/{id}", ExampleInput: sp("zulip/zulip#123"),
			ReverseTemplate: sp("{org}/{repo}#{id}")}, ""},
		{"dev seed", Spec{Pattern: `zulip-(?P<repo>[a-zA-Z-_0-9]+)#(?P<id>[0-9]{2,8})`, URLTemplate: "https://github.com/zulip/{repo}/pull/{id}"}, ""},
		{"plain reverse", Spec{Pattern: `T(?P<id>[0-9]+)`, URLTemplate: "https://t.example/{id}", ExampleInput: sp("T12"),
			ReverseTemplate: sp("T{id}")}, ""},
		{"bad regex", Spec{Pattern: `#(?P<id>[0-9+)`, URLTemplate: "https://x/{id}"}, "Bad regular expression"},
		{"empty pattern", Spec{Pattern: ``, URLTemplate: "https://x/"}, "Bad regular expression"},
		{"bad template", Spec{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id"}, "Invalid URL template."},
		{"unknown variable", Spec{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}/{other}"}, "Group 'other' in URL template is not present in linkifier pattern."},
		{"unused group", Spec{Pattern: `(?P<org>\w+)#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}"}, "Group 'org' in linkifier pattern is not present in URL template."},
		{"bad alternative", Spec{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", AlternativeURLTemplates: []string{"https://y/{nope}"}}, "Group 'nope'"},
		{"example mismatch", Spec{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", ExampleInput: sp("#abc")}, "does not match the linkifier pattern"},
		{"inconsistent reverse", Spec{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", ExampleInput: sp("#12"), ReverseTemplate: sp("!{id}")}, "does not match the example input"},
		{"reverse unknown var", Spec{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", ExampleInput: sp("#12"), ReverseTemplate: sp("#{num}")}, "Group 'num' in reverse template"},
		{"reverse lone brace", Spec{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", ExampleInput: sp("#12"), ReverseTemplate: sp("#{id}}")}, "unmatched '}'"},
		{"reverse without example", Spec{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", ReverseTemplate: sp("#{id}")}, "example input is required"},
	}
	for _, c := range cases {
		_, err := New(1, c.spec)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: unexpected error %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.err)
		}
	}
}

func TestReverseTemplateBraces(t *testing.T) {
	rt, err := ParseReverseTemplate("{{{id}}}", []string{"id"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rt.Expand(map[string]string{"id": "7"}); got != "{7}" {
		t.Fatalf("got %q", got)
	}
	l, err := New(1, Spec{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", ReverseTemplate: sp("")})
	if err != nil || l.Spec.ReverseTemplate != nil {
		t.Fatalf("an empty reverse template resets to none: %v %v", err, l.Spec.ReverseTemplate)
	}
}

func TestLinks(t *testing.T) {
	l, err := New(1, Spec{Pattern: `(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_-]+)#(?P<id>[0-9]+)`,
		URLTemplate: "https://github.com/{org}/{repo}/pull/{id}"})
	if err != nil {
		t.Fatal(err)
	}
	links := l.Links("é see zulip/zulip#123 and a/b#4")
	if len(links) != 2 || links[0].URL != "https://github.com/zulip/zulip/pull/123" || links[1].URL != "https://github.com/a/b/pull/4" {
		t.Fatalf("links %+v", links)
	}
	text := "é see zulip/zulip#123 and a/b#4"
	if text[links[0].Start:links[0].End] != "zulip/zulip#123" {
		t.Fatalf("byte offsets wrong: %q", text[links[0].Start:links[0].End])
	}
}

// Patterns run on Go's linear-time engine (Pattern holds a
// *regexp.Regexp): a pattern that backtracks catastrophically elsewhere
// (2^100000 steps here) finishes here, with the right answer. A hang
// would end in the test binary's timeout; no wall-clock bound, which a
// loaded machine would break.
func TestCatastrophicPatternIsLinear(t *testing.T) {
	l, err := New(1, Spec{Pattern: `(?P<x>(a+)+)$`, URLTemplate: "https://x/{x}"})
	if err != nil {
		t.Fatal(err)
	}
	if links := l.Links(strings.Repeat("a", 100000) + "b"); len(links) != 0 {
		t.Fatalf("no link ends the text, got %d", len(links))
	}
	if links := l.Links(strings.Repeat("a", 100000)); len(links) != 1 || links[0].End != 100000 {
		t.Fatalf("the whole text is one link, got %+v", links)
	}
}

// What RE2 syntax does not have is refused, as Zulip (which compiles
// linkifiers with re2) refuses it, and so is an oversized pattern (issue 14,
// item 3).
func TestNonRE2PatternsRefused(t *testing.T) {
	for pattern, msg := range map[string]string{
		`(?P<x>a)\1`:              "Bad regular expression: invalid escape sequence: `\\1`",
		`(?P<x>(a|aa)+)(?=b)`:     "Bad regular expression: invalid or unsupported Perl syntax: `(?=`",
		`(?P<x>a)(?<!b)`:          "Bad regular expression: invalid named capture: `(?<!b)`",
		strings.Repeat("a", 1001): "Bad regular expression: longer than 1000 bytes",
	} {
		_, err := New(1, Spec{Pattern: pattern, URLTemplate: "https://x/{x}"})
		if err == nil || err.Error() != msg {
			t.Errorf("%.30q: %v, want %q", pattern, err, msg)
		}
	}
	if _, err := New(1, Spec{Pattern: `#(?P<id>[0-9]+)` + strings.Repeat("a", 900), URLTemplate: "https://x/{id}"}); err != nil {
		t.Errorf("a pattern under the bound: %v", err)
	}
}
