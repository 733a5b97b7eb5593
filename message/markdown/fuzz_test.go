package markdown

import (
	"strings"
	"testing"
	"time"
)

// FuzzRender: no input panics the renderer, leaks a <script> tag or takes
// long.
func FuzzRender(f *testing.F) {
	for _, s := range []string{
		"", "hello **world**", "<script>alert(1)</script>", "```spoiler <script>\n<script>\n```",
		"* a\n  * b\n\n    c", "> quote\n>> nested", "@**King Hamlet** #**core team>topic** :smile: 🐙",
		"[x](javascript:alert(1)) <time:1496701800> $$x$$", "~~~quote\n```\ncode\n", "| a | b |\n|---|---|\n| 1 | 2 |",
		"http://example.com/(a(b)c) foo.com/x.png", "&amp; &#x27; &", "***a*** **b** *c* ~~d~~",
		benchMessage,
	} {
		f.Add(s)
	}
	r := New(WithRealmURL("http://zulip.example.com"))
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 10000 {
			return
		}
		start := time.Now()
		res := r.RenderWith(in, testRealm{})
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("render took %v", d)
		}
		if strings.Contains(strings.ToLower(res.HTML), "<script") {
			t.Fatalf("unescaped <script in %q", res.HTML)
		}
	})
}
