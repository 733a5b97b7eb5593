package realm

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// subscribeNotices runs a subscribe request and returns the Notification
// Bot messages it sent, oldest first.
func subscribeNotices(t *testing.T, r *Realm, userID int, req SubscribeRequest) (SubscribeResult, []storedNotice) {
	t.Helper()
	before := newestID(t, r)
	res, err := r.As(userID).Subscribe(bg, req)
	if err != nil {
		t.Fatal(err)
	}
	return res, channelNotices(t, r, before)
}

func names(ns ...string) []ChannelSpec {
	out := make([]ChannelSpec, len(ns))
	for i, n := range ns {
		out[i] = ChannelSpec{Name: n}
	}
	return out
}

// A subscribe request's Notification Bot messages, as Zulip's
// send_messages_for_new_subscribers (zerver/views/streams.py) sends them:
// a direct message to each other human subscribed to channels that
// already existed (you_were_just_subscribed_message: one channel in a
// sentence, several as a sorted list), the announcement of the channels
// the request created in the realm's new channel announcements channel's
// "new channels" topic when it asks (announce), then a notice opening
// each new channel's "channel events" topic, naming its access policy and
// quoting its description. The requester's copies are read.
func TestSubscribeNotices(t *testing.T) {
	r, _ := newTestRealm(t)
	verona := r.channels.byName[channelKey("Verona")].ID
	if _, err := r.As(idIago).UpdateRealm(bg, RealmUpdate{NewStreamAnnouncementsStreamID: &verona}); err != nil {
		t.Fatal(err)
	}
	subscribeNotices(t, r, idIago, SubscribeRequest{Channels: names("beta", "alpha")})
	res, got := subscribeNotices(t, r, idIago, SubscribeRequest{Channels: names("alpha", "beta", "gamma"),
		Principals: Principals{IDs: []int{idHamlet, idOthello, idDefaultBot, idIago}}, Announce: true})
	if res.NewSubscriptionMessagesSent == nil || !*res.NewSubscriptionMessagesSent {
		t.Fatalf("new_subscription_messages_sent %v", res.NewSubscriptionMessagesSent)
	}
	gamma := r.channels.byName[channelKey("gamma")].ID
	want := []storedNotice{
		{channelID: 0, topic: "", content: "@_**Iago|11** subscribed you to the following channels:\n\n* #**alpha**\n* #**beta**"},
		{channelID: 0, topic: "", content: "@_**Iago|11** subscribed you to the following channels:\n\n* #**alpha**\n* #**beta**"},
		{channelID: verona, topic: "new channels", content: "@_**Iago|11** created a new channel #**gamma**."},
		{channelID: gamma, topic: "channel events",
			content: "**Public** channel created by @_**Iago|11**. **Description:**\n```` quote\n*No description.*\n````"},
	}
	if len(got) != len(want) {
		t.Fatalf("notices %v", got)
	}
	for i, w := range want {
		if g := got[i]; g.channelID != w.channelID || g.topic != w.topic || g.content != w.content || g.client != "Internal" {
			t.Errorf("notice %d: %+v, want %+v", i, g, w)
		}
	}
	// The direct messages go to Hamlet and Othello, in that order; the
	// bot and the requester get none.
	for i, id := range []int{idHamlet, idOthello} {
		if _, ok := r.messages.store.Copy(id, got[i].id); !ok {
			t.Errorf("direct message %d is not %d's", i, id)
		}
	}
	wantUnread(t, r, got[2].id, []int{idIago, idHamlet, idOthello}, idHamlet, idOthello)
	wantUnread(t, r, got[3].id, []int{idIago, idHamlet, idOthello}, idHamlet, idOthello)

	// One channel: a sentence. A private channel with protected history,
	// a description, no announcement asked: no "new channels" message.
	_, got = subscribeNotices(t, r, idIago, SubscribeRequest{Channels: []ChannelSpec{{Name: "delta", Description: "Plans"}, {Name: "Denmark"}},
		Principals: Principals{IDs: []int{idCordelia}}, InviteOnly: true})
	delta := r.channels.byName[channelKey("delta")].ID
	if len(got) != 2 || got[0].content != "@_**Iago|11** subscribed you to #**Denmark**." ||
		got[1].channelID != delta || got[1].content != "**Private, protected history** channel created by @_**Iago|11**. **Description:**\n```` quote\nPlans\n````" {
		t.Fatalf("notices %v", got)
	}
	// send_new_subscription_messages false: no direct messages.
	no := false
	res, got = subscribeNotices(t, r, idIago, SubscribeRequest{Channels: names("alpha"),
		Principals: Principals{IDs: []int{idPolonius}}, SendNewSubscriptionMessages: &no})
	if len(got) != 0 || res.NewSubscriptionMessagesSent != nil {
		t.Fatalf("notices %v, sent %v", got, res.NewSubscriptionMessagesSent)
	}
	// Several new channels, one whose name #** links cannot hold.
	_, got = subscribeNotices(t, r, idHamlet, SubscribeRequest{Channels: names("x*y", "epsilon"), Announce: true})
	xy := r.channels.byName[channelKey("x*y")].ID
	if len(got) != 3 || got[0].content != "@_**King Hamlet|10** created the following channels: [#x&#42;y](#narrow/channel/"+
		itoa(xy)+"-x*y), #**epsilon**." {
		t.Fatalf("notices %v", got)
	}
}

