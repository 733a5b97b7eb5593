package realm

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Channel and topic names Zulip's link syntax cannot hold are linked with
// plain Markdown, their special characters escaped; a link to a topic has
// no message part.
func TestTopicLinkSyntax(t *testing.T) {
	r := New()
	ch := &storedChannel{ID: 3, Name: "Scotland"}
	for _, c := range []struct {
		ch    *storedChannel
		topic string
		id    int64
		want  string
	}{
		{ch, "a>b", 7, "[#Scotland > a&gt;b @ 💬](#narrow/channel/3-Scotland/topic/a.3Eb/near/7)"},
		{&storedChannel{ID: 4, Name: "x*y"}, "", 8, "[#x&#42;y > general chat @ 💬](#narrow/channel/4-x*y/topic//near/8)"},
		{ch, "", 7, "#**Scotland>@7**"},
		{ch, "castle", 0, "#**Scotland>castle**"},
		{ch, "[draft]", 0, "[#Scotland > &#91;draft&#93;](#narrow/channel/3-Scotland/topic/.5Bdraft.5D)"},
		{&storedChannel{ID: 5, Name: "R&D"}, "plans", 0, "[#R&amp;D > plans](#narrow/channel/5-R.26D/topic/plans)"},
	} {
		if got := r.topicLinkSyntax(c.ch, c.topic, c.id, "general chat"); got != c.want {
			t.Errorf("%s > %q @ %d: %q, want %q", c.ch.Name, c.topic, c.id, got, c.want)
		}
	}
}

// A move's notices link the topics with the fallback when their names
// need it, as Zulip's do.
func TestMoveNoticeLinkFallback(t *testing.T) {
	r, _ := newTestRealm(t)
	a := send(t, r, idHamlet, "Denmark", "a>b", "one")
	notify := true
	if err := edit(r, idIago, UpdateMessageRequest{MessageID: a, Topic: str("c*d"), PropagateMode: ChangeAll,
		SendNotificationToOldThread: &notify}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Denmark c*d: This topic was moved here from [#Denmark > a&gt;b](#narrow/channel/2-Denmark/topic/a.3Eb) by @_**Iago|11**.",
		"Denmark a>b: This topic was moved to [#Denmark > c&#42;d](#narrow/channel/2-Denmark/topic/c*d) by @_**Iago|11**.",
	}
	if diff := cmp.Diff(want, noticesSince(t, r, a)); diff != "" {
		t.Fatalf("notices (-want +got):\n%s", diff)
	}
}
