package realm

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// subView is the caller's subscription object for a channel.
func subView(t *testing.T, r *Realm, userID, channelID int) SubscriptionView {
	t.Helper()
	subs, err := r.As(userID).Subscriptions(bg, SubscriptionsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range subs {
		if s.StreamID == channelID {
			return s
		}
	}
	t.Fatalf("user %d has no subscription to %d", userID, channelID)
	return SubscriptionView{}
}

func TestSubscriptionPropertiesApplyAndAnnounce(t *testing.T) {
	r, _ := newTestRealm(t)
	mine := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"subscription"}})
	other := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"subscription"}})
	err := r.As(idHamlet).UpdateSubscriptionProperties(bg, []SubscriptionPropertyChange{
		{ChannelID: 2, Property: "is_muted", Value: true},
		{ChannelID: 2, Property: "color", Value: "#abc"},
		{ChannelID: 2, Property: "pin_to_top", Value: true},
		{ChannelID: 1, Property: "in_home_view", Value: false},
		{ChannelID: 1, Property: "desktop_notifications", Value: false},
		{ChannelID: 1, Property: "wildcard_mentions_notify", Value: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	dk := subView(t, r, idHamlet, 2)
	if !dk.IsMuted || dk.InHomeView || dk.Color != "#abc" || !dk.PinToTop {
		t.Fatalf("Denmark subscription %+v", dk)
	}
	vr := subView(t, r, idHamlet, 1)
	if !vr.IsMuted || vr.DesktopNotifications == nil || *vr.DesktopNotifications || vr.WildcardMentionsNotify == nil ||
		!*vr.WildcardMentionsNotify || vr.PushNotifications != nil {
		t.Fatalf("Verona subscription %+v", vr)
	}
	var got []map[string]any
	for _, ev := range pending(t, r, idHamlet, mine, -1) {
		got = append(got, eventJSON(t, ev))
	}
	ev := func(id int, stream int, property string, value any) map[string]any {
		return map[string]any{"id": float64(id), "type": "subscription", "op": "update", "stream_id": float64(stream), "property": property, "value": value}
	}
	want := []map[string]any{
		ev(0, 2, "in_home_view", false), ev(1, 2, "is_muted", true), ev(2, 2, "color", "#abc"), ev(3, 2, "pin_to_top", true),
		ev(4, 1, "in_home_view", false), ev(5, 1, "is_muted", true), ev(6, 1, "desktop_notifications", false),
		ev(7, 1, "wildcard_mentions_notify", true),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	if evs := pending(t, r, idOthello, other, -1); len(evs) != 0 {
		t.Fatalf("othello got %d events of hamlet's subscriptions", len(evs))
	}
	// Unmuting with the legacy name.
	if err := r.As(idHamlet).UpdateSubscriptionProperties(bg, []SubscriptionPropertyChange{{ChannelID: 1, Property: "in_home_view", Value: true}}); err != nil {
		t.Fatal(err)
	}
	if subView(t, r, idHamlet, 1).IsMuted {
		t.Fatal("in_home_view=true should unmute")
	}
}

func TestSubscriptionPropertiesLegacyLevelSendsOnlyInHomeView(t *testing.T) {
	r, _ := newTestRealm(t, WithFeatureLevel(138, "6.0-dev"))
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"subscription"}})
	if err := r.As(idHamlet).UpdateSubscriptionProperties(bg, []SubscriptionPropertyChange{{ChannelID: 2, Property: "is_muted", Value: true}}); err != nil {
		t.Fatal(err)
	}
	evs := pending(t, r, idHamlet, q, -1)
	if len(evs) != 1 || eventJSON(t, evs[0])["property"] != "in_home_view" || eventJSON(t, evs[0])["value"] != false {
		t.Fatalf("events below level 139: %v", evs)
	}
}

