package message

import "testing"

func TestHighlightHTML(t *testing.T) {
	cases := []struct {
		name, in string
		terms    []string
		want     string
	}{
		{"text only, any case", `<p>Hello world, HELLO</p>`, []string{"hello"},
			`<p><span class="highlight">Hello</span> world, <span class="highlight">HELLO</span></p>`},
		{"never inside a tag", `<p><a href="https://hello.example" title="hello">say hello</a></p>`, []string{"hello"},
			`<p><a href="https://hello.example" title="hello">say <span class="highlight">hello</span></a></p>`},
		{"escaped text", `<p>fish &amp; chips</p>`, []string{"fish & chips"},
			`<p><span class="highlight">fish &amp; chips</span></p>`},
		{"longest term first", `<p>new design</p>`, []string{"new", "new design"},
			`<p><span class="highlight">new design</span></p>`},
		{"several terms", `<p>lunch at noon</p>`, []string{"lunch", "noon"},
			`<p><span class="highlight">lunch</span> at <span class="highlight">noon</span></p>`},
		{"unicode folding", `<p>ÉTÉ été</p>`, []string{"été"},
			`<p><span class="highlight">ÉTÉ</span> <span class="highlight">été</span></p>`},
		{"no terms", `<p>hello</p>`, nil, `<p>hello</p>`},
		{"empty term", `<p>hello</p>`, []string{""}, `<p>hello</p>`},
		{"unclosed tag kept", `<p>hello <b`, []string{"hello"}, `<p><span class="highlight">hello</span> <b`},
	}
	for _, c := range cases {
		if got := HighlightHTML(c.in, c.terms); got != c.want {
			t.Errorf("%s: HighlightHTML(%q, %q) = %q, want %q", c.name, c.in, c.terms, got, c.want)
		}
	}
}

func TestHighlightTopic(t *testing.T) {
	if got, want := HighlightTopic("R&D <plans>", []string{"r&d"}), `<span class="highlight">R&amp;D</span> &lt;plans&gt;`; got != want {
		t.Errorf("HighlightTopic = %q, want %q", got, want)
	}
	if got, want := HighlightTopic("a<b", nil), `a&lt;b`; got != want {
		t.Errorf("HighlightTopic without terms = %q, want %q", got, want)
	}
}
