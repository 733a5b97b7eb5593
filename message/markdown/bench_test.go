package markdown

import (
	"bytes"
	"testing"

	"github.com/yuin/goldmark"
)

// benchMessage is a 300-character message with a mention, an emoji, a
// link and inline code.
var benchMessage = func() string {
	s := "Hey @**King Hamlet**, the deploy is done :smile: — see https://zulip.com/help/format-your-message for the syntax, " +
		"and run `./tools/test-backend --coverage` before you push. The castle walls need **another** look, and the " +
		"moat is *still* too shallow; let us talk about it tomorrow at the usual place."
	for len(s) < 300 {
		s += " ok"
	}
	return s[:300]
}()

func BenchmarkRender(b *testing.B) {
	r := New()
	lookup := testRealm{}
	b.SetBytes(int64(len(benchMessage)))
	b.ReportAllocs()
	for b.Loop() {
		r.RenderWith(benchMessage, lookup)
	}
}

// BenchmarkPlainGoldmark renders the same text with goldmark's defaults,
// the baseline the Zulip renderer is measured against.
func BenchmarkPlainGoldmark(b *testing.B) {
	md := goldmark.New()
	src := []byte(benchMessage)
	var buf bytes.Buffer
	b.SetBytes(int64(len(benchMessage)))
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := md.Convert(src, &buf); err != nil {
			b.Fatal(err)
		}
	}
}
