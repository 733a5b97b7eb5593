package realm

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/group"
)

func subsNames(t *testing.T, r *Realm, userID int) []string {
	t.Helper()
	subs, err := r.As(userID).Subscriptions(bg, SubscriptionsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, s := range subs {
		out = append(out, s.Name)
	}
	return out
}

func subsChannelNames(t *testing.T, r *Realm, userID int, q ChannelsQuery) []string {
	t.Helper()
	list, err := r.As(userID).Channels(bg, q)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, s := range list {
		out = append(out, s.Name)
	}
	return out
}

// subsSnapshot captures every channel and every active subscription.
func subsSnapshot(r *Realm) map[string][]int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := map[string][]int{}
	for _, c := range r.channels.byID {
		out[c.Name] = r.activeSubscriberIDs(c.ID)
	}
	return out
}

func subsSameState(t *testing.T, before, after map[string][]int) {
	t.Helper()
	if len(before) != len(after) {
		t.Fatalf("channel count changed: %d -> %d", len(before), len(after))
	}
	for name, ids := range before {
		if !slices.Equal(ids, after[name]) {
			t.Fatalf("subscribers of %q changed: %v -> %v", name, ids, after[name])
		}
	}
}

func subsFatal(v bool) *bool { return &v }

func subsGroupID(r *Realm, name string) int { return r.groups.byName[name].ID }

