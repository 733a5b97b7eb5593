package realm

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/minizulip/minizulip/message"
)

// idDenmark is the dev realm's "Denmark" (subscribers: hamlet, iago,
// desdemona, othello, shiva, prospero, zoe).
const idDenmark = 2

// denmarkSubscribers are Denmark's subscribers in the dev realm.
var denmarkSubscribers = []int{idHamlet, idIago, idDesdemona, idOthello, idShiva, idProspero, idZoe}

// storedNotice is a Notification Bot message as stored.
type storedNotice struct {
	id        int64
	channelID int
	topic     string
	content   string
	client    string
}

// channelNotices lists the Notification Bot's messages after id, oldest
// first.
func channelNotices(t *testing.T, r *Realm, after int64) []storedNotice {
	t.Helper()
	var out []storedNotice
	_ = r.view(func() error {
		r.messages.store.All().Up(after+1, func(m *message.Message) bool {
			if m.SenderID == idNotificationBot {
				out = append(out, storedNotice{m.ID, m.ChannelID, m.Topic, m.Content, m.Client})
			}
			return true
		})
		return nil
	})
	return out
}

// newestID is the newest message's ID.
func newestID(t *testing.T, r *Realm) int64 {
	t.Helper()
	var id int64
	_ = r.view(func() error {
		r.messages.store.All().Down(AnchorNewest, func(m *message.Message) bool { id = m.ID; return false })
		return nil
	})
	return id
}

// oneNotice runs change and wants exactly one notice from it, in channel
// channelID's "channel events" topic, with content want.
func oneNotice(t *testing.T, r *Realm, channelID int, want string, change func() error) storedNotice {
	t.Helper()
	before := newestID(t, r)
	if err := change(); err != nil {
		t.Fatal(err)
	}
	got := channelNotices(t, r, before)
	if len(got) != 1 {
		t.Fatalf("%d notices, want 1: %v", len(got), got)
	}
	n := got[0]
	if n.channelID != channelID || n.topic != "channel events" || n.client != "Internal" {
		t.Fatalf("notice in channel %d topic %q client %q", n.channelID, n.topic, n.client)
	}
	if diff := cmp.Diff(want, n.content); diff != "" {
		t.Fatalf("content (-want +got):\n%s", diff)
	}
	return n
}

// wantNoNotice runs a change that must fail and post nothing.
func wantNoNotice(t *testing.T, r *Realm, change func() error) {
	t.Helper()
	before := newestID(t, r)
	if err := change(); err == nil {
		t.Fatal("the change was accepted")
	}
	if got := channelNotices(t, r, before); len(got) != 0 {
		t.Fatalf("a refused change posted %v", got)
	}
}

// wantUnread checks who has the notice unread: exactly those listed among
// the users given.
func wantUnread(t *testing.T, r *Realm, id int64, users []int, unread ...int) {
	t.Helper()
	for _, uid := range users {
		want := false
		for _, u := range unread {
			want = want || u == uid
		}
		if got := flagsOf(t, r, uid, id)&message.Read == 0; got != want {
			t.Errorf("user %d: unread %v, want %v", uid, got, want)
		}
	}
}

func update(r *Realm, userID int, req ChannelUpdate) func() error {
	return func() error { return r.As(userID).UpdateChannel(bg, req) }
}

