package realm

import (
	"slices"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/message"
)

// restrictedRealm is a realm at level whose can_access_all_users_group
// is role:members, where the guest Polonius shares only the channel
// "guests" with Hamlet (he left the seeded channels, which everyone is
// in).
func restrictedRealm(t *testing.T, level int) *Realm {
	t.Helper()
	r, _ := newTestRealm(t, WithFeatureLevel(level, "test"))
	r.UpdateSettings(func(s *Settings) { s.CanAccessAllUsersGroup = NamedGroupSetting(gidMembers) })
	var names []string
	for id, subs := range r.channels.subs {
		if s := subs[idPolonius]; s != nil && s.Active {
			names = append(names, r.channels.byID[id].Name)
		}
	}
	if _, err := r.As(idPolonius).Unsubscribe(bg, UnsubscribeRequest{Channels: names}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.AddChannel(NewChannel{Name: "guests", SubscriberIDs: []int{idPolonius, idHamlet}}); err != nil {
		t.Fatal(err)
	}
	return r
}

func realmUsersOf(t *testing.T, r *Realm, id int, caps ClientCapabilities) map[int]User {
	t.Helper()
	st, err := r.As(id).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm_user"}, Queue: QueueOptions{Capabilities: caps}})
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]User{}
	for _, u := range st.RealmUserState.RealmUsers {
		out[u.UserID] = u
	}
	return out
}

func TestGuestAccessesOnlyUsersSharingARecipient(t *testing.T) {
	r := restrictedRealm(t, 496)
	polonius := r.As(idPolonius)
	if _, err := polonius.User(bg, idHamlet, UserViewOptions{}); err != nil {
		t.Fatalf("Hamlet shares a channel: %v", err)
	}
	if _, err := polonius.User(bg, idDefaultBot, UserViewOptions{}); err != nil {
		t.Fatalf("bots are accessible: %v", err)
	}
	wantCode(t, errOf(polonius.User(bg, idIago, UserViewOptions{})), CodeBadRequest, "Insufficient permission")
	dm := func(to ...int) SendRequest {
		return SendRequest{Type: "direct", To: message.To{UserIDs: to}, Content: "hi"}
	}
	wantCode(t, errOf(polonius.SendMessage(bg, dm(idIago))), CodeBadRequest, "You do not have permission to access some of the recipients.")
	wantCode(t, errOf(polonius.SendMessage(bg, dm(idHamlet, idIago))), CodeBadRequest, "You do not have permission to access some of the recipients.")
	if _, err := polonius.SendMessage(bg, dm(idHamlet)); err != nil {
		t.Fatalf("a direct message to an accessible user: %v", err)
	}
	wantCode(t, errOf(polonius.UserByEmail(bg, "user11@zulipdev.com", UserViewOptions{})), CodeBadRequest, "Insufficient permission")
	if _, err := r.As(idIago).User(bg, idPolonius, UserViewOptions{}); err != nil {
		t.Fatalf("members access guests: %v", err)
	}

	list, err := polonius.Users(bg, UserListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int, len(list))
	for i, u := range list {
		ids[i] = u.UserID
	}
	if !slices.Contains(ids, idHamlet) || !slices.Contains(ids, idPolonius) || !slices.Contains(ids, idDefaultBot) || slices.Contains(ids, idIago) {
		t.Fatalf("GET /users of the guest: %v", ids)
	}

	// A direct-message conversation gives access too: a group one, and a
	// 1:1 one (TestOneToOneMessageGivesAccessAtEveryLevel).
	if _, err := r.As(idIago).SendMessage(bg, SendRequest{Type: "direct", To: message.To{UserIDs: []int{idPolonius, idHamlet}}, Content: "hi"}); err != nil {
		t.Fatal(err)
	}
	if _, err := polonius.User(bg, idIago, UserViewOptions{}); err != nil {
		t.Fatalf("a group conversation gives access: %v", err)
	}
	wantCode(t, errOf(polonius.User(bg, idOthello, UserViewOptions{})), CodeBadRequest, "Insufficient permission")
	if _, err := r.As(idOthello).SendMessage(bg, SendRequest{Type: "direct", To: message.To{UserIDs: []int{idPolonius}}, Content: "hi"}); err != nil {
		t.Fatal(err)
	}
	if _, err := polonius.User(bg, idOthello, UserViewOptions{}); err != nil {
		t.Fatalf("a 1:1 conversation gives access: %v", err)
	}

	// role:everyone lifts the restriction.
	r.UpdateSettings(func(s *Settings) { s.CanAccessAllUsersGroup = NamedGroupSetting(gidEveryone) })
	if _, err := polonius.User(bg, idOthello, UserViewOptions{}); err != nil {
		t.Fatalf("role:everyone: %v", err)
	}
}