func TestSubscribeCreatesChannelAndAddsPrincipals(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"subscription", "stream"}})
	res, err := r.As(idHamlet).Subscribe(bg, SubscribeRequest{
		Channels:   []ChannelSpec{{Name: "  elsinore ", Description: "A *castle*\nby the sea"}, {Name: "denmark"}},
		Principals: Principals{IDs: []int{idHamlet}, Emails: []string{"othello@zulip.com"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Subscribed["10"], []string{"elsinore"}) || !slices.Equal(res.AlreadySubscribed["10"], []string{"Denmark"}) ||
		!slices.Equal(res.Subscribed["12"], []string{"elsinore"}) || !slices.Equal(res.AlreadySubscribed["12"], []string{"Denmark"}) {
		t.Fatalf("result %+v", res)
	}
	if res.Unauthorized != nil || res.NewSubscriptionMessagesSent == nil || !*res.NewSubscriptionMessagesSent {
		t.Fatalf("unauthorized %v / messages sent %v", res.Unauthorized, res.NewSubscriptionMessagesSent)
	}
	id, err := r.As(idOthello).ChannelID(bg, "ELSINORE")
	if err != nil {
		t.Fatal(err)
	}
	subs, _ := r.As(idOthello).Subscriptions(bg, SubscriptionsRequest{IncludeSubscribers: true})
	var found *SubscriptionView
	for i := range subs {
		if subs[i].StreamID == id {
			found = &subs[i]
		}
	}
	if found == nil || found.Description != "A *castle* by the sea" || found.RenderedDescription != "<p>A <em>castle</em> by the sea</p>" ||
		found.CreatorID == nil || *found.CreatorID != idHamlet || !slices.Equal(found.Subscribers, []int{idHamlet, idOthello}) ||
		found.SubscriberCount != 2 || found.Color == "" || found.InviteOnly || !found.HistoryPublicToSubscribers {
		t.Fatalf("subscription %+v", found)
	}
	if !slices.Contains(subsChannelNames(t, r, idCordelia, DefaultChannelsQuery()), "elsinore") {
		t.Fatal("new public channel missing from cordelia's GET /streams")
	}
	types := []string{}
	for _, ev := range pending(t, r, idOthello, q, -1) {
		types = append(types, ev.Type+":"+eventJSON(t, ev)["op"].(string))
	}
	for _, want := range []string{"stream:create", "subscription:add", "subscription:peer_add"} {
		if !slices.Contains(types, want) {
			t.Fatalf("othello's events %v lack %s", types, want)
		}
	}
}

func TestSubscribeNewChannelSettings(t *testing.T) {
	r, _ := newTestRealm(t)
	mods := subsGroupID(r, group.Moderators)
	res, err := r.As(idDesdemona).Subscribe(bg, SubscribeRequest{
		Channels: []ChannelSpec{{Name: "vault", Color: "#abcdef"}}, InviteOnly: true,
		MessageRetentionDays: intPtr(30), TopicsPolicy: "disable_empty_topic", IsDefaultStream: false,
		GroupSettings: map[string]GroupSetting{
			"can_send_message_group":       NamedGroupSetting(mods),
			"can_remove_subscribers_group": {DirectMembers: []int{idIago}, DirectSubgroups: []int{mods}},
		},
	})
	if err != nil || !slices.Equal(res.Subscribed["9"], []string{"vault"}) {
		t.Fatalf("%+v %v", res, err)
	}
	subs, _ := r.As(idDesdemona).Subscriptions(bg, SubscriptionsRequest{})
	var v *SubscriptionView
	for i := range subs {
		if subs[i].Name == "vault" {
			v = &subs[i]
		}
	}
	if v == nil || !v.InviteOnly || v.HistoryPublicToSubscribers || v.Color != "#abcdef" || *v.MessageRetentionDays != 30 ||
		v.TopicsPolicy != "disable_empty_topic" || v.StreamPostPolicy != 4 || v.IsAnnouncementOnly {
		t.Fatalf("view %+v", v)
	}
	raw, _ := json.Marshal(v)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	wantAdmin := `{"direct_members":[9],"direct_subgroups":[]}`
	if b, _ := json.Marshal(m["can_administer_channel_group"]); string(b) != wantAdmin {
		t.Fatalf("can_administer_channel_group %s, want the creator as %s", b, wantAdmin)
	}
	if b, _ := json.Marshal(m["can_remove_subscribers_group"]); string(b) != `{"direct_members":[11],"direct_subgroups":[`+itoa(mods)+`]}` {
		t.Fatalf("can_remove_subscribers_group %s", b)
	}
	if m["can_send_message_group"] != float64(mods) || m["can_subscribe_group"] != float64(subsGroupID(r, group.Nobody)) ||
		m["can_create_topic_group"] != float64(subsGroupID(r, group.Everyone)) || m["folder_id"] != nil || m["stream_weekly_traffic"] != nil {
		t.Fatalf("group settings %v", m)
	}
	// The private channel is invisible to othello, visible to iago (admin)
	// with include_all, but iago cannot look its ID up without access.
	if slices.Contains(subsChannelNames(t, r, idOthello, ChannelsQuery{IncludeAll: true}), "vault") {
		t.Fatal("othello sees vault")
	}
	if !slices.Contains(subsChannelNames(t, r, idIago, ChannelsQuery{IncludeAll: true}), "vault") {
		t.Fatal("iago's include_all lacks vault")
	}
	_, err = r.As(idIago).ChannelID(bg, "vault")
	wantCode(t, err, CodeBadRequest, "Invalid channel name 'vault'")
}

func TestSubscribeLegacyEmailKeys(t *testing.T) {
	r, _ := newTestRealm(t, WithFeatureLevel(218, "8.0"))
	res, err := r.As(idIago).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Rome"}}})
	if err != nil || !slices.Equal(res.Subscribed["user11@zulipdev.com"], []string{"Rome"}) || res.NewSubscriptionMessagesSent != nil {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestSubscribeRejectionsChangeNothing(t *testing.T) {
	r, _ := newTestRealm(t)
	r.mu.Lock()
	r.users.byID[idShiva].IsActive = false
	r.mu.Unlock()
	before := subsSnapshot(r)
	cases := []struct {
		name  string
		actor int
		req   SubscribeRequest
		code  Code
		msg   string
	}{
		{"guest", idPolonius, SubscribeRequest{Channels: []ChannelSpec{{Name: "Verona"}}}, CodeBadRequest, "Not allowed for guest users"},
		{"private", idOthello, SubscribeRequest{Channels: []ChannelSpec{{Name: "core team"}}}, CodeBadRequest, "Unable to access channel (core team)."},
		{"private after new", idOthello, SubscribeRequest{Channels: []ChannelSpec{{Name: "new one"}, {Name: "core team"}}}, CodeBadRequest, "Unable to access channel (core team)."},
		{"empty name", idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "ok"}, {Name: "  "}}}, CodeBadRequest, "Channel name can't be empty."},
		{"control char", idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "bad\x01name"}}}, CodeBadRequest, "Invalid character in channel name, at position 4."},
		{"non-character", idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "a\uFFFE"}}}, CodeBadRequest, "Invalid character in channel name, at position 2."},
		{"too long", idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: strings.Repeat("é", 61)}}}, CodeBadRequest, "Channel name too long (limit: 60 characters)."},
		{"description", idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "x", Description: string(make([]byte, 1025))}}}, CodeBadRequest, `subscriptions[0]["description"] is too long (limit: 1024 characters)`},
		{"color", idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "x", Color: "red"}}}, CodeBadRequest, "add.color is not a valid hex color code"},
		{"unknown user", idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "new one"}}, Principals: Principals{IDs: []int{idOthello, 999}}}, CodeBadRequest, "No such user"},
		{"unknown email", idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "Verona"}}, Principals: Principals{Emails: []string{"nobody@zulip.com"}}}, CodeBadRequest, "No such user"},
		{"system bot", idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "Verona"}}, Principals: Principals{IDs: []int{idNotificationBot}}}, CodeBadRequest, "No such user"},
		{"deactivated", idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "new one"}}, Principals: Principals{IDs: []int{idShiva}}}, CodeBadRequest, "User is deactivated"},
		{"web-public by admin", idIago, SubscribeRequest{Channels: []ChannelSpec{{Name: "x"}}, IsWebPublic: true}, CodeBadRequest, "Insufficient permission"},
		{"retention by admin", idIago, SubscribeRequest{Channels: []ChannelSpec{{Name: "x"}}, MessageRetentionDays: intPtr(5)}, CodeUnauthorizedPrincipal, "Must be an organization owner"},
		{"default by member", idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "x"}}, IsDefaultStream: true}, CodeBadRequest, "Insufficient permission"},
		{"private default", idIago, SubscribeRequest{Channels: []ChannelSpec{{Name: "x"}}, IsDefaultStream: true, InviteOnly: true}, CodeBadRequest, "A default channel cannot be private."},
		{"folder", idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "x"}}, FolderID: intPtr(1)}, CodeBadRequest, "Invalid channel folder ID"},
		{"topics policy", idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "x"}}, TopicsPolicy: "sometimes"}, CodeBadRequest, "Invalid topics_policy"},
		{"everyone adds", idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "x"}}, GroupSettings: map[string]GroupSetting{"can_add_subscribers_group": NamedGroupSetting(subsGroupID(r, group.Everyone))}}, CodeBadRequest, "'can_add_subscribers_group' setting cannot be set to 'role:everyone' group."},
		{"unknown group", idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "x"}}, GroupSettings: map[string]GroupSetting{"can_subscribe_group": NamedGroupSetting(999)}}, CodeBadRequest, "Invalid user group"},
		{"delete policy", idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "x"}}, GroupSettings: map[string]GroupSetting{"can_delete_own_message_group": NamedGroupSetting(subsGroupID(r, group.Members))}}, CodeBadRequest, "Insufficient permission"},
		{"protected topics", idHamlet, SubscribeRequest{Channels: []ChannelSpec{{Name: "x"}}, InviteOnly: true, GroupSettings: map[string]GroupSetting{"can_create_topic_group": NamedGroupSetting(subsGroupID(r, group.Members))}}, CodeBadRequest, "Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := r.As(c.actor).Subscribe(bg, c.req)
			wantCode(t, err, c.code, c.msg)
		})
	}
	subsSameState(t, before, subsSnapshot(r))
}

