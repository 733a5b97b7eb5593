package realm

import (
	"slices"
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

// setChannelGroup stores a channel permission setting directly.
func setChannelGroup(r *Realm, channel, setting string, g GroupSetting) {
	ch := r.channels.byName[channelKey(channel)]
	if ch.Permissions == nil {
		ch.Permissions = map[string]GroupSetting{}
	}
	ch.Permissions[setting] = g
}

// Rows 349 (register never_subscribed and unsubscribed, schema
// CanAdministerChannelGroup, PATCH /streams can_administer_channel_group):
// a member in can_administer_channel_group of a private channel it is not
// subscribed to sees the channel, hears its events and changes it from
// 349; below, the channel is hidden from it as from any non-subscriber.
func TestChannelAdministratorsAccessFollowsLevel(t *testing.T) {
	belowAndAt(t, changeChannelAdminAccess, func(t *testing.T, r *Realm, has bool) {
		setChannelGroup(r, "core team", "can_administer_channel_group", GroupSetting{DirectMembers: []int{idOthello, idCordelia}})
		ch := r.channels.byName[channelKey("core team")]
		r.channels.subs[ch.ID][idCordelia] = &storedSubscription{UserID: idCordelia, ChannelID: ch.ID, Color: "#c2c2c2"}
		state, err := r.As(idOthello).Register(bg, RegisterRequest{FetchEventTypes: []string{"subscription"}})
		if err != nil {
			t.Fatal(err)
		}
		never := slices.ContainsFunc(state.SubscriptionState.NeverSubscribed, func(s NeverSubscribedView) bool { return s.StreamID == ch.ID })
		if never != has {
			t.Errorf("core team in Othello's never_subscribed %v, want %v", never, has)
		}
		state, err = r.As(idCordelia).Register(bg, RegisterRequest{FetchEventTypes: []string{"subscription"}})
		if err != nil {
			t.Fatal(err)
		}
		left := slices.ContainsFunc(state.SubscriptionState.Unsubscribed, func(s SubscriptionView) bool { return s.StreamID == ch.ID })
		if left != has {
			t.Errorf("core team in Cordelia's unsubscribed %v, want %v", left, has)
		}
		q := mustQueue(t, r, idOthello, QueueOptions{})
		if err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: ch.ID, Description: str("by Iago")}); err != nil {
			t.Fatal(err)
		}
		if heard := len(eventsOf(t, r, idOthello, q, "stream")) > 0; heard != has {
			t.Errorf("Othello heard core team's update %v, want %v", heard, has)
		}
		err = r.As(idOthello).UpdateChannel(bg, ChannelUpdate{ChannelID: ch.ID, Description: str("by Othello")})
		if !has {
			wantCode(t, err, CodeBadRequest, "Invalid channel ID")
			if ch.Description != "by Iago" {
				t.Fatal("a refused update changed the description")
			}
			return
		}
		if err != nil || ch.Description != "by Othello" {
			t.Fatalf("channel administrator's update: %v, description %q", err, ch.Description)
		}
	})
}

// Rows 349 (PATCH /streams, schema CanAdministerChannelGroup): an
// organization administrator not subscribed to a private channel changes
// its settings that need metadata access only from 349; below, only its
// name and description. Archiving it needs content access below 349.
func TestAdministratorsWithoutContentAccessFollowLevel(t *testing.T) {
	belowAndAt(t, changeChannelAdminAccess, func(t *testing.T, r *Realm, has bool) {
		ch := r.channels.byName[channelKey("core team")]
		if _, err := r.As(idIago).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"core team"}}); err != nil {
			t.Fatal(err)
		}
		if err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: ch.ID, NewName: str("inner circle"), Description: str("renamed")}); err != nil {
			t.Fatalf("rename by an administrator without content access: %v", err)
		}
		moderators := GroupSettingChange{New: NamedGroupSetting(gidModerators)}
		err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: ch.ID,
			GroupSettings: map[string]GroupSettingChange{"can_remove_subscribers_group": moderators}})
		changed := r.channelSetting(ch, "can_remove_subscribers_group").GroupID == gidModerators
		if has != (err == nil) || changed != has {
			t.Fatalf("can_remove_subscribers_group by an administrator without content access: %v, changed %v", err, changed)
		}
		if !has {
			wantCode(t, err, CodeBadRequest, "Invalid channel ID")
		}
		err = r.As(idIago).ArchiveChannel(bg, ch.ID)
		if has != (err == nil) || ch.IsArchived != has {
			t.Fatalf("archiving by an administrator without content access: %v, archived %v", err, ch.IsArchived)
		}
	})
}

// Rows 349 (PATCH /streams can_remove_subscribers_group, schema
// CanRemoveSubscribersGroup): from 349 a channel administrator outside
// can_remove_subscribers_group unsubscribes others, and so does an
// organization administrator not subscribed to a private channel; below,
// neither.
func TestUnsubscribingOthersFollowsLevel(t *testing.T) {
	belowAndAt(t, changeChannelAdminAccess, func(t *testing.T, r *Realm, has bool) {
		setChannelGroup(r, "Denmark", "can_administer_channel_group", GroupSetting{DirectMembers: []int{idOthello}})
		setChannelGroup(r, "Denmark", "can_remove_subscribers_group", NamedGroupSetting(gidAdministrators))
		_, err := r.As(idOthello).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"Denmark"}, Principals: Principals{IDs: []int{idHamlet}}})
		if has != (err == nil) || r.isSubscribed(channelID(t, r, "Denmark"), idHamlet) == has {
			t.Fatalf("channel administrator unsubscribing Hamlet: %v", err)
		}
		if !has {
			wantCode(t, err, CodeBadRequest, "Insufficient permission")
		}
		if _, err := r.As(idIago).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"core team"}}); err != nil {
			t.Fatal(err)
		}
		core := channelID(t, r, "core team")
		_, err = r.As(idIago).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"core team"}, Principals: Principals{IDs: []int{idHamlet}}})
		if has != (err == nil) || r.isSubscribed(core, idHamlet) == has {
			t.Fatalf("administrator not subscribed unsubscribing Hamlet from core team: %v", err)
		}
		if !has {
			wantCode(t, err, CodeBadRequest, "Insufficient permission")
		}
	})
}

