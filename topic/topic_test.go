package topic

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNormalizeTruncatesToTheConfiguredLength(t *testing.T) {
	long := strings.Repeat("é", 70)
	got := Normalize("  "+long+" ", DefaultMaxLength)
	if utf8.RuneCountInString(got) != DefaultMaxLength {
		t.Fatalf("length %d, want %d", utf8.RuneCountInString(got), DefaultMaxLength)
	}
	if !strings.HasSuffix(got, "...") || !strings.HasPrefix(got, strings.Repeat("é", 57)) {
		t.Fatalf("got %q", got)
	}
	if Normalize(" exactly ", DefaultMaxLength) != "exactly" {
		t.Fatal("whitespace not stripped")
	}
	sixty := strings.Repeat("a", 60)
	if Normalize(sixty, DefaultMaxLength) != sixty {
		t.Fatal("a 60-char topic must stay whole")
	}
	if got := Normalize("abcdefghijkl", 10); got != "abcdefg..." {
		t.Fatalf("a limit of 10 gives %q", got)
	}
	if got := Normalize(sixty+"b", 0); got != Normalize(sixty+"b", DefaultMaxLength) {
		t.Fatalf("an unset limit is the default: %q", got)
	}
}

func TestFirstUnprintable(t *testing.T) {
	for s, want := range map[string]int{
		"ok topic":     0,
		"a\x00b":       2,
		"tab\there":    4,
		"é\u0085":      2, // C1 control
		"x\ufdd0":      2, // non-character
		"\U0001fffe":   1, // a plane's last code points
		"emoji 😎 fine": 0,
		"\ufffd":       0, // the replacement character is printable
		"zero\u200bw":  0, // format characters (Cf) are allowed
	} {
		if got := FirstUnprintable(s); got != want {
			t.Errorf("%q: %d, want %d", s, got, want)
		}
	}
}

func TestStored(t *testing.T) {
	rules := Rules{MaxLength: 10, EmptyDisplayName: "general chat"}
	for raw, want := range map[string]string{
		" castle ":       "castle",
		"(no topic)":     "",
		"general chat":   "",
		"General chat":   "General...", // the alias is exact
		"":               "",
		"a long name ok": "a long ...",
	} {
		if got, err := rules.Stored(raw); err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", raw, got, err, want)
		}
	}
	_, err := rules.Stored("bad\x01")
	var ic *InvalidCharacterError
	if !errors.As(err, &ic) || ic.Position != 4 || err.Error() != "Invalid character in topic, at position 4!" {
		t.Fatalf("control character: %v", err)
	}
}

func TestDisplayAndOperand(t *testing.T) {
	rules := Rules{EmptyDisplayName: "general chat"}
	if rules.Display("", false) != "general chat" || rules.Display("", true) != "" || rules.Display("x", false) != "x" {
		t.Fatal("display name of the empty topic")
	}
	if rules.Operand("general chat") != "" || rules.Operand("x") != "x" {
		t.Fatal("narrow operand")
	}
	if !rules.IsEmptyAlias("(no topic)") || !rules.IsEmptyAlias("general chat") || rules.IsEmptyAlias("x") ||
		(Rules{}).IsEmptyAlias("") {
		t.Fatal("empty aliases")
	}
}

func TestKeyIsCaseInsensitive(t *testing.T) {
	if !Equal("Hello World", "hello world") || !Equal("ÉTÉ", "été") {
		t.Fatal("topics must match case-insensitively")
	}
	if Equal("a", "b") {
		t.Fatal("different topics matched")
	}
}

func TestResolvedMarker(t *testing.T) {
	if Resolved("bug") != "✔ bug" || Resolved("✔ bug") != "✔ bug" || Unresolved("✔ bug") != "bug" || !IsResolved("✔ bug") || IsResolved("✔bug") {
		t.Fatal("resolved marker")
	}
}

func TestResolutionOf(t *testing.T) {
	for _, c := range []struct {
		old, new string
		want     Resolution
	}{
		{"bug", "✔ bug", Resolves},
		{"✔ bug", "bug", Unresolves},
		{"bug", "✔ other", NotResolution},
		{"✔ bug", "✔ ✔ bug", Resolves},
		{"bug", "Bug", NotResolution},
		{"✔ bug", "other", NotResolution},
	} {
		if got := ResolutionOf(c.old, c.new); got != c.want {
			t.Errorf("ResolutionOf(%q, %q) = %v, want %v", c.old, c.new, got, c.want)
		}
	}
	rules := Rules{MaxLength: 60, EmptyDisplayName: "general chat"}
	for _, name := range []string{"✔", "✔ general chat", "✔ (no topic)"} {
		if !rules.ResolvesEmpty("", name) {
			t.Errorf("resolving the empty topic as %q not caught", name)
		}
	}
	if rules.ResolvesEmpty("", "✔ x") || rules.ResolvesEmpty("x", "✔") {
		t.Error("ResolvesEmpty caught an ordinary rename")
	}
}
