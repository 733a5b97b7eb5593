package realm

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/linkifier"
)

// The dev realm's linkifiers link "zulip-mobile#1234" to that pull
// request, and a bare URL in a topic is a link too.
var wantDevTopicLinks = []TopicLink{
	{Text: "zulip-mobile#1234", URL: "https://github.com/zulip/zulip-mobile/pull/1234"},
	{Text: "chat.zulip.org", URL: "https://chat.zulip.org"},
}

const linkedTopic = "zulip-mobile#1234 on chat.zulip.org"

func TestMessageViewsCarryTopicLinks(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idHamlet, QueueOptions{})
	linked, err := r.As(idIago).SendChannelMessage(bg, "Denmark", linkedTopic, "hi")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := r.As(idIago).SendChannelMessage(bg, "Denmark", "lunch", "hi")
	if err != nil {
		t.Fatal(err)
	}
	dm, err := r.As(idIago).SendDirectMessage(bg, []int{idHamlet}, "hi")
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64][]TopicLink{linked.ID: wantDevTopicLinks, plain.ID: {}, dm.ID: {}}

	// GET /messages/{id} and the message events.
	for id, links := range want {
		v, _, err := r.As(idHamlet).Message(bg, id, ViewOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(links, v.TopicLinks); diff != "" {
			t.Errorf("message %d's topic_links (-want +got):\n%s", id, diff)
		}
	}
	for _, ev := range pending(t, r, idHamlet, q, -1) {
		if ev.Type != "message" {
			continue
		}
		m := eventJSON(t, ev)["message"].(map[string]any)
		id := int64(m["id"].(float64))
		if got := len(m["topic_links"].([]any)); got != len(want[id]) {
			t.Errorf("message event of %d has %d topic links, want %d", id, got, len(want[id]))
		}
	}

	// GET /messages, where a topic's links are found once for its messages.
	if _, err := r.As(idIago).SendChannelMessage(bg, "Denmark", linkedTopic, "again"); err != nil {
		t.Fatal(err)
	}
	res, err := r.As(idHamlet).Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 10, IncludeAnchor: true})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, m := range res.Messages {
		if m.Subject == linkedTopic {
			seen++
			if diff := cmp.Diff(wantDevTopicLinks, m.TopicLinks); diff != "" {
				t.Errorf("fetched message %d's topic_links (-want +got):\n%s", m.ID, diff)
			}
		}
	}
	if seen != 2 {
		t.Fatalf("fetched %d messages in the linked topic, want 2", seen)
	}
}

// Topic links follow the realm's linkifiers as they are now, as Zulip's
// do (it computes them when a message is fetched).
func TestTopicLinksFollowTheLinkifiers(t *testing.T) {
	r, _ := newTestRealm(t)
	sent, err := r.As(idIago).SendChannelMessage(bg, "Denmark", "ticket T-42", "hi")
	if err != nil {
		t.Fatal(err)
	}
	links := func() []TopicLink {
		v, _, err := r.As(idHamlet).Message(bg, sent.ID, ViewOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return v.TopicLinks
	}
	if got := links(); len(got) != 0 {
		t.Fatalf("topic_links before the linkifier: %v", got)
	}
	if _, err := r.As(idIago).AddLinkifier(bg, linkifier.Spec{Pattern: `T-(?P<id>[0-9]+)`, URLTemplate: "https://tickets.example.com/{id}"}); err != nil {
		t.Fatal(err)
	}
	want := []TopicLink{{Text: "T-42", URL: "https://tickets.example.com/42"}}
	if diff := cmp.Diff(want, links()); diff != "" {
		t.Errorf("topic_links after adding a linkifier (-want +got):\n%s", diff)
	}
}

// A topic edit's update_message event carries the new topic's links.
func TestTopicEditEventCarriesTopicLinks(t *testing.T) {
	r, _ := newTestRealm(t)
	sent, err := r.As(idIago).SendChannelMessage(bg, "Denmark", "plain", "hi")
	if err != nil {
		t.Fatal(err)
	}
	q := mustQueue(t, r, idHamlet, QueueOptions{})
	newTopic := linkedTopic
	if _, err := r.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: sent.ID, Topic: &newTopic}); err != nil {
		t.Fatal(err)
	}
	for _, ev := range pending(t, r, idHamlet, q, -1) {
		if ev.Type != "update_message" {
			continue
		}
		got, _ := eventJSON(t, ev)["topic_links"].([]any)
		if len(got) != len(wantDevTopicLinks) || got[0].(map[string]any)["url"] != wantDevTopicLinks[0].URL {
			t.Fatalf("update_message topic_links %v, want %v", got, wantDevTopicLinks)
		}
		return
	}
	t.Fatal("no update_message event")
}
