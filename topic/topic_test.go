package topic

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNormalizeTruncatesWithEllipsis(t *testing.T) {
	long := strings.Repeat("é", 70)
	got := Normalize("  " + long + " ")
	if utf8.RuneCountInString(got) != MaxLength {
		t.Fatalf("length %d, want %d", utf8.RuneCountInString(got), MaxLength)
	}
	if !strings.HasSuffix(got, "...") || !strings.HasPrefix(got, strings.Repeat("é", 57)) {
		t.Fatalf("got %q", got)
	}
	if Normalize(" exactly ") != "exactly" {
		t.Fatal("whitespace not stripped")
	}
	sixty := strings.Repeat("a", 60)
	if Normalize(sixty) != sixty {
		t.Fatal("a 60-char topic must stay whole")
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

func TestEmptyAliasAndResolved(t *testing.T) {
	if !IsEmptyAlias("(no topic)", "general chat") || !IsEmptyAlias("general chat", "general chat") || IsEmptyAlias("x", "general chat") {
		t.Fatal("empty alias")
	}
	if Resolved("bug") != "✔ bug" || Unresolved("✔ bug") != "bug" || !IsResolved("✔ bug") || IsResolved("✔bug") {
		t.Fatal("resolved marker")
	}
	if !ContainsForbidden("a\x00b") || ContainsForbidden("ok topic") {
		t.Fatal("forbidden characters")
	}
}
