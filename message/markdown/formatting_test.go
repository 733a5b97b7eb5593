package markdown

import (
	"strings"
	"testing"
)

// topicRealm is testRealm with topics' messages: Denmark's "castle"
// holds messages 7 and 9, its empty topic message 3.
type topicRealm struct{ testRealm }

func (topicRealm) TopicMessage(channelID int, topic string, latest bool) (int64, bool) {
	if channelID != 1 {
		return 0, false
	}
	switch strings.ToLower(topic) {
	case "castle":
		if latest {
			return 9, true
		}
		return 7, true
	case "":
		return 3, true
	}
	return 0, false
}

// formattingCase renders in with the options and wants want.
type formattingCase struct {
	name string
	opts []Option
	in   string
	want string
}

func runFormatting(t *testing.T, cases []formattingCase) {
	t.Helper()
	for _, c := range cases {
		got := New(c.opts...).RenderFor(c.in, Context{Lookup: topicRealm{}, EmptyTopicName: "general chat"}).HTML
		if got != c.want {
			t.Errorf("%s: render %q\n got  %q\n want %q", c.name, c.in, got, c.want)
		}
	}
}

// Topic links name the latest readable message of the topic with /with/
// (Zulip 11.0), the oldest (Zulip 10.0), or none (before); a topic with
// no messages gets none.
func TestTopicLinkWith(t *testing.T) {
	const head = `<p><a class="stream-topic" data-stream-id="1" href="/#narrow/channel/1-Denmark/topic/castle`
	const tail = `">#Denmark &gt; castle</a></p>`
	runFormatting(t, []formattingCase{
		{"latest", nil, "#**Denmark>castle**", head + "/with/9" + tail},
		{"latest, any case", nil, "#**Denmark>Castle**", strings.Replace(head, "castle", "Castle", 1) + "/with/9" + strings.Replace(tail, "castle", "Castle", 1)},
		{"oldest", []Option{WithTopicLinkWith(TopicWithOldest)}, "#**Denmark>castle**", head + "/with/7" + tail},
		{"none", []Option{WithTopicLinkWith(TopicWithNone)}, "#**Denmark>castle**", head + tail},
		{"no messages", nil, "#**Denmark>moat**", `<p><a class="stream-topic" data-stream-id="1" href="/#narrow/channel/1-Denmark/topic/moat">#Denmark &gt; moat</a></p>`},
	})
	// A Lookup that finds no topic messages gives no /with/.
	got := New().RenderWith("#**Denmark>castle**", testRealm{}).HTML
	if want := head + tail; got != want {
		t.Errorf("without TopicMessages: %q, want %q", got, want)
	}
}

// #**channel>topic@id** links to one message from Zulip 10.0 (feature
// level 319); before, it is a link to the topic "topic@id".
func TestMessageLinkSyntax(t *testing.T) {
	runFormatting(t, []formattingCase{
		{"319", nil, "#**Denmark>castle@42**", `<p><a class="message-link" href="/#narrow/channel/1-Denmark/topic/castle/near/42">#Denmark &gt; castle @ 💬</a></p>`},
		{"318", []Option{WithoutMessageLinks(), WithTopicLinkWith(TopicWithNone)}, "#**Denmark>castle@42**",
			`<p><a class="stream-topic" data-stream-id="1" href="/#narrow/channel/1-Denmark/topic/castle.4042">#Denmark &gt; castle@42</a></p>`},
	})
}