func TestRegisterSendsUnknownUserPlaceholders(t *testing.T) {
	r := restrictedRealm(t, 496)
	users := realmUsersOf(t, r, idPolonius, ClientCapabilities{})
	iago, ok := users[idIago]
	if !ok {
		t.Fatal("no placeholder for Iago")
	}
	if iago.FullName != InaccessibleUserName || iago.Email != "user11@zulipdev.com" || iago.Timezone != "" ||
		iago.AvatarURL == nil || *iago.AvatarURL != inaccessibleUserAvatar || iago.IsAdmin ||
		iago.DeliveryEmail != nil || iago.DateJoined != "1970-01-01T00:00:00+00:00" || !iago.IsActive || iago.Role != 400 {
		t.Fatalf("placeholder %+v", iago)
	}
	if users[idHamlet].FullName != "King Hamlet" {
		t.Fatalf("Hamlet %+v", users[idHamlet])
	}
	// Members see everyone as they are.
	if realmUsersOf(t, r, idHamlet, ClientCapabilities{})[idIago].FullName == InaccessibleUserName {
		t.Fatal("a member got a placeholder")
	}
}

// Below 228 everyone heard of every user's status and profile changes,
// and a guest was not told when subscriptions gave or took its access to
// a user.
func TestGuestAccessEventsFollowFeatureLevel(t *testing.T) {
	for _, level := range []int{changeGuestAccessEvents.Level() - 1, changeGuestAccessEvents.Level()} {
		t.Run(itoa(level), func(t *testing.T) {
			has := level >= changeGuestAccessEvents.Level()
			r := restrictedRealm(t, level)
			q := mustQueue(t, r, idPolonius, QueueOptions{EventTypes: []string{"presence", "user_status", "realm_user"}})
			for _, id := range []int{idIago, idHamlet} {
				a := r.As(id)
				if err := a.UpdateStatus(bg, StatusUpdate{StatusText: str("busy")}); err != nil {
					t.Fatal(err)
				}
				if _, err := a.UpdatePresence(bg, PresenceRequest{Status: PresenceActive, PingOnly: true}); err != nil {
					t.Fatal(err)
				}
				if err := a.UpdateSettings(bg, SettingsUpdate{FullName: str("Renamed " + itoa(id))}); err != nil {
					t.Fatal(err)
				}
			}
			about := map[int][]string{}
			for _, ev := range pending(t, r, idPolonius, q, -1) {
				j := eventJSON(t, ev)
				id := j["user_id"]
				if p, ok := j["person"].(map[string]any); ok {
					id = p["user_id"]
				}
				if ps, ok := j["presences"].(map[string]any); ok {
					for k := range ps {
						id = float64(atoiT(t, k))
					}
				}
				about[int(id.(float64))] = append(about[int(id.(float64))], ev.Type)
			}
			if len(about[idHamlet]) != 3 {
				t.Fatalf("events about Hamlet %v, want 3", about[idHamlet])
			}
			// Presence reaches everyone at every level (the server-level
			// CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE is off).
			want := []string{"user_status", "presence", "realm_user"}
			if has {
				want = []string{"presence"}
			}
			if !slices.Equal(about[idIago], want) {
				t.Fatalf("events about Iago %v, want %v", about[idIago], want)
			}

			last := -1
			if evs := pending(t, r, idPolonius, q, -1); len(evs) > 0 {
				last = evs[len(evs)-1].ID
			}
			// Othello writes to the guest, who hears of him.
			if _, err := r.As(idOthello).SendMessage(bg, SendRequest{Type: "direct", To: message.To{UserIDs: []int{idPolonius}}, Content: "hi"}); err != nil {
				t.Fatal(err)
			}
			evs := pending(t, r, idPolonius, q, last)
			if !has && len(evs) != 0 {
				t.Fatalf("below %d: %v", changeGuestAccessEvents.Level(), evs)
			}
			if has {
				if len(evs) != 1 || eventJSON(t, evs[0])["person"].(map[string]any)["full_name"] != "Othello, the Moor of Venice" {
					t.Fatalf("a direct message from an unknown user: %v", evs)
				}
				last = evs[0].ID
			}

			// Iago joins the guest's channel, then leaves it.
			sub := SubscribeRequest{Channels: []ChannelSpec{{Name: "guests"}}, Principals: Principals{IDs: []int{idIago}}}
			if _, err := r.As(idIago).Subscribe(bg, sub); err != nil {
				t.Fatal(err)
			}
			evs = pending(t, r, idPolonius, q, last)
			if !has {
				if len(evs) != 0 {
					t.Fatalf("below %d: %v", changeGuestAccessEvents.Level(), evs)
				}
			} else {
				if len(evs) != 1 || eventJSON(t, evs[0])["op"] != "add" {
					t.Fatalf("gaining access: %v", evs)
				}
				p := eventJSON(t, evs[0])["person"].(map[string]any)
				if p["user_id"] != float64(idIago) || p["full_name"] != "Renamed 11" {
					t.Fatalf("realm_user add %v", p)
				}
				last = evs[0].ID
			}
			if _, err := r.As(idIago).User(bg, idPolonius, UserViewOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, err := r.As(idIago).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"guests"}}); err != nil {
				t.Fatal(err)
			}
			evs = pending(t, r, idPolonius, q, last)
			if !has {
				if len(evs) != 0 {
					t.Fatalf("below %d: %v", changeGuestAccessEvents.Level(), evs)
				}
				return
			}
			if len(evs) != 1 {
				t.Fatalf("losing access: %v", evs)
			}
			j := eventJSON(t, evs[0])
			p := j["person"].(map[string]any)
			if j["op"] != "remove" || p["user_id"] != float64(idIago) || p["full_name"] != InaccessibleUserName {
				t.Fatalf("realm_user remove %v", j)
			}
		})
	}
}

