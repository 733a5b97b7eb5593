package markdown

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The fixture cases are Zulip's own markdown test cases, kept in the
// shared directory beside the repository (../shared/fixtures/markdown).

type fixtureCase struct {
	Name               string `json:"name"`
	Input              string `json:"input"`
	ExpectedOutput     string `json:"expected_output"`
	TranslateEmoticons bool   `json:"translate_emoticons"`
	Ignore             bool   `json:"ignore"`
}

// missingFixtures skips a fixture test in a clone without ../shared, and
// fails it in CI (CI=true), which always has the fixtures: a skipped
// fixture run there would hide every renderer regression.
func missingFixtures(t testing.TB, what string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("markdown fixtures missing in CI: %s", what)
	}
	t.Skipf("markdown fixtures not found (%s): the renderer's fixture cases did not run", what)
}

func fixtureDir(t testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.mod above the test")
		}
		dir = parent
	}
	fx := filepath.Join(dir, "..", "shared", "fixtures", "markdown")
	if _, err := os.Stat(fx); err != nil {
		missingFixtures(t, fx)
	}
	return fx
}

func loadFixtures(t testing.TB, file string) []fixtureCase {
	b, err := os.ReadFile(filepath.Join(fixtureDir(t), file))
	if err != nil {
		missingFixtures(t, file)
	}
	var f struct {
		Cases []fixtureCase `json:"cases"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f.Cases
}

var pygmentsSpan = regexp.MustCompile(`<div class="codehilite"[^>]*><pre><span></span><code>[^<]*<span class=`)

// category is the README's class of a case counted apart from the score.
func category(expected string) string {
	switch {
	case strings.Contains(expected, `class="katex`) || strings.Contains(expected, "tex-error"):
		return "katex"
	case strings.Contains(expected, "external-content.zulipcdn.net"):
		return "camo"
	case pygmentsSpan.MatchString(expected):
		return "pygments"
	}
	return ""
}

// fixtureLookup is the test realm the cases assume: nothing to look up.
type fixtureRealm struct{ noLookup }

// fixtureFormatting renders as the server the cases come from (Zulip
// 8.0-dev, feature level 218) did.
var fixtureFormatting = []Option{WithStreamNarrows(), WithoutMessageLinks(), WithoutEmptyTopicLinks(),
	WithTopicLinkWith(TopicWithNone), WithTimestampErrors()}

// TestFixtures renders every case of visible.json and visible_linkify.json
// as the server of their feature level did, and compares byte for byte.
func TestFixtures(t *testing.T) {
	r := New(append([]Option{WithRealmURL("http://zulip.testserver"),
		WithCamo("https://external-content.zulipcdn.net/external_content/", "dummy")}, fixtureFormatting...)...)
	var cases []fixtureCase
	cases = append(cases, loadFixtures(t, "visible.json")...)
	cases = append(cases, loadFixtures(t, "visible_linkify.json")...)
	passed, total := 0, 0
	apart := map[string][2]int{}
	var failed []string
	for _, c := range cases {
		if c.Ignore {
			continue
		}
		got := r.RenderFor(c.Input, Context{Lookup: fixtureRealm{}, TranslateEmoticons: c.TranslateEmoticons}).HTML
		ok := got == c.ExpectedOutput
		if cat := category(c.ExpectedOutput); cat != "" {
			a := apart[cat]
			a[1]++
			if ok {
				a[0]++
			}
			apart[cat] = a
			continue
		}
		total++
		if ok {
			passed++
			continue
		}
		failed = append(failed, c.Name)
		if testing.Verbose() {
			t.Logf("FAIL %s\n  input: %q\n  want:  %q\n  got:   %q", c.Name, c.Input, c.ExpectedOutput, got)
		}
	}
	t.Logf("markdown fixtures: %d/%d passed (%.1f%%)", passed, total, 100*float64(passed)/float64(total))
	for cat, a := range apart {
		t.Logf("counted apart: %s %d/%d", cat, a[0], a[1])
	}
	if len(failed) > 0 {
		t.Logf("failing: %s", strings.Join(failed, " "))
	}
	if float64(passed) < 0.9*float64(total) {
		t.Errorf("fidelity %d/%d is below 90%%", passed, total)
	}
}
