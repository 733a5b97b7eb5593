package realm

import (
	"testing"
)

// The feature-level changes of channels and subscriptions, each run at
// the level before the change and at the change's own level.

// Rows 226 "field removed" email_address: below 226 subscription objects
// (GET /users/me/subscriptions, register's subscriptions and
// unsubscribed, subscription add events) carry the channel's address as
// GET /streams/{id}/email_address gives it; from 226 none does.
func TestSubscriptionEmailAddressFollowsLevel(t *testing.T) {
	belowAndAt(t, changeStreamEmailRemoved, func(t *testing.T, r *Realm, has bool) {
		want := func(channel string) string {
			t.Helper()
			if has {
				return ""
			}
			addr, err := r.As(idHamlet).ChannelEmailAddress(bg, channelID(t, r, channel), 0)
			if err != nil || addr == "" {
				t.Fatalf("email address of %s: %q, %v", channel, addr, err)
			}
			return addr
		}
		subs, err := r.As(idHamlet).Subscriptions(bg, SubscriptionsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range subs {
			if s.EmailAddress != want(s.Name) {
				t.Errorf("GET subscriptions %s: email_address %q, want %q", s.Name, s.EmailAddress, want(s.Name))
			}
		}
		if _, err := r.As(idHamlet).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"Denmark"}}); err != nil {
			t.Fatal(err)
		}
		state, err := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"subscription"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(state.SubscriptionState.Subscriptions) == 0 || len(state.SubscriptionState.Unsubscribed) != 1 {
			t.Fatalf("register: %d subscriptions, %d unsubscribed", len(state.SubscriptionState.Subscriptions), len(state.SubscriptionState.Unsubscribed))
		}
		for _, s := range append(state.SubscriptionState.Subscriptions, state.SubscriptionState.Unsubscribed...) {
			if s.EmailAddress != want(s.Name) {
				t.Errorf("register %s: email_address %q, want %q", s.Name, s.EmailAddress, want(s.Name))
			}
		}
		q := mustQueue(t, r, idHamlet, QueueOptions{})
		if _, err := r.As(idHamlet).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Denmark"}}}); err != nil {
			t.Fatal(err)
		}
		evs := eventsOf(t, r, idHamlet, q, "subscription")
		if len(evs) == 0 || evs[0]["op"] != "add" {
			t.Fatalf("subscription events %v", evs)
		}
		sub := evs[0]["subscriptions"].([]any)[0].(map[string]any)
		if got, _ := sub["email_address"].(string); got != want("Denmark") {
			t.Errorf("subscription add: email_address %q, want %q", got, want("Denmark"))
		}
	})
}

// Below 226 a user without content access to a channel it left (a
// private one) gets no address in unsubscribed.
func TestSubscriptionEmailAddressNeedsContentAccess(t *testing.T) {
	r, _ := newTestRealm(t, WithFeatureLevel(changeStreamEmailRemoved.Level()-1, "test"))
	if _, err := r.As(idHamlet).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"core team"}}); err != nil {
		t.Fatal(err)
	}
	ch := r.channels.byName[channelKey("core team")]
	if r.legacyEmailAddress(r.users.byID[idHamlet], ch) != "" {
		t.Fatal("a user who left a private channel still gets its address")
	}
	if r.legacyEmailAddress(r.users.byID[idIago], ch) == "" {
		t.Fatal("a subscriber gets no address")
	}
}

// Row 389 "event stream update value": a channel taken out of its folder
// gets a stream update of folder_id with value null from 389; below it
// there are no folders, folder_id changes nothing and no such event is
// sent.
func TestFolderNullValueFollowsLevel(t *testing.T) {
	belowAndAt(t, changeChannelFolders, func(t *testing.T, r *Realm, has bool) {
		verona := channelID(t, r, "Verona")
		q := mustQueue(t, r, idIago, QueueOptions{})
		var none *int
		if err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: verona, FolderID: &none}); err != nil {
			t.Fatal(err)
		}
		var nulls int
		for _, ev := range eventsOf(t, r, idIago, q, "stream") {
			if v, ok := ev["value"]; ok && v == nil && ev["property"] == "folder_id" {
				nulls++
			}
		}
		if want := map[bool]int{false: 0, true: 1}[has]; nulls != want {
			t.Fatalf("%d stream updates of folder_id null, want %d", nulls, want)
		}
	})
}