// Below 232 no client could decline the placeholders: a restricted
// guest's register lists every user and hears of every new one.
func TestUserListIncompleteFollowsFeatureLevel(t *testing.T) {
	for _, level := range []int{changeUserListIncompleteCapability.Level() - 1, changeUserListIncompleteCapability.Level()} {
		t.Run(itoa(level), func(t *testing.T) {
			has := level >= changeUserListIncompleteCapability.Level()
			r := restrictedRealm(t, level)
			caps := ClientCapabilities{UserListIncomplete: true}
			_, listed := realmUsersOf(t, r, idPolonius, caps)[idIago]
			if listed == has {
				t.Fatalf("Iago listed %v with user_list_incomplete", listed)
			}
			if _, ok := realmUsersOf(t, r, idPolonius, ClientCapabilities{})[idIago]; !ok {
				t.Fatal("no placeholder without the capability")
			}
			incomplete := mustQueue(t, r, idPolonius, QueueOptions{EventTypes: []string{"realm_user"}, Capabilities: caps})
			complete := mustQueue(t, r, idPolonius, QueueOptions{EventTypes: []string{"realm_user"}})
			if _, err := r.AddUser(NewUser{Email: "newcomer@zulip.com", FullName: "Newcomer"}); err != nil {
				t.Fatal(err)
			}
			evs := pending(t, r, idPolonius, complete, -1)
			if len(evs) != 1 || eventJSON(t, evs[0])["person"].(map[string]any)["full_name"] != InaccessibleUserName {
				t.Fatalf("without the capability: %v", evs)
			}
			if n := len(pending(t, r, idPolonius, incomplete, -1)); n != map[bool]int{false: 1, true: 0}[has] {
				t.Fatalf("with the capability: %d events", n)
			}
		})
	}
}