func TestSubscribeNonFatalListsUnauthorized(t *testing.T) {
	r, _ := newTestRealm(t)
	res, err := r.As(idOthello).Subscribe(bg, SubscribeRequest{
		Channels: []ChannelSpec{{Name: "core team"}, {Name: "Venice"}}, AuthorizationErrorsFatal: subsFatal(false)})
	if err != nil || !slices.Equal(res.Unauthorized, []string{"core team"}) || !slices.Equal(res.Subscribed["12"], []string{"Venice"}) {
		t.Fatalf("non-fatal: %+v %v", res, err)
	}
	raw, _ := json.Marshal(SubscribeResult{Subscribed: map[string][]string{}, AlreadySubscribed: map[string][]string{}, Unauthorized: []string{}})
	if string(raw) != `{"subscribed":{},"already_subscribed":{},"unauthorized":[]}` {
		t.Fatalf("empty non-fatal result encodes as %s", raw)
	}
}

func TestSubscribeOthersPermission(t *testing.T) {
	r, _ := newTestRealm(t)
	r.UpdateSettings(func(s *Settings) { s.CanAddSubscribersGroup = NamedGroupSetting(subsGroupID(r, group.Administrators)) })
	before := subsSnapshot(r)
	_, err := r.As(idHamlet).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Venice"}}, Principals: Principals{IDs: []int{idCordelia}}})
	wantCode(t, err, CodeBadRequest, "Insufficient permission")
	// Naming oneself by ID is not subscribing others; by email it is.
	if _, err := r.As(idHamlet).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Venice"}}, Principals: Principals{IDs: []int{idHamlet}}}); err != nil {
		t.Fatal(err)
	}
	_, err = r.As(idHamlet).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Scotland"}}, Principals: Principals{Emails: []string{"hamlet@zulip.com"}}})
	wantCode(t, err, CodeBadRequest, "Insufficient permission")
	before["Venice"] = append(before["Venice"], idHamlet)
	slices.Sort(before["Venice"])
	subsSameState(t, before, subsSnapshot(r))
	// A channel's own can_add_subscribers_group grants it back.
	r.mu.Lock()
	r.channels.byName["venice"].Permissions = map[string]GroupSetting{"can_add_subscribers_group": {DirectMembers: []int{idHamlet}}}
	r.mu.Unlock()
	res, err := r.As(idHamlet).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Venice"}}, Principals: Principals{IDs: []int{idCordelia}}})
	if err != nil || !slices.Equal(res.Subscribed["8"], []string{"Venice"}) {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestSubscribeGuestCannotCreateAndGuestsSeeLittle(t *testing.T) {
	r, _ := newTestRealm(t)
	before := subsSnapshot(r)
	_, err := r.As(idPolonius).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "guest land"}}})
	wantCode(t, err, CodeBadRequest, "Not allowed for guest users")
	subsSameState(t, before, subsSnapshot(r))
	got := subsChannelNames(t, r, idPolonius, DefaultChannelsQuery())
	if !slices.Contains(got, "Verona") || slices.Contains(got, "Denmark") || slices.Contains(got, "Rome") {
		t.Fatalf("guest sees %v", got)
	}
	web := DefaultChannelsQuery()
	web.IncludeWebPublic = true
	if got := subsChannelNames(t, r, idPolonius, web); !slices.Contains(got, "Rome") || slices.Contains(got, "Denmark") {
		t.Fatalf("guest with include_web_public sees %v", got)
	}
	if _, err := r.As(idPolonius).ChannelID(bg, "Denmark"); err == nil {
		t.Fatal("guest looked up Denmark's ID")
	}
	if id, err := r.As(idPolonius).ChannelID(bg, "rome"); err != nil || id != 5 {
		t.Fatalf("guest web-public lookup: %d %v", id, err)
	}
}