// Below feature level 397 (send_new_subscription_messages), the direct
// messages always go out, and the answer has no
// new_subscription_messages_sent.
func TestSubscribeNoticesBefore397(t *testing.T) {
	r, _ := newTestRealm(t, WithFeatureLevel(changeNewSubscriptionMessages.Level()-1, "10.0"))
	no := false
	res, got := subscribeNotices(t, r, idIago, SubscribeRequest{Channels: names("Denmark"),
		Principals: Principals{IDs: []int{idCordelia}}, SendNewSubscriptionMessages: &no})
	if len(got) != 1 || got[0].content != "@_**Iago|11** subscribed you to #**Denmark**." || res.NewSubscriptionMessagesSent != nil {
		t.Fatalf("notices %v, sent %v", got, res.NewSubscriptionMessagesSent)
	}
}

// The realm's new_stream_announcements_stream_id (zerver/views/realm.py
// update_realm): set by administrators to a channel they can read, -1
// turns it off, sent in register and announced with a realm update
// event; archiving the channel turns it off with Zulip's one update_dict
// (maybe_set_moderation_or_announcement_channels_none). Below feature
// level 241 it is notifications_stream_id.
func TestNewChannelAnnouncementsSetting(t *testing.T) {
	r, _ := newTestRealm(t)
	denmark := r.channels.byName[channelKey("Denmark")].ID
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm"}})
	if v := *realmState(t, r, idHamlet).RealmNewStreamAnnouncementsStreamID; v != -1 {
		t.Fatalf("default %d", v)
	}
	unknown := 999
	if _, err := r.As(idHamlet).UpdateRealm(bg, RealmUpdate{NewStreamAnnouncementsStreamID: &denmark}); err == nil {
		t.Fatal("a member set it")
	}
	_, err := r.As(idIago).UpdateRealm(bg, RealmUpdate{NewStreamAnnouncementsStreamID: &unknown})
	wantCode(t, err, CodeBadRequest, "Invalid channel ID")
	changes, err := r.As(idIago).UpdateRealm(bg, RealmUpdate{NewStreamAnnouncementsStreamID: &denmark, SignupAnnouncementsStreamID: &denmark})
	if err != nil || changes["new_stream_announcements_stream_id"] != denmark {
		t.Fatalf("%v %v", changes, err)
	}
	if v := *realmState(t, r, idHamlet).RealmNewStreamAnnouncementsStreamID; v != denmark {
		t.Fatalf("register %d", v)
	}
	evs := eventsOfType(t, r, idHamlet, q, "realm")
	if len(evs) != 2 || evs[0]["op"] != "update" || evs[0]["property"] != "new_stream_announcements_stream_id" ||
		evs[0]["value"] != float64(denmark) || evs[1]["property"] != "signup_announcements_stream_id" {
		t.Fatalf("events %v", evs)
	}
	doc, err := r.Dump()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Load(doc)
	if err != nil || back.settings.NewStreamAnnouncementsStreamID != denmark {
		t.Fatalf("fixture round trip: %v", err)
	}
	if err := r.As(idIago).ArchiveChannel(bg, denmark); err != nil {
		t.Fatal(err)
	}
	evs = eventsOfType(t, r, idHamlet, q, "realm")
	if len(evs) != 3 || evs[2]["op"] != "update_dict" || !cmp.Equal(evs[2]["data"],
		map[string]any{"new_stream_announcements_stream_id": float64(-1), "signup_announcements_stream_id": float64(-1)}) {
		t.Fatalf("after archiving %v", evs)
	}
	if r.settings.NewStreamAnnouncementsStreamID != 0 {
		t.Fatal("still set")
	}

	old, _ := newTestRealm(t, WithFeatureLevel(ChangeAnnouncementsRename.Level()-1, "8.0"))
	verona := old.channels.byName[channelKey("Verona")].ID
	oq := mustQueue(t, old, idHamlet, QueueOptions{EventTypes: []string{"realm"}})
	if _, err := old.As(idIago).UpdateRealm(bg, RealmUpdate{NewStreamAnnouncementsStreamID: &verona}); err != nil {
		t.Fatal(err)
	}
	if v := realmState(t, old, idHamlet).RealmNotificationsStreamID; v == nil || *v != verona {
		t.Fatalf("register below 241: %v", v)
	}
	if err := old.As(idIago).ArchiveChannel(bg, verona); err != nil {
		t.Fatal(err)
	}
	evs = eventsOfType(t, old, idHamlet, oq, "realm")
	if len(evs) != 2 || evs[0]["property"] != "notifications_stream_id" || evs[1]["op"] != "update" ||
		evs[1]["property"] != "notifications_stream_id" || evs[1]["value"] != float64(-1) {
		t.Fatalf("events below 241: %v", evs)
	}
}