func atoiT(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a number: %q", s)
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// A deactivation reaches a restricted guest by its access: a guest that
// shared only a channel with the user loses access (realm_user remove),
// and from 303 one without access hears the user leave its groups.
func TestGuestDeactivationEventsFollowFeatureLevel(t *testing.T) {
	c := changeGuestDeactivationGroupEvents
	for _, level := range []int{c.Level() - 1, c.Level()} {
		t.Run(itoa(level), func(t *testing.T) {
			has := level >= c.Level()
			r := restrictedRealm(t, level)
			q := mustQueue(t, r, idPolonius, QueueOptions{EventTypes: []string{"realm_user", "user_group"}})
			if err := r.As(idIago).DeactivateUser(bg, idOthello); err != nil {
				t.Fatal(err)
			}
			evs := pending(t, r, idPolonius, q, -1)
			for _, ev := range evs {
				j := eventJSON(t, ev)
				if ev.Type != "user_group" || j["op"] != "remove_members" || j["user_ids"].([]any)[0] != float64(idOthello) {
					t.Fatalf("deactivating an inaccessible user: %v", j)
				}
			}
			if (len(evs) > 0) != has {
				t.Fatalf("deactivating an inaccessible user: %d user_group events", len(evs))
			}
			last := -1
			if len(evs) > 0 {
				last = evs[len(evs)-1].ID
			}
			if err := r.As(idIago).DeactivateUser(bg, idHamlet); err != nil {
				t.Fatal(err)
			}
			var removed bool
			for _, ev := range pending(t, r, idPolonius, q, last) {
				j := eventJSON(t, ev)
				if ev.Type == "realm_user" {
					if j["op"] != "remove" || j["person"].(map[string]any)["user_id"] != float64(idHamlet) {
						t.Fatalf("deactivating a channel peer: %v", j)
					}
					removed = true
				}
			}
			if !removed {
				t.Fatal("no realm_user remove for a channel peer's deactivation")
			}
			// Members hear the deactivation as before.
			st, err := r.As(idCordelia).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm_user"}})
			if err != nil {
				t.Fatal(err)
			}
			if slices.ContainsFunc(st.RealmUserState.RealmUsers, func(u User) bool { return u.UserID == idHamlet }) {
				t.Fatal("Hamlet still active")
			}
		})
	}
}

// A message's sender the viewer may not access is "Unknown user", in
// the message event and in GET /messages; others see the sender.
func TestInaccessibleSenderIsUnknownUser(t *testing.T) {
	r := restrictedRealm(t, 496)
	guest := mustQueue(t, r, idPolonius, QueueOptions{EventTypes: []string{"message"}})
	member := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"message"}})
	id := send(t, r, idOthello, "guests", "hello", "from outside")
	sender := func(evs []Event) map[string]any {
		t.Helper()
		if len(evs) != 1 {
			t.Fatalf("events %v", evs)
		}
		return eventJSON(t, evs[0])["message"].(map[string]any)
	}
	if m := sender(pending(t, r, idPolonius, guest, -1)); m["sender_full_name"] != InaccessibleUserName ||
		m["sender_email"] != "user12@zulipdev.com" || m["avatar_url"] != inaccessibleUserAvatar || m["sender_id"] != float64(idOthello) {
		t.Fatalf("the guest's message event: %v", m)
	}
	if m := sender(pending(t, r, idHamlet, member, -1)); m["sender_full_name"] != "Othello, the Moor of Venice" {
		t.Fatalf("the member's message event: %v", m)
	}
	res, err := r.As(idPolonius).Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 5,
		Narrow: []message.Term{{Operator: "channel", Operand: "guests"}}})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(res.Messages, func(m Message) bool { return int64(m.ID) == id })
	if i < 0 || res.Messages[i].SenderFullName != InaccessibleUserName {
		t.Fatalf("GET /messages: %+v", res.Messages)
	}
	// Once they share a channel, the sender is known again.
	if _, err := r.As(idOthello).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "guests"}}}); err != nil {
		t.Fatal(err)
	}
	res, _ = r.As(idPolonius).Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 5,
		Narrow: []message.Term{{Operator: "channel", Operand: "guests"}}})
	if i := slices.IndexFunc(res.Messages, func(m Message) bool { return int64(m.ID) == id }); i < 0 || res.Messages[i].SenderFullName != "Othello, the Moor of Venice" {
		t.Fatalf("GET /messages after subscribing: %+v", res.Messages)
	}
}

