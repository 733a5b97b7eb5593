package markdown

import (
	"slices"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/linkifier"
)

// testRealm is a small realm for the syntax tests.
type testRealm struct {
	noLookup
	linkifiers []*linkifier.Linkifier
}

var testUsers = []User{
	{ID: 10, FullName: "King Hamlet", Active: true},
	{ID: 11, FullName: "Iago", Active: true},
	{ID: 12, FullName: "Gone Person", Active: false},
}

func (testRealm) UserByName(name string) (User, bool) {
	for _, u := range testUsers {
		if strings.EqualFold(u.FullName, name) {
			return u, true
		}
	}
	return User{}, false
}

func (testRealm) UserByID(id int) (User, bool) {
	for _, u := range testUsers {
		if u.ID == id {
			return u, true
		}
	}
	return User{}, false
}

func (testRealm) GroupByName(name string) (Group, bool) {
	switch name {
	case "hamletcharacters":
		return Group{ID: 30, Name: name}, true
	case "oldgroup":
		return Group{ID: 31, Name: name, Deactivated: true}, true
	}
	return Group{}, false
}

func (testRealm) ChannelByName(name string) (Channel, bool) {
	if strings.EqualFold(name, "core team") {
		return Channel{ID: 5, Name: "core team"}, true
	}
	if name == "Denmark" {
		return Channel{ID: 1, Name: "Denmark"}, true
	}
	return Channel{}, false
}

func (testRealm) RealmEmoji(name string) (string, bool) {
	if name == "green_tick" {
		return "/user_avatars/2/emoji/images/green_tick.png", true
	}
	return "", false
}

func (t testRealm) Linkifiers() []*linkifier.Linkifier { return t.linkifiers }