// The empty topic may be linked from Zulip 10.0 (feature level 346),
// shown under its display name in <em>; before, #**channel>** is text
// (no channel is named "Denmark>") and #**channel>@id** a link to the
// topic "@id".
func TestEmptyTopicLinks(t *testing.T) {
	runFormatting(t, []formattingCase{
		{"346 topic", []Option{WithTopicLinkWith(TopicWithNone)}, "#**Denmark>**",
			`<p><a class="stream-topic" data-stream-id="1" href="/#narrow/channel/1-Denmark/topic/">#Denmark &gt; <em>general chat</em></a></p>`},
		{"347 topic", nil, "#**Denmark>**",
			`<p><a class="stream-topic" data-stream-id="1" href="/#narrow/channel/1-Denmark/topic//with/3">#Denmark &gt; <em>general chat</em></a></p>`},
		{"346 message", nil, "#**Denmark>@214**",
			`<p><a class="message-link" href="/#narrow/channel/1-Denmark/topic//near/214">#Denmark &gt; <em>general chat</em> @ 💬</a></p>`},
		{"345 topic", []Option{WithoutEmptyTopicLinks(), WithTopicLinkWith(TopicWithNone)}, "#**Denmark>**", `<p>#<strong>Denmark&gt;</strong></p>`},
		{"345 message", []Option{WithoutEmptyTopicLinks(), WithTopicLinkWith(TopicWithNone)}, "#**Denmark>@214**",
			`<p><a class="stream-topic" data-stream-id="1" href="/#narrow/channel/1-Denmark/topic/.40214">#Denmark &gt; @214</a></p>`},
	})
	got := New().RenderFor("#**Denmark>@1**", Context{Lookup: topicRealm{}}).HTML
	if !strings.Contains(got, "<em>"+DefaultEmptyTopicName+"</em>") {
		t.Errorf("no EmptyTopicName: %q", got)
	}
}

// Links the renderer makes say #narrow/channel/, or #narrow/stream/ as
// servers before Zulip 10.0's development wrote them.
func TestStreamNarrows(t *testing.T) {
	legacy := []Option{WithStreamNarrows(), WithTopicLinkWith(TopicWithNone)}
	runFormatting(t, []formattingCase{
		{"channel", nil, "#**core team**", `<p><a class="stream" data-stream-id="5" href="/#narrow/channel/5-core-team">#core team</a></p>`},
		{"stream", legacy, "#**core team**", `<p><a class="stream" data-stream-id="5" href="/#narrow/stream/5-core-team">#core team</a></p>`},
		{"stream topic", legacy, "#**Denmark>castle**", `<p><a class="stream-topic" data-stream-id="1" href="/#narrow/stream/1-Denmark/topic/castle">#Denmark &gt; castle</a></p>`},
		{"stream message", legacy, "#**Denmark>castle@4**", `<p><a class="message-link" href="/#narrow/stream/1-Denmark/topic/castle/near/4">#Denmark &gt; castle @ 💬</a></p>`},
	})
	n := Narrows{Stream: true}
	if got := n.Near(2, "core team", "a b", 7); got != "/#narrow/stream/2-core-team/topic/a.20b/near/7" {
		t.Errorf("Near: %q", got)
	}
	if got := (Narrows{}).Channel(2, "core team"); got != ChannelNarrow(2, "core team") || got != "#narrow/channel/2-core-team" {
		t.Errorf("Channel: %q", got)
	}
}

// A global time that is not a time shows as written from Zulip 12.0
// (feature level 451), as the timestamp-error span before.
func TestInvalidTimestamps(t *testing.T) {
	runFormatting(t, []formattingCase{
		{"451", nil, "<time:whenever & <b>>", `<p>&lt;time:whenever &amp; &lt;b&gt;&gt;</p>`},
		{"450", []Option{WithTimestampErrors()}, "<time:whenever>", `<p><span class="timestamp-error">Invalid time format: whenever</span></p>`},
		{"450 valid", []Option{WithTimestampErrors()}, "<time:1496701800>", `<p><time datetime="2017-06-05T22:30:00Z">1496701800</time></p>`},
	})
}

// @**channel** is a wildcard mention from Zulip 9.0 (feature level 247);
// before, it mentions nobody (no user is named "channel").
func TestChannelWildcard(t *testing.T) {
	runFormatting(t, []formattingCase{
		{"247", nil, "@**channel**", `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@channel</span></p>`},
		{"246", []Option{WithoutChannelWildcard()}, "@**channel**", `<p>@<strong>channel</strong></p>`},
		{"246 stream", []Option{WithoutChannelWildcard()}, "@**stream**", `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@stream</span></p>`},
	})
	if New(WithoutChannelWildcard()).RenderWith("@**channel**", testRealm{}).StreamWildcard {
		t.Error("@**channel** before 247 set the wildcard")
	}
}