// A 1:1 direct message from a user a restricted guest could not access
// gives the guest access at every level (Zulip counted the 1:1 messages
// exchanged; level 327 changed only their recipient_id), and from 228 the
// guest hears of the sender once, with a realm_user add.
func TestOneToOneMessageGivesAccessAtEveryLevel(t *testing.T) {
	for _, level := range []int{changeGuestAccessEvents.Level() - 1, changeGuestAccessEvents.Level(),
		changeDMPairRecipient.Level() - 1, changeDMPairRecipient.Level()} {
		t.Run(itoa(level), func(t *testing.T) {
			r := restrictedRealm(t, level)
			q := mustQueue(t, r, idPolonius, QueueOptions{EventTypes: []string{"realm_user"}})
			polonius := r.As(idPolonius)
			wantCode(t, errOf(polonius.User(bg, idOthello, UserViewOptions{})), CodeBadRequest, "Insufficient permission")
			dm := SendRequest{Type: "direct", To: message.To{UserIDs: []int{idPolonius}}, Content: "hi"}
			for range 2 {
				if _, err := r.As(idOthello).SendMessage(bg, dm); err != nil {
					t.Fatal(err)
				}
			}
			var adds []int
			for _, ev := range pending(t, r, idPolonius, q, -1) {
				if j := eventJSON(t, ev); j["op"] == "add" {
					adds = append(adds, int(j["person"].(map[string]any)["user_id"].(float64)))
				}
			}
			want := []int{idOthello}
			if level < changeGuestAccessEvents.Level() {
				want = nil
			}
			if !slices.Equal(adds, want) {
				t.Fatalf("realm_user add events about %v, want %v", adds, want)
			}
			if u, err := polonius.User(bg, idOthello, UserViewOptions{}); err != nil || u.FullName != "Othello, the Moor of Venice" {
				t.Fatalf("after the 1:1 message: %+v %v", u, err)
			}
			if _, err := polonius.SendMessage(bg, SendRequest{Type: "direct", To: message.To{UserIDs: []int{idOthello}}, Content: "hello"}); err != nil {
				t.Fatalf("the guest answers: %v", err)
			}
			if _, ok := realmUsersOf(t, r, idPolonius, ClientCapabilities{UserListIncomplete: true})[idOthello]; !ok {
				t.Fatal("register leaves out the user the guest exchanged messages with")
			}
		})
	}
}

// The per-user reads answer a restricted guest as Zulip's
// access_user_by_id does: "Insufficient permission" for a user it may not
// access; presence stays open (Zulip limits it only under a server-level
// setting, off by default).
func TestPerUserReadsCheckAccess(t *testing.T) {
	r := restrictedRealm(t, 496)
	polonius := r.As(idPolonius)
	verona := channelID(t, r, "Verona")
	guests := channelID(t, r, "guests")
	if err := r.As(idIago).UpdateStatus(bg, StatusUpdate{StatusText: str("busy")}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idIago).UpdatePresence(bg, PresenceRequest{Status: PresenceActive, PingOnly: true}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, errOf(polonius.UserStatus(bg, idIago)), CodeBadRequest, "Insufficient permission")
	wantCode(t, errOf(polonius.IsSubscribed(bg, idIago, guests)), CodeBadRequest, "Insufficient permission")
	wantCode(t, errOf(polonius.User(bg, idIago, UserViewOptions{})), CodeBadRequest, "Insufficient permission")
	wantCode(t, errOf(polonius.UserByEmail(bg, "user11@zulipdev.com", UserViewOptions{})), CodeBadRequest, "Insufficient permission")
	if _, err := polonius.UserPresence(bg, "11"); err != nil {
		t.Fatalf("presence: %v", err)
	}
	// Bots and deactivated users keep Zulip's earlier answers.
	wantCode(t, errOf(polonius.UserStatus(bg, idDefaultBot)), CodeBadRequest, "No such user")
	if _, err := polonius.UserStatus(bg, idHamlet); err != nil {
		t.Fatalf("an accessible user's status: %v", err)
	}
	if ok, err := polonius.IsSubscribed(bg, idHamlet, guests); err != nil || !ok {
		t.Fatalf("an accessible user's subscription: %v %v", ok, err)
	}
	// Everyone else reads Iago as before.
	if st, err := r.As(idHamlet).UserStatus(bg, idIago); err != nil || st.StatusText != "busy" {
		t.Fatalf("a member reads the status: %+v %v", st, err)
	}
	if _, err := r.As(idHamlet).IsSubscribed(bg, idIago, verona); err != nil {
		t.Fatal(err)
	}
	r.UpdateSettings(func(s *Settings) { s.CanAccessAllUsersGroup = NamedGroupSetting(gidEveryone) })
	if _, err := polonius.UserStatus(bg, idIago); err != nil {
		t.Fatalf("role:everyone: %v", err)
	}
}