func mustLinkifier(t testing.TB, id int, pattern, url string) *linkifier.Linkifier {
	l, err := linkifier.New(id, linkifier.Spec{Pattern: pattern, URLTemplate: url})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

type syntaxCase struct{ in, want string }

func runCases(t *testing.T, lookup Lookup, cases []syntaxCase) {
	t.Helper()
	r := New(WithRealmURL("http://zulip.example.com"))
	for _, c := range cases {
		if got := r.RenderWith(c.in, lookup).HTML; got != c.want {
			t.Errorf("render %q\n got  %q\n want %q", c.in, got, c.want)
		}
	}
}

func TestUserMentions(t *testing.T) {
	runCases(t, testRealm{}, []syntaxCase{
		{"hi @**King Hamlet**", `<p>hi <span class="user-mention" data-user-id="10">@King Hamlet</span></p>`},
		{"@**king hamlet|10**", `<p>@<strong>king hamlet|10</strong></p>`},
		{"@**King Hamlet|10**", `<p><span class="user-mention" data-user-id="10">@King Hamlet</span></p>`},
		{"@**|11**", `<p><span class="user-mention" data-user-id="11">@Iago</span></p>`},
		{"@_**Iago**", `<p><span class="user-mention silent" data-user-id="11">Iago</span></p>`},
		{"@**Gone Person**", `<p><span class="user-mention silent" data-user-id="12">Gone Person</span></p>`},
		{"@**Nobody**", `<p>@<strong>Nobody</strong></p>`},
		{"mail@**Iago**", `<p>mail@<strong>Iago</strong></p>`},
		{"> @**Iago**", "<blockquote>\n<p><span class=\"user-mention silent\" data-user-id=\"11\">Iago</span></p>\n</blockquote>"},
	})
	r := New()
	res := r.RenderWith("@**Iago** @_**King Hamlet** > @**Gone Person**", testRealm{})
	if !slices.Equal(res.MentionedUserIDs, []int{11}) {
		t.Errorf("mentioned %v, want [11]", res.MentionedUserIDs)
	}
}

func TestWildcardMentions(t *testing.T) {
	r := New()
	for _, w := range []string{"all", "everyone", "channel", "stream"} {
		res := r.RenderWith("@**"+w+"**", testRealm{})
		want := `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@` + w + `</span></p>`
		if res.HTML != want || !res.StreamWildcard || res.TopicWildcard {
			t.Errorf("%s: %q %+v", w, res.HTML, res)
		}
	}
	res := r.RenderWith("@**topic**", testRealm{})
	if res.HTML != `<p><span class="topic-mention">@topic</span></p>` || !res.TopicWildcard || res.StreamWildcard {
		t.Errorf("topic: %+v", res)
	}
	res = r.RenderWith("@_**all**", testRealm{})
	if res.StreamWildcard || res.HTML != `<p><span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span></p>` {
		t.Errorf("silent all: %+v", res)
	}
}

func TestGroupMentions(t *testing.T) {
	runCases(t, testRealm{}, []syntaxCase{
		{"@*hamletcharacters*", `<p><span class="user-group-mention" data-user-group-id="30">@hamletcharacters</span></p>`},
		{"@_*hamletcharacters*", `<p><span class="user-group-mention silent" data-user-group-id="30">hamletcharacters</span></p>`},
		{"@*oldgroup*", `<p><span class="user-group-mention silent" data-user-group-id="31">oldgroup</span></p>`},
		{"@*nogroup*", `<p>@<em>nogroup</em></p>`},
	})
	res := New().RenderWith("@*hamletcharacters*", testRealm{})
	if !slices.Equal(res.MentionedGroupIDs, []int{30}) {
		t.Errorf("groups %v", res.MentionedGroupIDs)
	}
}

func TestChannelLinks(t *testing.T) {
	runCases(t, testRealm{}, []syntaxCase{
		{"#**core team**", `<p><a class="stream" data-stream-id="5" href="/#narrow/channel/5-core-team">#core team</a></p>`},
		{"#**Denmark>my topic.x**", `<p><a class="stream-topic" data-stream-id="1" href="/#narrow/channel/1-Denmark/topic/my.20topic.2Ex">#Denmark &gt; my topic.x</a></p>`},
		{"#**Denmark>castle@42**", `<p><a class="message-link" href="/#narrow/channel/1-Denmark/topic/castle/near/42">#Denmark &gt; castle @ 💬</a></p>`},
		{"#**Nowhere**", `<p>#<strong>Nowhere</strong></p>`},
	})
}

func TestEmoji(t *testing.T) {
	runCases(t, testRealm{}, []syntaxCase{
		{":smile:", `<p><span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>`},
		{":thumbs_up:", `<p><span aria-label="thumbs up" class="emoji emoji-1f44d" role="img" title="thumbs up">:thumbs_up:</span></p>`},
		{":green_tick:", `<p><img alt=":green_tick:" class="emoji" src="/user_avatars/2/emoji/images/green_tick.png" title="green tick"></p>`},
		{":zulip:", `<p><img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip"></p>`},
		{":notanemoji:", `<p>:notanemoji:</p>`},
		{"🐙", `<p><span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span></p>`},
		{"1 © 2", `<p>1 © 2</p>`},
	})
	r := New()
	got := r.RenderFor(":) and <3", Context{TranslateEmoticons: true}).HTML
	if !strings.Contains(got, "emoji-1f642") || !strings.Contains(got, "emoji-2764") {
		t.Errorf("emoticons: %q", got)
	}
}

func TestFences(t *testing.T) {
	runCases(t, testRealm{}, []syntaxCase{
		{"```quote\nhi\n```", "<blockquote>\n<p>hi</p>\n</blockquote>"},
		{"```spoiler Title\nsecret\n```", "<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n<p>Title</p>\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<p>secret</p>\n</div></div>"},
		{"```math\nx^2\n```", "<p><span class=\"tex-error\">x^2</span></p>"},
		{"$$x^2$$", "<p><span class=\"tex-error\">$$x^2$$</span></p>"},
		{"```\na < b\n```", "<div class=\"codehilite\"><pre><span></span><code>a &lt; b\n</code></pre></div>"},
		{"```go\nx := 1\n```", "<div class=\"codehilite\" data-code-language=\"Go\"><pre><span></span><code><span class=\"nx\">x</span> <span class=\"o\">:=</span> <span class=\"mi\">1</span>\n</code></pre></div>"},
	})
}

func TestLinksAndAutolinks(t *testing.T) {
	runCases(t, testRealm{}, []syntaxCase{
		{"[Zulip](https://zulip.com)", `<p><a href="https://zulip.com">Zulip</a></p>`},
		{"[x](javascript:alert(1))", `<p>[x](javascript:alert(1))</p>`},
		{"see zulip.com.", `<p>see <a href="http://zulip.com">zulip.com</a>.</p>`},
		{"[here](http://zulip.example.com/#narrow/channel/1)", `<p><a href="#narrow/channel/1">here</a></p>`},
		{"[ref]: https://x.org", `<p>[ref]: <a href="https://x.org">https://x.org</a></p>`},
		{"<https://x.org>", `<p>&lt;<a href="https://x.org">https://x.org</a>&gt;</p>`},
	})
}

func TestTimestamps(t *testing.T) {
	runCases(t, testRealm{}, []syntaxCase{
		{"<time:2024-05-01T10:00:00+02:00>", `<p><time datetime="2024-05-01T08:00:00Z">2024-05-01T10:00:00+02:00</time></p>`},
		{"<time:1496701800>", `<p><time datetime="2017-06-05T22:30:00Z">1496701800</time></p>`},
		{"<time:whenever>", `<p>&lt;time:whenever&gt;</p>`},
	})
}

func TestMeMessage(t *testing.T) {
	r := New()
	if !r.RenderWith("/me waves", nil).IsMeMessage {
		t.Error("/me waves is a me message")
	}
	if r.RenderWith("/me waves\nagain", nil).IsMeMessage || r.RenderWith("me waves", nil).IsMeMessage {
		t.Error("not me messages")
	}
}

func TestLinkifiers(t *testing.T) {
	lookup := testRealm{linkifiers: []*linkifier.Linkifier{
		mustLinkifier(t, 1, `#(?P<id>[0-9]+)`, "https://github.com/zulip/zulip/issues/{id}"),
	}}
	runCases(t, lookup, []syntaxCase{
		{"fixes #123.", `<p>fixes <a href="https://github.com/zulip/zulip/issues/123">#123</a>.</p>`},
		{"x#123", `<p>x#123</p>`},
		{"`#123`", `<p><code>#123</code></p>`},
	})
}

// TestAdversarialLinkifier: a pattern that backtracks catastrophically on
// other engines renders correctly (Go's regexp runs in linear time; the
// cost is compared with a plain pattern's by BenchmarkLinkifier).
func TestAdversarialLinkifier(t *testing.T) {
	lookup := testRealm{linkifiers: []*linkifier.Linkifier{mustLinkifier(t, 1, `(?P<x>(a+)+)b`, "https://example.com/{x}")}}
	content := strings.Repeat("a", 5000) + "!"
	if got, want := New().RenderWith(content, lookup).HTML, "<p>"+content+"</p>"; got != want {
		t.Errorf("rendered %.80q…, want the text without a link", got)
	}
	content = strings.Repeat("a", 5000) + "b"
	if got := New().RenderWith(content, lookup).HTML; !strings.Contains(got, `<a href="https://example.com/`) {
		t.Errorf("rendered %.80q…, want a link where the pattern matches", got)
	}
}

// BenchmarkLinkifier renders 5,000 characters with a catastrophic pattern
// next to a plain one (the baseline); both grow linearly with the text.
func BenchmarkLinkifier(b *testing.B) {
	content := strings.Repeat("a", 5000) + "!"
	for _, bc := range []struct{ name, pattern string }{
		{"plain", `(?P<x>a)b`},
		{"catastrophic", `(?P<x>(a+)+)b`},
	} {
		lookup := testRealm{linkifiers: []*linkifier.Linkifier{mustLinkifier(b, 1, bc.pattern, "https://example.com/{x}")}}
		r := New()
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				r.RenderWith(content, lookup)
			}
		})
	}
}

func TestBlocks(t *testing.T) {
	runCases(t, testRealm{}, []syntaxCase{
		{"* a\n* b\n\n* c", "<ul>\n<li>a</li>\n<li>\n<p>b</p>\n</li>\n<li>\n<p>c</p>\n</li>\n</ul>"},
		{"text\n1. one\n2. two", "<p>text</p>\n<ol>\n<li>one</li>\n<li>two</li>\n</ol>"},
		{"* a\n1. b", "<ul>\n<li>a</li>\n</ul>\n<ol>\n<li>b</li>\n</ol>"},
		{"a ~~b~~ *c* **d**", "<p>a <del>b</del> <em>c</em> <strong>d</strong></p>"},
		{"foo\n---", "<p>foo</p>\n<hr>"},
		{"foo &amp; &copy; & bar", "<p>foo &amp; &copy; &amp; bar</p>"},
	})
}
