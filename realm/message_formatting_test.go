package realm

import (
	"strings"
	"testing"

	"github.com/minizulip/minizulip/message/markdown"
)

// wantRendered sends content to Denmark as userID and checks that its
// HTML holds want and none of the unwanted strings.
func wantRendered(t *testing.T, r *Realm, userID int, content, want string, unwanted ...string) {
	t.Helper()
	html := storedRendering(t, r, send(t, r, userID, "Denmark", "links", content))
	if !strings.Contains(html, want) {
		t.Errorf("%q rendered %q, want it to hold %q", content, html, want)
	}
	for _, u := range unwanted {
		if strings.Contains(html, u) {
			t.Errorf("%q rendered %q, holding %q", content, html, u)
		}
	}
}

// Topic links carry /with/ the latest message of the topic the sender can
// read from feature level 400, the oldest at 347-399, none before; a
// topic without messages gets none.
func TestTopicLinkWithFollowsFeatureLevel(t *testing.T) {
	for _, c := range []struct {
		change Change
		with   func(oldest, latest int64) string
	}{
		{changeTopicLinkWith, func(oldest, _ int64) string { return "/with/" + itoa(int(oldest)) }},
		{changeTopicLinkWithLatest, func(_, latest int64) string { return "/with/" + itoa(int(latest)) }},
	} {
		belowAndAt(t, c.change, func(t *testing.T, r *Realm, has bool) {
			oldest := send(t, r, idHamlet, "Denmark", "castle", "one")
			latest := send(t, r, idOthello, "Denmark", "Castle", "two")
			href := `href="/#narrow/channel/` + itoa(r.channels.byName[channelKey("Denmark")].ID) + `-Denmark/topic/castle`
			want := href + `"`
			switch {
			case c.change == changeTopicLinkWith && has, c.change == changeTopicLinkWithLatest && !has:
				want = href + "/with/" + itoa(int(oldest)) + `"`
			case has:
				want = href + "/with/" + itoa(int(latest)) + `"`
			}
			wantRendered(t, r, idIago, "see #**Denmark>castle**", want)
			wantRendered(t, r, idIago, "see #**Denmark>moat**", `/topic/moat"`, "/with/")
		})
	}
}

// The /with/ message is one the sender can read: none without content
// access to the channel; in a channel whose history is not public to
// subscribers, only messages the sender received.
func TestTopicLinkWithIsReadableBySender(t *testing.T) {
	r, _ := newTestRealm(t)
	a := send(t, r, idHamlet, "Denmark", "castle", "one")
	b := send(t, r, idOthello, "Denmark", "castle", "two")
	_ = r.update(func() error {
		ch := r.channels.byName[channelKey("Denmark")]
		ch.InviteOnly, ch.HistoryPublicToSubscribers = true, false
		r.messages.store.Undeliver(idHamlet, []int64{b})
		return nil
	})
	wantRendered(t, r, idHamlet, "#**Denmark>castle**", "/topic/castle/with/"+itoa(int(a))+`"`)
	wantRendered(t, r, idOthello, "#**Denmark>castle**", "/topic/castle/with/"+itoa(int(b))+`"`)
	_ = r.view(func() error {
		if _, ok := r.lookupFor(r.users.byID[idPolonius]).TopicMessage(r.channels.byName[channelKey("Denmark")].ID, "castle", true); ok {
			t.Error("a user without access to the channel found a message for /with/")
		}
		if _, ok := r.lookupFor(nil).TopicMessage(r.channels.byName[channelKey("Denmark")].ID, "castle", true); ok {
			t.Error("no sender found a message for /with/")
		}
		return nil
	})
}

// #**channel>topic@id** links to a message from feature level 319;
// before, to the topic "topic@id".
func TestMessageLinkSyntaxFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeMessageLinkSyntax, func(t *testing.T, r *Realm, has bool) {
		if has {
			wantRendered(t, r, idIago, "#**Denmark>castle@42**", `class="message-link"`, "stream-topic")
			return
		}
		wantRendered(t, r, idIago, "#**Denmark>castle@42**", `/topic/castle.4042">#Denmark &gt; castle@42</a>`, "message-link")
	})
}

