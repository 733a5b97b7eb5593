package markdown

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
)

// Every row of the table is found both ways: its name gives its code, and
// its code gives its canonical name.
func TestEmojiLookupsCoverEveryRow(t *testing.T) {
	sc := bufio.NewScanner(bytes.NewReader(emojiNamesData))
	rows := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		code, name := f[0], f[1]
		rows++
		if got, ok := EmojiCode(name); !ok || got != code {
			t.Errorf("EmojiCode(%q) = %q, %v; want %q", name, got, ok, code)
		}
		if got, ok := EmojiName(code); !ok || got != name {
			t.Errorf("EmojiName(%q) = %q, %v; want %q", code, got, ok, name)
		}
	}
	if rows < 1000 {
		t.Fatalf("only %d rows read", rows)
	}
	if _, ok := EmojiName("1f44d-"); ok {
		t.Fatal("a malformed code has a name")
	}
}
