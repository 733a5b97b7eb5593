package message

import "testing"

func TestHasAlertWord(t *testing.T) {
	for _, c := range []struct {
		content, word string
		want          bool
	}{
		{"the Release is out", "release", true},
		{"RELEASE!", "release", true},
		{"(release)", "release", true},
		{"pre-release notes", "release", false}, // '-' may not precede
		{"releases", "release", false},          // 's' may not follow
		{"a release.", "release", true},
		{"xrelease", "release", true}, // Zulip's quirk: a match at the second character counts
		{"xxrelease", "release", false},
		{`say "release"`, "release", false}, // '"' may precede but not follow
		{"*release*", "release", true},
		{"`release`", "release", true},
		{"```\nrelease\n```\n", "release", false},         // fenced code is left out
		{"~~~~\nrelease\n~~~\nrelease", "release", false}, // a shorter fence does not close it
		{"```\ncode\n```\nrelease", "release", true},
		{"two words here", "two words", true},
		{"héllo wörld", "WÖRLD", true},
		{"", "release", false},
		{"release", "", false},
	} {
		if got := ContainsAlertWord(AlertText(c.content), c.word); got != c.want {
			t.Errorf("ContainsAlertWord(%q, %q) = %v, want %v", c.content, c.word, got, c.want)
		}
	}
}