// The empty topic may be linked from feature level 346, under the realm's
// empty topic display name.
func TestEmptyTopicLinksFollowFeatureLevel(t *testing.T) {
	belowAndAt(t, changeEmptyTopicLinks, func(t *testing.T, r *Realm, has bool) {
		if has {
			wantRendered(t, r, idIago, "#**Denmark>**", `/topic/">#Denmark &gt; <em>`+r.settings.EmptyTopicDisplayName+`</em></a>`)
			wantRendered(t, r, idIago, "#**Denmark>@5**", `/topic//near/5">#Denmark &gt; <em>`, "stream-topic")
			return
		}
		wantRendered(t, r, idIago, "#**Denmark>**", `#<strong>Denmark&gt;</strong>`, "<a")
		wantRendered(t, r, idIago, "#**Denmark>@5**", `/topic/.405">#Denmark &gt; @5</a>`, "<em>")
	})
}

// A global time that is not a time shows as written from feature level
// 451; before, as a timestamp-error span.
func TestInvalidTimestampsFollowFeatureLevel(t *testing.T) {
	belowAndAt(t, changeInvalidTimestampText, func(t *testing.T, r *Realm, has bool) {
		if has {
			wantRendered(t, r, idIago, "at <time:whenever>", `&lt;time:whenever&gt;`, "timestamp-error")
			return
		}
		wantRendered(t, r, idIago, "at <time:whenever>", `<span class="timestamp-error">Invalid time format: whenever</span>`)
	})
}

// @**channel** is a wildcard mention from feature level 247.
func TestChannelWildcardFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeChannelWildcardMention, func(t *testing.T, r *Realm, has bool) {
		id := send(t, r, idIago, "Denmark", "links", "@**channel** hi")
		html := storedRendering(t, r, id)
		if got := strings.Contains(html, "channel-wildcard-mention"); got != has {
			t.Errorf("rendered %q", html)
		}
		if got := getMsg(t, r, idHamlet, id).Flags; has != containsFlag(got, "stream_wildcard_mentioned") {
			t.Errorf("flags %v", got)
		}
	})
}

func containsFlag(flags []string, f string) bool {
	for _, x := range flags {
		if x == f {
			return true
		}
	}
	return false
}

// System groups may be mentioned from feature level 333; before, their
// mention syntax stays text.
func TestSystemGroupMentionsFollowFeatureLevel(t *testing.T) {
	belowAndAt(t, changeSystemGroupMentions, func(t *testing.T, r *Realm, has bool) {
		if has {
			wantRendered(t, r, idIago, "@_*role:administrators*", `<span class="user-group-mention silent"`)
			return
		}
		wantRendered(t, r, idIago, "@_*role:administrators*", `@_<em>role:administrators</em>`, "user-group-mention")
	})
}

// Links the realm generates say #narrow/channel/ from feature level 278,
// #narrow/stream/ before: rendered channel links, link syntax of notices,
// and the notices' message links.
func TestNarrowLinksFollowFeatureLevel(t *testing.T) {
	belowAndAt(t, changeChannelNarrowLinks, func(t *testing.T, r *Realm, has bool) {
		op, other := "#narrow/stream/", "#narrow/channel/"
		if has {
			op, other = other, op
		}
		wantRendered(t, r, idIago, "#**Denmark** #**Denmark>castle**", `href="/`+op, other)
		ch := r.channels.byName[channelKey("Denmark")]
		if got := r.topicLinkSyntax(ch, "a>b", 0, "general chat"); !strings.Contains(got, "("+op) {
			t.Errorf("topic link syntax %q", got)
		}
		if got := r.channelLinkSyntax(&storedChannel{ID: 9, Name: "a*b"}); !strings.Contains(got, "("+op) {
			t.Errorf("channel link syntax %q", got)
		}
		a := send(t, r, idHamlet, "Denmark", "one", "x")
		send(t, r, idHamlet, "Denmark", "one", "y")
		notify := true
		if err := edit(r, idIago, UpdateMessageRequest{MessageID: a, Topic: str("two"), PropagateMode: ChangeOne,
			SendNotificationToNewThread: &notify}); err != nil {
			t.Fatal(err)
		}
		notices := noticesSince(t, r, a)
		if len(notices) == 0 || !strings.Contains(notices[0], "/"+op) || strings.Contains(notices[0], other) {
			t.Errorf("move notices %q", notices)
		}
		if got := r.narrows(); got != (markdown.Narrows{Stream: !has}) {
			t.Errorf("narrows %+v", got)
		}
	})
}
