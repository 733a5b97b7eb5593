package realm

import (
	"slices"
	"testing"
)

func subscribedNames(t *testing.T, r *Realm, userID int) []string {
	t.Helper()
	subs, err := r.As(userID).Subscriptions(bg, false)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range subs {
		out = append(out, s.Name)
	}
	return out
}

func channelCount(r *Realm) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.channels)
}

func TestSubscribeCreatesChannelAndAddsPrincipals(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"subscription", "stream"}})
	res, err := r.As(idHamlet).Subscribe(bg, SubscribeRequest{
		Channels:   []ChannelSpec{{Name: "elsinore", Description: "A *castle*"}, {Name: "Denmark"}},
		Principals: Principals{IDs: []int{idHamlet}, Emails: []string{"othello@zulip.com"}}, AuthorizationErrorsFatal: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Subscribed["10"], []string{"elsinore"}) || !slices.Equal(res.AlreadySubscribed["10"], []string{"Denmark"}) ||
		!slices.Equal(res.Subscribed["12"], []string{"elsinore"}) || !slices.Equal(res.AlreadySubscribed["12"], []string{"Denmark"}) {
		t.Fatalf("result %+v", res)
	}
	id, err := r.As(idOthello).ChannelID(bg, "ELSINORE")
	if err != nil {
		t.Fatal(err)
	}
	subs, _ := r.As(idOthello).Subscriptions(bg, true)
	var found *SubscriptionView
	for i := range subs {
		if subs[i].StreamID == id {
			found = &subs[i]
		}
	}
	if found == nil || found.RenderedDescription != "<p>A <em>castle</em></p>" || *found.CreatorID != idHamlet ||
		!slices.Equal(found.Subscribers, []int{idHamlet, idOthello}) || found.SubscriberCount != 2 || found.Color == "" {
		t.Fatalf("subscription %+v", found)
	}
	evs := pending(t, r, idOthello, q, -1)
	types := []string{}
	for _, ev := range evs {
		j := eventJSON(t, ev)
		types = append(types, ev.Type+":"+j["op"].(string))
	}
	if !slices.Contains(types, "stream:create") || !slices.Contains(types, "subscription:add") || !slices.Contains(types, "subscription:peer_add") {
		t.Fatalf("othello's events %v", types)
	}
}

func TestSubscribeLegacyEmailKeys(t *testing.T) {
	r, _ := newTestRealm(t, WithFeatureLevel(218, "8.0"))
	res, err := r.As(idIago).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Rome"}}, AuthorizationErrorsFatal: true})
	if err != nil || !slices.Equal(res.Subscribed["user11@zulipdev.com"], []string{"Rome"}) {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestSubscribeRejections(t *testing.T) {
	r, _ := newTestRealm(t)
	before := channelCount(r)
	cases := []struct {
		actor int
		req   SubscribeRequest
		code  Code
		msg   string
	}{
		{idPolonius, SubscribeRequest{Channels: []ChannelSpec{{Name: "guest land"}}, AuthorizationErrorsFatal: true}, CodeBadRequest, "Insufficient permission"},
		{idPolonius, SubscribeRequest{Channels: []ChannelSpec{{Name: "Denmark"}}, AuthorizationErrorsFatal: true}, CodeBadRequest, "Unable to access channel (Denmark)."},
		{idOthello, SubscribeRequest{Channels: []ChannelSpec{{Name: "core team"}}, AuthorizationErrorsFatal: true}, CodeBadRequest, "Unable to access channel (core team)."},
		{idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "  "}}, AuthorizationErrorsFatal: true}, CodeBadRequest, "Channel name can't be empty."},
		{idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "bad\x01name"}}, AuthorizationErrorsFatal: true}, CodeBadRequest, "Invalid character in channel name"},
		{idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: string(make([]rune, 61))}}, AuthorizationErrorsFatal: true}, CodeBadRequest, "Channel name too long (limit: 60 characters)."},
		{idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "new one"}}, Principals: Principals{IDs: []int{999}}, AuthorizationErrorsFatal: true}, CodeBadRequest, "No such user"},
		{idOthello, SubscribeRequest{Channels: []ChannelSpec{{Name: "new one"}, {Name: "core team"}}, AuthorizationErrorsFatal: true}, CodeBadRequest, "Unable to access channel (core team)."},
	}
	for _, c := range cases {
		_, err := r.As(c.actor).Subscribe(bg, c.req)
		wantCode(t, err, c.code, c.msg)
	}
	if channelCount(r) != before || slices.Contains(subscribedNames(t, r, idOthello), "core team") {
		t.Fatal("rejected subscribe changed state")
	}
	res, err := r.As(idOthello).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "core team"}, {Name: "Venice"}}})
	if err != nil || !slices.Equal(res.Unauthorized, []string{"core team"}) || !slices.Equal(res.Subscribed["12"], []string{"Venice"}) {
		t.Fatalf("non-fatal: %+v %v", res, err)
	}
}