func TestChannelsVisibilityAndOrder(t *testing.T) {
	r, _ := newTestRealm(t)
	got := subsChannelNames(t, r, idOthello, DefaultChannelsQuery())
	if slices.Contains(got, "core team") || !slices.Contains(got, "Rome") || len(got) != 16 {
		t.Fatalf("othello sees %v", got)
	}
	if !slices.IsSorted(got) {
		t.Fatalf("not sorted by name: %v", got)
	}
	if !slices.Contains(subsChannelNames(t, r, idHamlet, DefaultChannelsQuery()), "core team") {
		t.Fatal("hamlet (subscriber) does not see core team")
	}
	if got := subsChannelNames(t, r, idIago, ChannelsQuery{IncludeAll: true}); len(got) != 17 {
		t.Fatalf("admin include_all sees %d", len(got))
	}
	if got := subsChannelNames(t, r, idOthello, ChannelsQuery{IncludeAll: true}); len(got) != 16 || slices.Contains(got, "core team") {
		t.Fatalf("member include_all sees %v", got)
	}
	wantSubscribed := []string{"Denmark", "Scotland", "Verona", "announce",
		"design", "devel", "errors", "social", "support", "test", "ビデオゲーム", "조리법 😎"}
	if diff := cmp.Diff(wantSubscribed, subsChannelNames(t, r, idOthello, ChannelsQuery{IncludeSubscribed: true})); diff != "" {
		t.Fatalf("othello's subscribed channels (-want +got):\n%s", diff)
	}
	list, _ := r.As(idOthello).Channels(bg, ChannelsQuery{IncludePublic: true, IncludeDefault: true})
	defaults := []string{}
	for _, s := range list {
		if s.IsDefault == nil {
			t.Fatalf("%s lacks is_default", s.Name)
		}
		if *s.IsDefault {
			defaults = append(defaults, s.Name)
		}
	}
	if !slices.Equal(defaults, []string{"Verona", "design", "devel", "social", "support"}) {
		t.Fatalf("default channels %v", defaults)
	}
	if list, _ := r.As(idOthello).Channels(bg, DefaultChannelsQuery()); list[0].IsDefault != nil {
		t.Fatal("is_default sent without include_default")
	}
	_, err := r.As(idOthello).ChannelID(bg, "core team")
	wantCode(t, err, CodeBadRequest, "Invalid channel name 'core team'")
	_, err = r.As(idOthello).ChannelID(bg, "Atlantis")
	wantCode(t, err, CodeBadRequest, "Invalid channel name 'Atlantis'")
	if id, err := r.As(idHamlet).ChannelID(bg, " core TEAM "); err != nil || id != 6 {
		t.Fatalf("core team id %d %v", id, err)
	}
}

