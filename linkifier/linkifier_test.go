package linkifier

import (
	"strings"
	"testing"
	"time"
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
		_, err := New(1, c.spec, 0)
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
	l, err := New(1, Spec{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", ReverseTemplate: sp("")}, 0)
	if err != nil || l.Spec.ReverseTemplate != nil {
		t.Fatalf("an empty reverse template resets to none: %v %v", err, l.Spec.ReverseTemplate)
	}
}

func TestLinks(t *testing.T) {
	l, err := New(1, Spec{Pattern: `(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_-]+)#(?P<id>[0-9]+)`,
		URLTemplate: "https://github.com/{org}/{repo}/pull/{id}"}, 0)
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

func TestCatastrophicPatternTimesOut(t *testing.T) {
	l, err := New(1, Spec{Pattern: `(?P<x>(a+)+)$`, URLTemplate: "https://x/{x}"}, 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	l.Links(strings.Repeat("a", 40) + "b")
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Fatalf("adversarial pattern ran %v", d)
	}
}

// A pattern Go's engine refuses (lookahead) runs on regexp2, where the
// match timeout is what stops catastrophic backtracking.
func TestBacktrackingPatternTimesOut(t *testing.T) {
	l, err := New(1, Spec{Pattern: `(?P<x>(a|aa)+)(?=b)`, URLTemplate: "https://x/{x}"}, 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if l.pattern.linear != nil {
		t.Fatal("lookahead should not compile with Go's regexp")
	}
	start := time.Now()
	l.Links(strings.Repeat("a", 60) + "c")
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Fatalf("adversarial pattern ran %v", d)
	}
	if links := l.Links("aab"); len(links) != 1 || links[0].URL != "https://x/aa" {
		t.Fatalf("lookahead pattern links %+v", links)
	}
}

func TestLinearAndBacktrackingAgree(t *testing.T) {
	for _, c := range []struct{ pattern, text string }{
		{`#(?P<id>[0-9]+)`, "a #12 b #345"},
		{`(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_-]+)#(?P<id>[0-9]+)`, "é zulip/zulip#1 x a/b#22"},
		{`(?P<w>a|ab)(?P<t>c|bcd)`, "abcd"},
	} {
		p, err := Compile(c.pattern, 0)
		if err != nil || p.linear == nil {
			t.Fatalf("%s: %v", c.pattern, err)
		}
		fast, _ := p.FindAll(c.text)
		p.linear = nil
		slow, _ := p.FindAll(c.text)
		if len(fast) != len(slow) {
			t.Fatalf("%s: %+v vs %+v", c.pattern, fast, slow)
		}
		for i := range fast {
			if fast[i].Start != slow[i].Start || fast[i].End != slow[i].End || len(fast[i].Groups) != len(slow[i].Groups) {
				t.Fatalf("%s: %+v vs %+v", c.pattern, fast[i], slow[i])
			}
			for k, v := range fast[i].Groups {
				if slow[i].Groups[k] != v {
					t.Fatalf("%s group %s: %q vs %q", c.pattern, k, v, slow[i].Groups[k])
				}
			}
		}
	}
}