func TestUnsubscribe(t *testing.T) {
	r, _ := newTestRealm(t)
	res, err := r.As(idOthello).Unsubscribe(bg, []string{"Denmark", "Rome"}, Principals{})
	if err != nil || !slices.Equal(res.Removed, []string{"Denmark"}) || !slices.Equal(res.NotRemoved, []string{"Rome"}) {
		t.Fatalf("%+v %v", res, err)
	}
	if slices.Contains(subscribedNames(t, r, idOthello), "Denmark") {
		t.Fatal("still subscribed")
	}
	_, err = r.As(idOthello).Unsubscribe(bg, []string{"Atlantis"}, Principals{})
	wantCode(t, err, CodeStreamDoesNotExist, "Atlantis")
	_, err = r.As(idOthello).Unsubscribe(bg, []string{"Verona"}, Principals{IDs: []int{idHamlet}})
	wantCode(t, err, CodeBadRequest, "Insufficient permission")
	if !slices.Contains(subscribedNames(t, r, idHamlet), "Verona") {
		t.Fatal("a rejected unsubscribe removed hamlet")
	}
	if _, err := r.As(idIago).Unsubscribe(bg, []string{"Verona"}, Principals{IDs: []int{idHamlet}}); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(subscribedNames(t, r, idHamlet), "Verona") {
		t.Fatal("admin could not unsubscribe hamlet")
	}
}

func TestChannelsVisibility(t *testing.T) {
	r, _ := newTestRealm(t)
	names := func(actor int, q ChannelsQuery) []string {
		list, err := r.As(actor).Channels(bg, q)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range list {
			out = append(out, s.Name)
		}
		return out
	}
	if got := names(idOthello, DefaultChannelsQuery()); slices.Contains(got, "core team") || !slices.Contains(got, "Rome") || len(got) != 16 {
		t.Fatalf("othello sees %v", got)
	}
	if got := names(idHamlet, DefaultChannelsQuery()); !slices.Contains(got, "core team") {
		t.Fatalf("hamlet (subscriber) sees %v", got)
	}
	if got := names(idPolonius, DefaultChannelsQuery()); !slices.Contains(got, "Verona") || slices.Contains(got, "Denmark") || slices.Contains(got, "Rome") {
		t.Fatalf("guest sees %v", got)
	}
	all := DefaultChannelsQuery()
	all.IncludeAll = true
	if got := names(idIago, all); len(got) != 17 {
		t.Fatalf("admin include_all sees %d", len(got))
	}
	_, err := r.As(idHamlet).Channels(bg, all)
	wantCode(t, err, CodeBadRequest, "User not authorized for this query")
	_, err = r.As(idOthello).ChannelID(bg, "core team")
	wantCode(t, err, CodeBadRequest, "Invalid channel name 'core team'")
	if id, err := r.As(idHamlet).ChannelID(bg, "core TEAM"); err != nil || id != 6 {
		t.Fatalf("core team id %d %v", id, err)
	}
}