// Archiving posts Zulip's notice, read by everyone, after the stream
// events; archiving twice, or by a non-administrator, posts nothing.
func TestArchiveChannelNotice(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"stream", "message"},
		Capabilities: ClientCapabilities{ArchivedChannels: true}})
	wantNoNotice(t, r, func() error { return r.As(idOthello).ArchiveChannel(bg, idDenmark) })
	n := oneNotice(t, r, idDenmark, "Channel #**Denmark** has been archived.",
		func() error { return r.As(idIago).ArchiveChannel(bg, idDenmark) })
	wantUnread(t, r, n.id, denmarkSubscribers)
	var types []string
	for _, ev := range pending(t, r, idOthello, q, -1) {
		types = append(types, ev.Type)
	}
	if diff := cmp.Diff([]string{"stream", "message"}, types); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	wantNoNotice(t, r, func() error { return r.As(idIago).ArchiveChannel(bg, idDenmark) })
	// Unarchiving posts Zulip's notice, unread for every subscriber.
	n = oneNotice(t, r, idDenmark, "Channel #**Denmark** has been unarchived.",
		update(r, idIago, ChannelUpdate{ChannelID: idDenmark, IsArchived: new(bool)}))
	wantUnread(t, r, n.id, denmarkSubscribers, denmarkSubscribers...)
	// Unarchiving an active channel changes nothing and says nothing.
	before := newestID(t, r)
	if err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: idDenmark, IsArchived: new(bool)}); err != nil {
		t.Fatal(err)
	}
	if got := channelNotices(t, r, before); len(got) != 0 {
		t.Fatalf("notices %v", got)
	}
}

// Archiving the moderation request channel turns reporting off and tells
// every active user; archiving another channel leaves it.
func TestArchiveModerationRequestChannel(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"realm"}})
	if err := r.As(idIago).ArchiveChannel(bg, idDenmark); err != nil {
		t.Fatal(err)
	}
	if evs := pending(t, r, idOthello, q, -1); len(evs) != 0 || r.settings.ModerationRequestChannelID != idCoreTeam {
		t.Fatalf("archiving Denmark: events %v, setting %d", evs, r.settings.ModerationRequestChannelID)
	}
	oneNotice(t, r, idCoreTeam, "Channel #**core team** has been archived.",
		func() error { return r.As(idIago).ArchiveChannel(bg, idCoreTeam) })
	evs := pending(t, r, idOthello, q, -1)
	if len(evs) != 1 {
		t.Fatalf("events %v", evs)
	}
	want := map[string]any{"type": "realm", "op": "update_dict", "property": "default", "id": float64(evs[0].ID),
		"data": map[string]any{"moderation_request_channel_id": float64(-1)}}
	if diff := cmp.Diff(want, eventJSON(t, evs[0])); diff != "" {
		t.Fatalf("event (-want +got):\n%s", diff)
	}
	if r.settings.ModerationRequestChannelID != 0 {
		t.Fatalf("setting %d", r.settings.ModerationRequestChannelID)
	}
	id := send(t, r, idOthello, "Verona", "t", "x")
	wantCode(t, r.As(idHamlet).ReportMessage(bg, id, "spam", ""), CodeBadRequest,
		"Message reporting is not enabled in this organization.")
}

// Renames and description changes: Zulip's notices, unread for every
// subscriber, after the update event; refused changes post nothing.
func TestRenameAndDescriptionNotices(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"stream", "message"}})
	name := "Danmark"
	n := oneNotice(t, r, idDenmark, "@_**Iago|11** renamed channel **Denmark** to **Danmark**.",
		update(r, idIago, ChannelUpdate{ChannelID: idDenmark, NewName: &name}))
	wantUnread(t, r, n.id, denmarkSubscribers, denmarkSubscribers...)
	evs := pending(t, r, idHamlet, q, -1)
	if len(evs) != 2 || evs[0].Type != "stream" || evs[1].Type != "message" {
		t.Fatalf("events %v", evs)
	}
	taken := "Verona"
	wantNoNotice(t, r, update(r, idIago, ChannelUpdate{ChannelID: idDenmark, NewName: &taken}))
	wantNoNotice(t, r, update(r, idOthello, ChannelUpdate{ChannelID: idDenmark, NewName: &name}))

	empty, desc := "", "Land of\nHamlet"
	oneNotice(t, r, idDenmark, "@_**Iago|11** changed the description for this channel.\n\n"+
		"* **Old description:**\n```` quote\nA Scandinavian country\n````\n"+
		"* **New description:**\n```` quote\n*No description.*\n````",
		update(r, idIago, ChannelUpdate{ChannelID: idDenmark, Description: &empty}))
	oneNotice(t, r, idDenmark, "@_**Iago|11** changed the description for this channel.\n\n"+
		"* **Old description:**\n```` quote\n*No description.*\n````\n"+
		"* **New description:**\n```` quote\nLand of Hamlet\n````",
		update(r, idIago, ChannelUpdate{ChannelID: idDenmark, Description: &desc}))
	// Several changes at once: Zulip's order, description before name.
	before := newestID(t, r)
	back, other := "Denmark", "Elsinore"
	if err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: idDenmark, NewName: &back, Description: &other}); err != nil {
		t.Fatal(err)
	}
	got := channelNotices(t, r, before)
	if len(got) != 2 || got[0].content[:len("@_**Iago|11** changed the description")] != "@_**Iago|11** changed the description" ||
		got[1].content != "@_**Iago|11** renamed channel **Danmark** to **Denmark**." {
		t.Fatalf("notices %v", got)
	}
	// A request refused after a valid part posts nothing at all.
	wantNoNotice(t, r, update(r, idIago, ChannelUpdate{ChannelID: idDenmark, Description: &desc, NewName: &taken}))
}