func TestChannelsForBotsAndArchived(t *testing.T) {
	r, _ := newTestRealm(t)
	id, err := r.AddChannel(NewChannel{Name: "cordelia only", Description: "", InviteOnly: true, SubscriberIDs: []int{idCordelia}})
	if err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	r.users.byID[idDefaultBot].BotOwnerID = idCordelia
	r.channels.byName["scotland"].IsArchived = true
	r.mu.Unlock()
	owner := subsChannelNames(t, r, idCordelia, ChannelsQuery{IncludeSubscribed: true})
	if got := subsChannelNames(t, r, idDefaultBot, ChannelsQuery{IncludeOwnerSubscribed: true}); !slices.Equal(got, owner) || !slices.Contains(got, "cordelia only") {
		t.Fatalf("bot with include_owner_subscribed sees %v, want its owner's %v", got, owner)
	}
	if got := subsChannelNames(t, r, idDefaultBot, DefaultChannelsQuery()); slices.Contains(got, "cordelia only") {
		t.Fatal("bot sees its owner's private channel without include_owner_subscribed")
	}
	if got := subsChannelNames(t, r, idOthello, DefaultChannelsQuery()); slices.Contains(got, "Scotland") {
		t.Fatal("archived channel listed by default")
	}
	all := DefaultChannelsQuery()
	all.ExcludeArchived = false
	if got := subsChannelNames(t, r, idOthello, all); !slices.Contains(got, "Scotland") {
		t.Fatal("archived channel missing with exclude_archived=false")
	}
	if slices.Contains(subsNames(t, r, idOthello), "Scotland") {
		t.Fatal("GET /users/me/subscriptions lists an archived channel")
	}
	if _, err := r.As(idOthello).ChannelID(bg, "Scotland"); err == nil {
		t.Fatal("get_stream_id found an archived channel")
	}
	if cid, err := r.As(idCordelia).ChannelID(bg, "cordelia only"); err != nil || cid != id {
		t.Fatalf("cordelia only: %d %v", cid, err)
	}
	_, err = r.AddChannel(NewChannel{Name: "Cordelia Only", Description: ""})
	wantCode(t, err, CodeBadRequest, "already exists")
	_, err = r.AddChannel(NewChannel{Name: "fresh", Description: "", SubscriberIDs: []int{999}})
	wantCode(t, err, CodeBadRequest, "No such user")
	if _, ok := subsSnapshot(r)["fresh"]; ok {
		t.Fatal("a rejected CreateChannel created the channel")
	}
}

func TestUnsubscribe(t *testing.T) {
	r, _ := newTestRealm(t)
	res, err := r.As(idOthello).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"Denmark", " rome "}, Principals: Principals{}})
	if err != nil || !slices.Equal(res.Removed, []string{"Denmark"}) || !slices.Equal(res.NotRemoved, []string{"Rome"}) {
		t.Fatalf("%+v %v", res, err)
	}
	if slices.Contains(subsNames(t, r, idOthello), "Denmark") {
		t.Fatal("still subscribed")
	}
	before := subsSnapshot(r)
	_, err = r.As(idOthello).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"Verona", "Atlantis", "Lilliput"}, Principals: Principals{}})
	wantCode(t, err, CodeBadRequest, "Channel(s) (Atlantis, Lilliput) do not exist")
	_, err = r.As(idOthello).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"Verona"}, Principals: Principals{IDs: []int{idHamlet}}})
	wantCode(t, err, CodeBadRequest, "Insufficient permission")
	_, err = r.As(idOthello).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{""}, Principals: Principals{}})
	wantCode(t, err, CodeBadRequest, "Channel name can't be empty.")
	_, err = r.As(idOthello).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"Verona"}, Principals: Principals{IDs: []int{999}}})
	wantCode(t, err, CodeBadRequest, "No such user")
	subsSameState(t, before, subsSnapshot(r))
	res, err = r.As(idIago).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"Verona"}, Principals: Principals{Emails: []string{"hamlet@zulip.com"}}})
	if err != nil || !slices.Equal(res.Removed, []string{"Verona"}) || slices.Contains(subsNames(t, r, idHamlet), "Verona") {
		t.Fatalf("admin could not unsubscribe hamlet: %+v %v", res, err)
	}
	// An owner may remove their own bot; can_remove_subscribers_group
	// lets a member remove others from channels they can see.
	r.mu.Lock()
	r.users.byID[idDefaultBot].BotOwnerID = idOthello
	r.channels.byName["verona"].Permissions = map[string]GroupSetting{"can_remove_subscribers_group": NamedGroupSetting(subsGroupID(r, group.Members))}
	r.mu.Unlock()
	if res, err := r.As(idOthello).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"devel"}, Principals: Principals{IDs: []int{idDefaultBot}}}); err != nil || len(res.Removed) != 1 {
		t.Fatalf("owner removing own bot: %+v %v", res, err)
	}
	if res, err := r.As(idOthello).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"Verona"}, Principals: Principals{IDs: []int{idCordelia}}}); err != nil || len(res.Removed) != 1 {
		t.Fatalf("can_remove_subscribers_group member: %+v %v", res, err)
	}
	// A private channel othello cannot see still answers not_removed.
	if res, err := r.As(idOthello).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"core team"}, Principals: Principals{}}); err != nil || !slices.Equal(res.NotRemoved, []string{"core team"}) {
		t.Fatalf("core team: %+v %v", res, err)
	}
}