// Row 349 POST /users/me/subscriptions: a member of a private channel's
// can_add_subscribers_group subscribes others without being subscribed
// from 349; below, it cannot access the channel.
func TestAddingSubscribersWithoutSubscriptionFollowsLevel(t *testing.T) {
	belowAndAt(t, changeChannelAdminAccess, func(t *testing.T, r *Realm, has bool) {
		setChannelGroup(r, "core team", "can_add_subscribers_group", GroupSetting{DirectMembers: []int{idCordelia}})
		core := channelID(t, r, "core team")
		_, err := r.As(idCordelia).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "core team"}}, Principals: Principals{IDs: []int{idOthello}}})
		if has != (err == nil) || r.isSubscribed(core, idOthello) != has {
			t.Fatalf("subscribing Othello to core team: %v", err)
		}
		if !has {
			wantCode(t, err, CodeBadRequest, "Unable to access channel (core team).")
		}
	})
}

// Rows 362 (POST, DELETE and PATCH /users/me/subscriptions, PATCH
// /streams): subscriptions in an archived channel may be added and
// removed, and its privacy changed, from 362; below, subscribing finds
// the channel inaccessible, unsubscribing finds none, and a privacy
// change is refused.
func TestArchivedChannelSubscriptionsFollowLevel(t *testing.T) {
	belowAndAt(t, changeArchivedSubscriptions, func(t *testing.T, r *Realm, has bool) {
		denmark := channelID(t, r, "Denmark")
		if err := r.As(idIago).ArchiveChannel(bg, denmark); err != nil {
			t.Fatal(err)
		}
		_, err := r.As(idOthello).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"Denmark"}})
		if has != (err == nil) || r.isSubscribed(denmark, idOthello) == has {
			t.Fatalf("leaving archived Denmark: %v", err)
		}
		if !has {
			wantCode(t, err, CodeBadRequest, "Channel(s) (Denmark) do not exist")
		}
		_, err = r.As(idCordelia).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Denmark"}}})
		if has != (err == nil) || r.isSubscribed(denmark, idCordelia) != has {
			t.Fatalf("joining archived Denmark: %v", err)
		}
		if !has {
			wantCode(t, err, CodeBadRequest, "Unable to access channel (Denmark).")
			notFatal := false
			ans, err := r.As(idCordelia).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Denmark"}}, AuthorizationErrorsFatal: &notFatal})
			if err != nil || !slices.Contains(ans.Unauthorized, "Denmark") {
				t.Fatalf("joining archived Denmark, errors not fatal: %+v, %v", ans, err)
			}
		}
		_, err = r.As(idAaron).UpdateSubscriptions(bg, UpdateSubscriptionsRequest{Add: []ChannelSpec{{Name: "Denmark"}}})
		if has != (err == nil) || r.isSubscribed(denmark, idAaron) != has {
			t.Fatalf("PATCH subscriptions adding archived Denmark: %v", err)
		}
		private := true
		err = r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: denmark, IsPrivate: &private})
		if has != (err == nil) || r.channels.byID[denmark].InviteOnly != has {
			t.Fatalf("making archived Denmark private: %v", err)
		}
		if !has {
			wantCode(t, err, CodeBadRequest, "Invalid channel ID")
			if err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: denmark, Description: str("still editable")}); err != nil {
				t.Fatalf("describing archived Denmark: %v", err)
			}
		}
	})
}

// Rows 342 (POST /invites, POST /invites/multiuse stream_ids): an
// inviter who may not add subscribers lists a default channel from 342;
// below, it is refused as any other channel.
func TestInvitingToDefaultChannelsFollowsLevel(t *testing.T) {
	belowAndAt(t, changeInviteDefaultChannels, func(t *testing.T, r *Realm, has bool) {
		r.settings.CanAddSubscribersGroup = NamedGroupSetting(gidAdministrators)
		r.settings.CreateMultiuseInviteGroup = NamedGroupSetting(gidMembers)
		verona := channelID(t, r, "Verona")
		err := r.As(idHamlet).SendInvites(bg, expiring("new@zulip.com", 60, verona))
		_, linkErr := r.As(idHamlet).CreateInviteLink(bg, expiring("", 60, verona))
		for _, err := range []error{err, linkErr} {
			if has {
				if err != nil {
					t.Fatalf("inviting to default Verona: %v", err)
				}
				continue
			}
			wantCode(t, err, CodeBadRequest, "You do not have permission to subscribe other users to channels.")
		}
		if got := len(mustInvites(t, r, idHamlet)); got != map[bool]int{false: 0, true: 2}[has] {
			t.Fatalf("%d invitations stored", got)
		}
		denmark := channelID(t, r, "Denmark")
		wantCode(t, r.As(idHamlet).SendInvites(bg, expiring("other@zulip.com", 60, denmark)), CodeBadRequest,
			"You do not have permission to subscribe other users to channels.")
	})
}
