package realm

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestChannelTopicsNewestFirstWithNewestSpelling(t *testing.T) {
	r, _ := newTestRealm(t)
	castle := send(t, r, idHamlet, "Denmark", "Castle", "one")
	ghost := send(t, r, idHamlet, "Denmark", "ghost", "two")
	castle2 := send(t, r, idOthello, "Denmark", "castle", "three")
	empty := send(t, r, idOthello, "Denmark", "", "four")
	send(t, r, idHamlet, "Verona", "elsewhere", "other channel")
	want := []ChannelTopic{{"general chat", empty}, {"castle", castle2}, {"ghost", ghost}}
	// Cordelia is not subscribed to Denmark: a public channel's topics are
	// hers to read all the same.
	got, err := r.As(idCordelia).ChannelTopics(bg, ChannelTopicsRequest{ChannelID: 2})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("topics (-want +got):\n%s (castle's first message %d)", diff, castle)
	}
	got, _ = r.As(idCordelia).ChannelTopics(bg, ChannelTopicsRequest{ChannelID: 2, AllowEmptyTopicName: true})
	if got[0].Name != "" {
		t.Fatalf("with allow_empty_topic_name the empty topic keeps its name: %v", got)
	}
	// Deleting a topic's only message removes the topic.
	if err := r.As(idIago).DeleteMessage(bg, ghost); err != nil {
		t.Fatal(err)
	}
	got, _ = r.As(idCordelia).ChannelTopics(bg, ChannelTopicsRequest{ChannelID: 2})
	if diff := cmp.Diff(want[:2], got); diff != "" {
		t.Fatalf("after deleting ghost (-want +got):\n%s", diff)
	}
	// A channel without messages has an empty (not null) list.
	got, _ = r.As(idCordelia).ChannelTopics(bg, ChannelTopicsRequest{ChannelID: 4})
	if got == nil || len(got) != 0 {
		t.Fatalf("Venice topics %#v", got)
	}
}

// TestChannelTopicsProtectedHistory: in a private channel with protected
// history a subscriber sees only the topics of messages they received,
// each with the newest of those.
func TestChannelTopicsProtectedHistory(t *testing.T) {
	r, _ := newTestRealm(t)
	before := send(t, r, idHamlet, "core team", "plans", "before othello")
	secret := send(t, r, idHamlet, "core team", "secret", "before othello")
	if _, err := r.As(idIago).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "core team"}}, Principals: Principals{IDs: []int{idOthello}}}); err != nil {
		t.Fatal(err)
	}
	after := send(t, r, idHamlet, "core team", "plans", "after othello")
	if _, err := r.As(idOthello).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"core team"}}); err != nil {
		t.Fatal(err)
	}
	hidden := send(t, r, idIago, "core team", "plans", "later, othello gone")
	if _, err := r.As(idIago).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "core team"}}, Principals: Principals{IDs: []int{idOthello}}}); err != nil {
		t.Fatal(err)
	}
	got, err := r.As(idOthello).ChannelTopics(bg, ChannelTopicsRequest{ChannelID: 6})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]ChannelTopic{{"plans", after}}, got); diff != "" {
		t.Fatalf("othello (-want +got):\n%s (not %d, %d or %d)", diff, before, secret, hidden)
	}
	got, _ = r.As(idHamlet).ChannelTopics(bg, ChannelTopicsRequest{ChannelID: 6})
	if diff := cmp.Diff([]ChannelTopic{{"plans", hidden}, {"secret", secret}}, got); diff != "" {
		t.Fatalf("hamlet (-want +got):\n%s", diff)
	}
}

func TestChannelTopicsRefused(t *testing.T) {
	r, _ := newTestRealm(t)
	send(t, r, idHamlet, "core team", "plans", "private")
	send(t, r, idHamlet, "Denmark", "castle", "public")
	for _, c := range []struct {
		userID, channelID int
	}{
		{idCordelia, 6},  // private, not subscribed
		{idIago, 999},    // no such channel
		{idPolonius, 2},  // a guest and a public channel he is not in
		{idShiva, 6},     // a moderator is no administrator
		{idCordelia, -1}, // nonsense
	} {
		_, err := r.As(c.userID).ChannelTopics(bg, ChannelTopicsRequest{ChannelID: c.channelID})
		wantCode(t, err, CodeBadRequest, "Invalid channel ID")
	}
}