func TestRegisterChannelState(t *testing.T) {
	r, _ := newTestRealm(t)
	if _, err := r.As(idOthello).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"Scotland"}, Principals: Principals{}}); err != nil {
		t.Fatal(err)
	}
	state, err := r.As(idOthello).Register(bg, RegisterRequest{FetchEventTypes: []string{"subscription", "stream"}, IncludeSubscribers: true})
	if err != nil {
		t.Fatal(err)
	}
	names := func(key string) []string {
		raw, _ := json.Marshal(map[string]any{"subscriptions": state.Subscriptions, "unsubscribed": state.Unsubscribed,
			"never_subscribed": state.NeverSubscribed, "streams": state.Streams}[key])
		var list []map[string]any
		_ = json.Unmarshal(raw, &list)
		out := []string{}
		for _, s := range list {
			if _, ok := s["subscribers"]; !ok {
				t.Fatalf("%s entry %v lacks subscribers", key, s["name"])
			}
			out = append(out, s["name"].(string))
		}
		return out
	}
	if got := names("unsubscribed"); !slices.Equal(got, []string{"Scotland"}) {
		t.Fatalf("unsubscribed %v", got)
	}
	if got := names("never_subscribed"); !slices.Equal(got, []string{"Rome", "Venice", "Zulip", "sandbox"}) {
		t.Fatalf("never_subscribed %v", got)
	}
	if got := names("subscriptions"); !slices.IsSorted(got) || slices.Contains(got, "Scotland") || len(got) != 11 {
		t.Fatalf("subscriptions %v", got)
	}
	guest, _ := r.As(idPolonius).Register(bg, RegisterRequest{FetchEventTypes: []string{"subscription"}})
	raw, _ := json.Marshal(guest.NeverSubscribed)
	var never []map[string]any
	_ = json.Unmarshal(raw, &never)
	if len(never) != 1 || never[0]["name"] != "Rome" {
		t.Fatalf("guest never_subscribed %s", raw)
	}
}

// A subscription add event carries each channel's subscribers, as Zulip's
// do.
func TestSubscriptionAddEventCarriesSubscribers(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"subscription"}})
	if _, err := r.As(idHamlet).Subscribe(bg, SubscribeRequest{
		Channels:   []ChannelSpec{{Name: "elsinore"}},
		Principals: Principals{IDs: []int{idHamlet, idOthello}},
	}); err != nil {
		t.Fatal(err)
	}
	var add SubscriptionAddEvent
	var addEvent Event
	for _, ev := range pending(t, r, idOthello, q, -1) {
		if a, ok := ev.Payload.(SubscriptionAddEvent); ok {
			add, addEvent = a, ev
		}
	}
	if len(add.Subscriptions) != 1 {
		t.Fatalf("no add event for othello: %+v", add)
	}
	if got := add.Subscriptions[0].Subscribers; !slices.Equal(got, []int{idHamlet, idOthello}) {
		t.Fatalf("subscribers %v", got)
	}
	if m := eventJSON(t, addEvent); m["subscriptions"].([]any)[0].(map[string]any)["subscribers"] == nil {
		t.Fatalf("subscribers absent from the JSON: %v", m)
	}
}
