package markdown

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/minizulip/minizulip/linkifier"
)

// The plain-text shortcut gives exactly what the Markdown pipeline gives,
// for every text it takes: random texts over an alphabet rich in syntax
// characters, rendered both ways, with and without emoticons and with a
// linkifier that matches some of them.
func TestPlainShortcutMatchesTheMarkdownPipeline(t *testing.T) {
	r := New(WithRealmURL("http://zulip.example.com"))
	lookups := []Context{
		{},
		{Lookup: testRealm{}, TranslateEmoticons: true},
		{Lookup: testRealm{linkifiers: []*linkifier.Linkifier{mustLinkifier(t, 1, `RT(?P<id>[0-9]+)`, "https://rt.example/{id}")}}},
	}
	const alphabet = "abcdeXYZhtpwmoc019 ,.!?:;()<>&*_~`$#@[]\\/'\"-+=|\nRT"
	words := []string{"http", "www", "example", "com", "RT12", "1", "hello", "world", " ", "  ", ".", "!", "?", ","}
	rng := rand.New(rand.NewPCG(1, 2))
	taken := 0
	for i := 0; i < 20000; i++ {
		var b []byte
		n := 1 + rng.IntN(30)
		for j := 0; j < n; j++ {
			if rng.IntN(3) == 0 {
				b = append(b, words[rng.IntN(len(words))]...)
			} else {
				b = append(b, alphabet[rng.IntN(len(alphabet))])
			}
		}
		in := string(b)
		for _, c := range lookups {
			fast, ok := renderPlain(in, c)
			if !ok {
				continue
			}
			taken++
			if full := r.renderMarkdown(in, c); !reflect.DeepEqual(fast, full) {
				t.Fatalf("%q: shortcut %+v, pipeline %+v", in, fast, full)
			}
		}
	}
	if taken < 1000 {
		t.Fatalf("only %d texts took the shortcut; the test says little", taken)
	}
}

// Texts with syntax never take the shortcut; a linkifier that matches
// sends plain text through the pipeline too.
func TestPlainShortcutRefusesSyntax(t *testing.T) {
	for _, in := range []string{"", " hello", "hello ", "a  b", "1. item", "x.com", "a.b", "hi :)", "**b**", "a\nb",
		"@**King Hamlet**", "#**core team**", "see [x](y)", "caf\u00e9", "a&b", "a<b", "end?!", "x_y", "3 items"} {
		if plainParagraph(in) {
			t.Errorf("%q taken as plain text", in)
		}
	}
	for _, in := range []string{"hello world", "Hello, world!", "is it 42? yes. ok", "a"} {
		if !plainParagraph(in) {
			t.Errorf("%q not taken as plain text", in)
		}
	}
	c := Context{Lookup: testRealm{linkifiers: []*linkifier.Linkifier{mustLinkifier(t, 1, `RT(?P<id>[0-9]+)`, "https://rt.example/{id}")}}}
	if _, ok := renderPlain("see RT42 now", c); ok {
		t.Fatal("text a linkifier matches took the shortcut")
	}
	if res := New().RenderFor("see RT42 now", c); res.HTML != `<p>see <a href="https://rt.example/42">RT42</a> now</p>` || !res.HasLink {
		t.Fatalf("linkified plain text rendered %+v", res)
	}
}