// A restricted guest's mention of a user it may not access stays plain
// text, as Zulip's mention lookup leaves such users out for the sender;
// accessible users are mentioned as usual, and others' mentions of the
// same user are unaffected.
func TestGuestCannotMentionInaccessibleUsers(t *testing.T) {
	r := restrictedRealm(t, 496)
	content := "@**Iago** @**King Hamlet** @_**Iago** @**Iago|11**"
	id := send(t, r, idPolonius, "guests", "t", content)
	m, _ := r.messages.store.Message(id)
	if strings.Contains(m.Rendered, `data-user-id="11"`) || !strings.Contains(m.Rendered, `data-user-id="`+itoa(idHamlet)+`"`) {
		t.Fatalf("the guest's mentions rendered %s", m.Rendered)
	}
	if !strings.Contains(r.renderAs(r.users.byID[idOthello], content).HTML, `data-user-id="11"`) {
		t.Fatal("a member's mention of Iago is not rendered")
	}
}

// Reactions (their user object below level 328) and a direct message's
// display_recipient keep the real names of users a restricted guest may
// not access: Zulip's ReactionDict and display_recipient are built
// without the viewer, only the sender gets MessageDict's placeholder.
func TestReactionsAndRecipientsKeepRealNames(t *testing.T) {
	r := restrictedRealm(t, changeReactionUserRemoved.Level()-1)
	id := send(t, r, idHamlet, "guests", "t", "react")
	if err := r.As(idOthello).AddReaction(bg, ReactionRequest{MessageID: id, EmojiName: str("smile")}); err != nil {
		t.Fatal(err)
	}
	if _, err := polonius(r).User(bg, idOthello, UserViewOptions{}); err == nil {
		t.Fatal("the guest accesses Othello")
	}
	m, _, err := polonius(r).Message(bg, id, ViewOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Reactions) != 1 || m.Reactions[0].User == nil || m.Reactions[0].User.FullName != "Othello, the Moor of Venice" {
		t.Fatalf("reactions %+v", m.Reactions)
	}
	// A deactivated member of the guest's group conversation is no longer
	// accessible, yet named in its display_recipient.
	res, err := r.As(idIago).SendMessage(bg, SendRequest{Type: "direct", To: message.To{UserIDs: []int{idPolonius, idHamlet}}, Content: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.As(idDesdemona).DeactivateUser(bg, idIago); err != nil {
		t.Fatal(err)
	}
	if _, err := polonius(r).User(bg, idIago, UserViewOptions{}); err == nil {
		t.Fatal("the guest accesses deactivated Iago")
	}
	m, _, err = polonius(r).Message(bg, res.ID, ViewOptions{})
	if err != nil {
		t.Fatal(err)
	}
	users, _ := m.DisplayRecipient.([]DisplayRecipientUser)
	if !slices.ContainsFunc(users, func(u DisplayRecipientUser) bool { return u.ID == idIago && u.FullName == "Iago" }) {
		t.Fatalf("display_recipient %+v", m.DisplayRecipient)
	}
}

func polonius(r *Realm) *Actor { return r.As(idPolonius) }