// Privacy changes name Zulip's access policies.
func TestPermissionNotice(t *testing.T) {
	r, _ := newTestRealm(t)
	yes, no := true, false
	n := oneNotice(t, r, idDenmark, "@_**Iago|11** changed the [access permissions](/help/channel-permissions) for this channel "+
		"from **Public** to **Private, protected history**.",
		update(r, idIago, ChannelUpdate{ChannelID: idDenmark, IsPrivate: &yes}))
	wantUnread(t, r, n.id, denmarkSubscribers, denmarkSubscribers...)
	oneNotice(t, r, idDenmark, "@_**Iago|11** changed the [access permissions](/help/channel-permissions) for this channel "+
		"from **Private, protected history** to **Private, shared history**.",
		update(r, idIago, ChannelUpdate{ChannelID: idDenmark, HistoryPublicToSubscribers: &yes}))
	oneNotice(t, r, idDenmark, "@_**Iago|11** changed the [access permissions](/help/channel-permissions) for this channel "+
		"from **Private, shared history** to **Public**.",
		update(r, idIago, ChannelUpdate{ChannelID: idDenmark, IsPrivate: &no}))
	// Rome is web-public.
	oneNotice(t, r, 5, "@_**Desdemona|9** changed the [access permissions](/help/channel-permissions) for this channel "+
		"from **Web-public** to **Public**.",
		update(r, idDesdemona, ChannelUpdate{ChannelID: 5, IsWebPublic: &no}))
	// The moderation request channel cannot become public.
	wantNoNotice(t, r, update(r, idIago, ChannelUpdate{ChannelID: idCoreTeam, IsPrivate: &no}))
}

// Retention changes (owners only) show the old and new periods, the
// realm default being forever.
func TestRetentionNotice(t *testing.T) {
	r, _ := newTestRealm(t)
	days := func(n int) **int { p := &n; return &p }
	head := "@_**Desdemona|9** has changed the [message retention period](/help/message-retention-policy) for this channel:\n"
	oneNotice(t, r, idDenmark, head+"* **Old retention period**: Forever\n* **New retention period**: 30 days\n\n"+
		"Messages in this channel will now be automatically deleted 30 days after they are sent.",
		update(r, idDesdemona, ChannelUpdate{ChannelID: idDenmark, MessageRetentionDays: days(30)}))
	oneNotice(t, r, idDenmark, head+"* **Old retention period**: 30 days\n* **New retention period**: 60 days\n\n"+
		"Messages in this channel will now be automatically deleted 60 days after they are sent.",
		update(r, idDesdemona, ChannelUpdate{ChannelID: idDenmark, MessageRetentionDays: days(60)}))
	oneNotice(t, r, idDenmark, head+"* **Old retention period**: 60 days\n* **New retention period**: Forever\n\n"+
		"Messages in this channel will now be retained forever.",
		update(r, idDesdemona, ChannelUpdate{ChannelID: idDenmark, MessageRetentionDays: days(-1)}))
	wantNoNotice(t, r, update(r, idIago, ChannelUpdate{ChannelID: idDenmark, MessageRetentionDays: days(10)}))
}

