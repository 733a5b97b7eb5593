package markdown

import (
	"slices"
	"strings"
	"testing"
)

func TestRenderBasics(t *testing.T) {
	r := New()
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
	r := New()
	for _, in := range []string{"<div>\n<script>x</script>\n</div>", "x <img src=x onerror=alert(1)>", "<!-- c --><script>"} {
		if got := r.Render(in); strings.Contains(strings.ToLower(got), "<script") || strings.Contains(got, "<img") {
			t.Errorf("Render(%q) leaked HTML: %q", in, got)
		}
	}
}

func TestRenderReportsLinkImageAndUploadFacts(t *testing.T) {
	r := New(WithRealmURL("http://zulip.example"))
	for _, c := range []struct {
		in          string
		link, image bool
		uploads     []string
	}{
		{"plain words", false, false, nil},
		{"see https://example.com/x", true, false, nil},
		{"pic https://example.com/cat.png", true, true, nil},
		{"[a.txt](/user_uploads/2/ab/a.txt) and [again](http://zulip.example/user_uploads/2/ab/a.txt) [b](/user_uploads/2/cd/b.pdf)",
			true, false, []string{"2/ab/a.txt", "2/cd/b.pdf"}},
		{"[elsewhere](https://other.example/user_uploads/2/ab/a.txt)", true, false, nil},
	} {
		res := r.RenderFor(c.in, Context{})
		if res.HasLink != c.link || res.HasImage != c.image || !slices.Equal(res.UploadPaths, c.uploads) {
			t.Errorf("%q: link %v image %v uploads %v", c.in, res.HasLink, res.HasImage, res.UploadPaths)
		}
	}
}
