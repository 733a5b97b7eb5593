package message

import (
	"strings"
	"testing"
)

func TestRenderBasics(t *testing.T) {
	r := NewRenderer()
	cases := []struct{ in, want string }{
		{"hello", "<p>hello</p>"},
		{"**bold** and *em*", "<p><strong>bold</strong> and <em>em</em></p>"},
		{"line1\nline2", "<p>line1<br>\nline2</p>"},
		{"a <b>x</b>", "<p>a &lt;b&gt;x&lt;/b&gt;</p>"},
		{"<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"},
		{"`code`", "<p><code>code</code></p>"},
	}
	for _, c := range cases {
		if got := r.Render(c.in); got != c.want {
			t.Errorf("Render(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestRenderNeverPassesScript(t *testing.T) {
	r := NewRenderer()
	for _, in := range []string{"<div>\n<script>x</script>\n</div>", "x <img src=x onerror=alert(1)>", "<!-- c --><script>"} {
		if got := r.Render(in); strings.Contains(strings.ToLower(got), "<script") || strings.Contains(got, "<img") {
			t.Errorf("Render(%q) leaked HTML: %q", in, got)
		}
	}
}
