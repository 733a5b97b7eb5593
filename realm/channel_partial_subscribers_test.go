package realm

import (
	"slices"
	"testing"
	"time"
)

// With include_subscribers "partial", a channel of at least
// PartialSubscribersAt subscribers lists its bots and recently active
// users in partial_subscribers, and no subscribers; smaller channels list
// all their subscribers; a user whose activity is older than 14 days is
// left out.
func TestPartialSubscribers(t *testing.T) {
	limits := DefaultLimits()
	limits.PartialSubscribersAt = 4
	r, clk := newTestRealm(t, WithLimits(limits))
	if _, err := r.As(idOthello).UpdatePresence(bg, PresenceRequest{Status: PresenceActive}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(15 * 24 * time.Hour)
	if _, err := r.As(idHamlet).UpdatePresence(bg, PresenceRequest{Status: PresenceActive}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idDesdemona).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Verona"}}, Principals: Principals{IDs: []int{idDefaultBot}}}); err != nil {
		t.Fatal(err)
	}
	subs, err := r.As(idHamlet).Subscriptions(bg, SubscriptionsRequest{IncludeSubscribers: true, PartialSubscribers: true})
	if err != nil {
		t.Fatal(err)
	}
	var large, small int
	for _, s := range subs {
		all := r.activeSubscriberIDs(s.StreamID)
		if len(all) < limits.PartialSubscribersAt {
			small++
			if !slices.Equal(s.Subscribers, all) || s.PartialSubscribers != nil {
				t.Errorf("%s (%d subscribers): subscribers %v, partial %v", s.Name, len(all), s.Subscribers, s.PartialSubscribers)
			}
			continue
		}
		large++
		var want []int
		for _, id := range all {
			if id == idHamlet || r.users.byID[id].IsBot() {
				want = append(want, id)
			}
		}
		if s.Subscribers != nil || !slices.Equal(s.PartialSubscribers, want) {
			t.Errorf("%s (%d subscribers): subscribers %v, partial %v, want partial %v", s.Name, len(all), s.Subscribers, s.PartialSubscribers, want)
		}
	}
	if large == 0 || small == 0 {
		t.Fatalf("%d large and %d small channels: the test shows nothing", large, small)
	}
	verona := slices.IndexFunc(subs, func(s SubscriptionView) bool { return s.Name == "Verona" })
	if !slices.Contains(subs[verona].PartialSubscribers, idDefaultBot) || slices.Contains(subs[verona].PartialSubscribers, idOthello) {
		t.Errorf("Verona's partial subscribers %v: want the bot, not Othello (idle for 15 days)", subs[verona].PartialSubscribers)
	}

	state, err := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"subscription"}, IncludeSubscribers: true, PartialSubscribers: true})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(state.SubscriptionState.NeverSubscribed, func(s NeverSubscribedView) bool { return s.Name == "Scotland" })
	if i < 0 {
		t.Fatal("Scotland not in never_subscribed")
	}
	if s := state.SubscriptionState.NeverSubscribed[i]; s.Subscribers != nil || s.PartialSubscribers == nil {
		t.Errorf("never subscribed Scotland: subscribers %v, partial %v", s.Subscribers, s.PartialSubscribers)
	}

	// Without "partial", every list is full.
	full, err := r.As(idHamlet).Subscriptions(bg, SubscriptionsRequest{IncludeSubscribers: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range full {
		if s.PartialSubscribers != nil || !slices.Equal(s.Subscribers, r.activeSubscriberIDs(s.StreamID)) {
			t.Errorf("%s without partial: subscribers %v, partial %v", s.Name, s.Subscribers, s.PartialSubscribers)
		}
	}
}

// The default size from which lists may be partial is Zulip's 1000,
// above the 250 Zulip's description promises full lists below.
func TestPartialSubscribersDefaultSize(t *testing.T) {
	r, _ := newTestRealm(t, WithLimits(Limits{MaxMessageLength: 10000, MaxTopicLength: 60, MaxStreamNameLength: 60, MaxStreamDescLength: 1024}))
	if got := r.partialSubscribersAt(); got != 1000 || DefaultLimits().PartialSubscribersAt != 1000 {
		t.Fatalf("partial subscribers from %d channel members", got)
	}
}