// TestSubscriptionPropertiesRefusedChangeNothing: every change is checked
// before any is made, so a bad item anywhere leaves all as they were.
func TestSubscriptionPropertiesRefusedChangeNothing(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"subscription"}})
	before := subView(t, r, idHamlet, 2)
	good := SubscriptionPropertyChange{ChannelID: 2, Property: "pin_to_top", Value: true}
	for _, c := range []struct {
		bad SubscriptionPropertyChange
		msg string
	}{
		{SubscriptionPropertyChange{ChannelID: 2, Property: "name", Value: "x"}, "Unknown subscription property: name"},
		{SubscriptionPropertyChange{ChannelID: 999, Property: "is_muted", Value: true}, "Invalid channel ID"},
		{SubscriptionPropertyChange{ChannelID: 3, Property: "is_muted", Value: true}, "Not subscribed to channel ID 3"},
		{SubscriptionPropertyChange{ChannelID: 2, Property: "color", Value: "red"}, "color is not a valid hex color code"},
		{SubscriptionPropertyChange{ChannelID: 2, Property: "color", Value: true}, "color is not a string"},
		{SubscriptionPropertyChange{ChannelID: 2, Property: "is_muted", Value: "yes"}, "is_muted is not a boolean"},
		{SubscriptionPropertyChange{ChannelID: 2, Property: "push_notifications", Value: "true"}, "push_notifications is not a boolean"},
	} {
		err := r.As(idHamlet).UpdateSubscriptionProperties(bg, []SubscriptionPropertyChange{good, c.bad})
		wantCode(t, err, CodeBadRequest, c.msg)
	}
	err := r.As(idCordelia).UpdateSubscriptionProperties(bg, []SubscriptionPropertyChange{{ChannelID: 6, Property: "is_muted", Value: true}})
	wantCode(t, err, CodeBadRequest, "Invalid channel ID")
	if diff := cmp.Diff(before, subView(t, r, idHamlet, 2)); diff != "" {
		t.Fatalf("refused requests changed the subscription:\n%s", diff)
	}
	if evs := pending(t, r, idHamlet, q, -1); len(evs) != 0 {
		t.Fatalf("refused requests sent %d events", len(evs))
	}
}

func TestUpdateSubscriptionsAddsAndDeletesTogether(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"subscription", "stream"}})
	res, err := r.As(idHamlet).UpdateSubscriptions(bg, UpdateSubscriptionsRequest{
		Add:    []ChannelSpec{{Name: "Scotland", Color: "#123456"}, {Name: "Verona"}, {Name: "brand new", Description: "fresh"}},
		Delete: []string{"Denmark", "Venice"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string][]string{"10": {"Scotland", "brand new"}}, res.Subscribed); diff != "" {
		t.Fatalf("subscribed:\n%s", diff)
	}
	if diff := cmp.Diff(map[string][]string{"10": {"Verona"}}, res.AlreadySubscribed); diff != "" {
		t.Fatalf("already_subscribed:\n%s", diff)
	}
	if !cmp.Equal(res.Removed, []string{"Denmark"}) || !cmp.Equal(res.NotRemoved, []string{"Venice"}) {
		t.Fatalf("removed %v not_removed %v", res.Removed, res.NotRemoved)
	}
	if s := subView(t, r, idHamlet, 3); s.Color != "#123456" {
		t.Fatalf("Scotland color %q", s.Color)
	}
	if ok, _ := r.As(idHamlet).IsSubscribed(bg, idHamlet, 2); ok {
		t.Fatal("hamlet still in Denmark")
	}
	var ops []string
	for _, ev := range pending(t, r, idHamlet, q, -1) {
		j := eventJSON(t, ev)
		ops = append(ops, j["type"].(string)+" "+j["op"].(string))
	}
	if diff := cmp.Diff([]string{"stream create", "subscription add", "subscription remove"}, ops); diff != "" {
		t.Fatalf("events:\n%s", diff)
	}
}

func TestUpdateSubscriptionsRefusedHalfChangesNothing(t *testing.T) {
	r, _ := newTestRealm(t)
	before := len(r.channels.byID)
	cases := []struct {
		userID int
		req    UpdateSubscriptionsRequest
		msg    string
	}{
		{idHamlet, UpdateSubscriptionsRequest{}, `Nothing to do. Specify at least one of "add" or "delete".`},
		{idHamlet, UpdateSubscriptionsRequest{Add: []ChannelSpec{{Name: "Scotland"}, {Name: "new one"}}, Delete: []string{"Nowhere"}}, "Channel(s) (Nowhere) do not exist"},
		{idCordelia, UpdateSubscriptionsRequest{Add: []ChannelSpec{{Name: "core team"}}, Delete: []string{"Verona"}}, "Unable to access channel (core team)."},
		{idPolonius, UpdateSubscriptionsRequest{Delete: []string{"Verona"}}, "Not allowed for guest users"},
		{idHamlet, UpdateSubscriptionsRequest{Add: []ChannelSpec{{Name: ""}}}, "Channel name can't be empty."},
	}
	for _, c := range cases {
		_, err := r.As(c.userID).UpdateSubscriptions(bg, c.req)
		wantCode(t, err, CodeBadRequest, c.msg)
	}
	if len(r.channels.byID) != before {
		t.Fatal("a refused request created a channel")
	}
	for _, check := range []struct{ user, channel int }{{idHamlet, 1}, {idCordelia, 1}, {idPolonius, 1}} {
		if ok, _ := r.As(idIago).IsSubscribed(bg, check.user, check.channel); !ok {
			t.Fatalf("user %d left channel %d in a refused request", check.user, check.channel)
		}
	}
	if ok, _ := r.As(idIago).IsSubscribed(bg, idHamlet, 3); ok {
		t.Fatal("hamlet joined Scotland in a refused request")
	}
}
