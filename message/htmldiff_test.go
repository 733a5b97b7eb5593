package message

import "testing"

func TestHTMLDiff(t *testing.T) {
	for _, c := range []struct{ old, new, want string }{
		{"<p>hello</p>", "<p>hello</p>", "<p>hello</p>"},
		{"<p>hello world</p>", "<p>hello there world</p>", `<p>hello <span class="highlight_text_inserted">there </span>world</p>`},
		{"<p>hello old world</p>", "<p>hello world</p>", `<p>hello <span class="highlight_text_deleted">old </span>world</p>`},
		{"<p>a</p>", "<p><strong>a</strong></p>", `<p><strong>a</strong></p>`},
		{"<p>hi</p>", "<p>edited</p>", `<p><span class="highlight_text_deleted">hi</span><span class="highlight_text_inserted">edited</span></p>`},
	} {
		if got := HTMLDiff(c.old, c.new); got != c.want {
			t.Errorf("HTMLDiff(%q, %q)\n got %s\nwant %s", c.old, c.new, got, c.want)
		}
	}
}