// Topics policy changes use Zulip's names; in a channel that allows only
// the empty topic, notices go there.
func TestTopicsPolicyNotice(t *testing.T) {
	r, _ := newTestRealm(t)
	policy := func(s string) *string { return &s }
	oneNotice(t, r, idDenmark, `@_**Iago|11** changed the "Allow posting to the *general chat* topic?" setting `+
		"from **Automatic** to **No *general chat* topic**.",
		update(r, idIago, ChannelUpdate{ChannelID: idDenmark, TopicsPolicy: policy("disable_empty_topic")}))
	oneNotice(t, r, idDenmark, `@_**Iago|11** changed the "Allow posting to the *general chat* topic?" setting `+
		"from **No *general chat* topic** to ***general chat* topic allowed**.",
		update(r, idIago, ChannelUpdate{ChannelID: idDenmark, TopicsPolicy: policy("allow_empty_topic")}))
	before := newestID(t, r)
	if err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: idDenmark, TopicsPolicy: policy("empty_topic_only")}); err != nil {
		t.Fatal(err)
	}
	got := channelNotices(t, r, before)
	want := `@_**Iago|11** changed the "Allow posting to the *general chat* topic?" setting ` +
		"from ***general chat* topic allowed** to **Only *general chat* topic allowed**."
	if len(got) != 1 || got[0].topic != "" || got[0].content != want {
		t.Fatalf("notices %v", got)
	}
	// Back to the realm's policy; the same policy again says nothing.
	oneNotice(t, r, idDenmark, `@_**Iago|11** changed the "Allow posting to the *general chat* topic?" setting `+
		"from **Only *general chat* topic allowed** to **Automatic**.",
		update(r, idIago, ChannelUpdate{ChannelID: idDenmark, TopicsPolicy: policy("inherit")}))
	before = newestID(t, r)
	if err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: idDenmark, TopicsPolicy: policy("inherit")}); err != nil {
		t.Fatal(err)
	}
	if got = channelNotices(t, r, before); len(got) != 0 {
		t.Fatalf("notices %v", got)
	}
	wantNoNotice(t, r, update(r, idIago, ChannelUpdate{ChannelID: idDenmark, TopicsPolicy: policy("bogus")}))
}

// A new can_send_message_group is announced with the groups mentioned
// silently; other permission settings are not announced.
func TestPostingPermissionNotice(t *testing.T) {
	r, _ := newTestRealm(t)
	admins := NamedGroupSetting(r.groups.byName["role:administrators"].ID)
	oneNotice(t, r, idDenmark, "@_**Iago|11** changed the [posting permissions](/help/channel-posting-policy) for this channel:\n\n"+
		"* **Old**: @_*role:everyone*\n* **New**: @_*role:administrators*\n",
		update(r, idIago, ChannelUpdate{ChannelID: idDenmark, GroupSettings: map[string]GroupSettingChange{
			"can_send_message_group": {New: admins}}}))
	before := newestID(t, r)
	if err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: idDenmark, GroupSettings: map[string]GroupSettingChange{
		"can_remove_subscribers_group": {New: admins}, "can_send_message_group": {New: admins}}}); err != nil {
		t.Fatal(err)
	}
	if got := channelNotices(t, r, before); len(got) != 0 {
		t.Fatalf("unchanged posting permission, other setting: notices %v", got)
	}
	wantNoNotice(t, r, update(r, idIago, ChannelUpdate{ChannelID: idDenmark, GroupSettings: map[string]GroupSettingChange{
		"can_send_message_group": {New: GroupSetting{DirectMembers: []int{idHamlet}}}}}))
	// Anonymous values list subgroups, then members, each by ID.
	_ = r.view(func() error {
		got := r.groupSettingMentions(GroupSetting{DirectMembers: []int{idOthello, idHamlet},
			DirectSubgroups: []int{r.groups.byName["role:moderators"].ID, admins.GroupID}})
		if want := "@_*role:administrators*, @_*role:moderators*, @_**King Hamlet|10**, @_**Othello, the Moor of Venice|12**"; got != want {
			t.Errorf("mentions %q, want %q", got, want)
		}
		return nil
	})
}
