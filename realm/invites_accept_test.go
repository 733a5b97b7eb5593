package realm

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/user"
)

// lastInviteKey is the confirmation key of the newest invitation email to
// the address.
func lastInviteKey(t *testing.T, r *Realm, to string) string {
	t.Helper()
	out := r.Outbox()
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].Template == InviteTemplate && out[i].To == to {
			if len(out[i].ConfirmationKey) != 24 {
				t.Fatalf("key %q", out[i].ConfirmationKey)
			}
			return out[i].ConfirmationKey
		}
	}
	t.Fatalf("no invitation to %s in %+v", to, out)
	return ""
}

// newLinkKey makes an invitation link as Iago and returns its key.
func newLinkKey(t *testing.T, r *Realm, req InviteRequest) string {
	t.Helper()
	link, err := r.As(idIago).CreateInviteLink(bg, req)
	if err != nil {
		t.Fatal(err)
	}
	key := strings.TrimSuffix(link[strings.LastIndex(strings.TrimSuffix(link, "/"), "/")+1:], "/")
	if len(key) != 24 {
		t.Fatalf("link %q", link)
	}
	return key
}

// subscribedChannels lists the channels userID is subscribed to, by name.
func subscribedChannels(r *Realm, userID int) []string {
	var out []string
	for id, subs := range r.channels.subs {
		if s := subs[userID]; s != nil && s.Active {
			out = append(out, r.channels.byID[id].Name)
		}
	}
	slices.Sort(out)
	return out
}

// refusedAccept checks that accepting is refused with msg and that
// nothing changed: no new account, no event, no message.
func refusedAccept(t *testing.T, r *Realm, key string, s Signup, msg string) {
	t.Helper()
	users, outbox := len(r.users.byID), len(r.Outbox())
	q := mustQueue(t, r, idIago, QueueOptions{})
	_, err := r.AcceptInvitation(key, s)
	wantCode(t, err, CodeBadRequest, msg)
	if len(r.users.byID) != users || len(r.Outbox()) != outbox {
		t.Fatal("a refused signup changed the realm")
	}
	if evs := pending(t, r, idIago, q, -1); len(evs) != 0 {
		t.Fatalf("a refused signup sent events: %v", evs)
	}
}

func TestAcceptEmailInvite(t *testing.T) {
	r, _ := newTestRealm(t)
	denmark := r.channels.byName["denmark"].ID
	gid, err := r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "newcomers", Members: []int{idIago}})
	if err != nil {
		t.Fatal(err)
	}
	req := expiring("new@zulip.com", 60, denmark)
	req.InviteAs, req.GroupIDs = user.RoleModerator, []int{gid}
	if err := r.As(idIago).SendInvites(bg, req); err != nil {
		t.Fatal(err)
	}
	key := lastInviteKey(t, r, "new@zulip.com")
	queues := map[int]*Queue{}
	for _, id := range []int{idIago, idDesdemona, idHamlet, idOthello, idPolonius} {
		queues[id] = mustQueue(t, r, id, QueueOptions{})
	}

	id, err := r.AcceptInvitation(key, Signup{FullName: " New Person ", Password: "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	u := r.users.byID[id]
	if u.DeliveryEmail != "new@zulip.com" || u.FullName != "New Person" || u.Role != user.RoleModerator || !u.IsActive ||
		u.JoinsOnFirstLogin || u.DateJoined != r.Now().Unix() {
		t.Fatalf("account %+v", u)
	}
	if login, err := r.FetchAPIKey("new@zulip.com", "s3cret"); err != nil || login.UserID != id {
		t.Fatalf("password login %+v %v", login, err)
	}
	// Only the invitation's channel: it did not include the defaults.
	if got := subscribedChannels(r, id); !cmp.Equal(got, []string{"Denmark"}) {
		t.Fatalf("channels %v", got)
	}
	if _, in := r.groups.byID[gid].Members[id]; !in {
		t.Fatal("not in the invitation's group")
	}
	if _, in := r.groups.byName[group.Moderators].Members[id]; !in {
		t.Fatal("not in the moderators' group")
	}

	// Events, in Zulip's order, to a Denmark subscriber.
	var kinds []string
	for _, ev := range pending(t, r, idOthello, queues[idOthello], -1) {
		m := eventJSON(t, ev)
		switch ev.Type {
		case "realm_user":
			kinds = append(kinds, "realm_user "+m["op"].(string))
		case "user_group":
			kinds = append(kinds, "user_group add_members "+strconv.Itoa(int(m["group_id"].(float64))))
		case "subscription":
			kinds = append(kinds, "subscription "+m["op"].(string))
		default:
			kinds = append(kinds, ev.Type)
		}
	}
	want := []string{"realm_user add", "user_group add_members " + strconv.Itoa(r.groups.byName[group.Moderators].ID),
		"subscription peer_add", "user_group add_members " + strconv.Itoa(gid)}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Fatalf("othello's events (-want +got):\n%s", diff)
	}
	// Polonius (a guest, not in Denmark) hears of no peer_add.
	if evs := eventsOfType(t, r, idPolonius, queues[idPolonius], "subscription"); len(evs) != 0 {
		t.Fatalf("guest got %v", evs)
	}
	// invites_changed: the administrators and the author.
	for id, n := range map[int]int{idIago: 1, idDesdemona: 1, idHamlet: 0, idOthello: 0} {
		if got := len(eventsOfType(t, r, id, queues[id], "invites_changed")); got != n {
			t.Fatalf("user %d: %d invites_changed, want %d", id, got, n)
		}
	}
	// The author hears from Notification Bot.
	m, ok := r.LastMessage(bg, idIago)
	if !ok || m.SenderID != idNotificationBot || m.Type != "private" ||
		m.Content != "@_**New Person|"+strconv.Itoa(id)+"** accepted your invitation to join Zulip!" {
		t.Fatalf("notice %+v", m)
	}
	// The invitation is used: no longer listed, and not usable again.
	if l := mustInvites(t, r, idIago); len(l) != 0 {
		t.Fatalf("still listed: %v", l)
	}
	refusedAccept(t, r, key, Signup{FullName: "Again"}, msgLinkExpired)
}

func TestAcceptInviteLinkTwice(t *testing.T) {
	r, _ := newTestRealm(t)
	key := newLinkKey(t, r, InviteRequest{InviteAs: user.RoleGuest, IncludeRealmDefaultSubscriptions: true,
		StreamIDs: []int{r.channels.byName["rome"].ID}})
	iq := mustQueue(t, r, idIago, QueueOptions{})
	before, _ := r.LastMessage(bg, idIago)
	var ids []int
	for _, email := range []string{"one@zulip.com", "two@zulip.com"} {
		id, err := r.AcceptInvitation(key, Signup{FullName: "Guest " + email[:3], Email: email})
		if err != nil {
			t.Fatal(err)
		}
		if u := r.users.byID[id]; u.DeliveryEmail != email || u.Role != user.RoleGuest || u.PasswordHash != "" {
			t.Fatalf("account %+v", u)
		}
		if got, want := subscribedChannels(r, id), []string{"Rome", "Verona", "design", "devel", "social", "support"}; !cmp.Equal(got, want) {
			t.Fatalf("channels %v", got)
		}
		ids = append(ids, id)
	}
	if ids[1] != ids[0]+1 {
		t.Fatalf("ids %v", ids)
	}
	// A link has no referrer: no notice, no invites_changed; it stays.
	if after, _ := r.LastMessage(bg, idIago); after.ID != before.ID {
		t.Fatalf("notice for a link: %+v", after)
	}
	if evs := eventsOfType(t, r, idIago, iq, "invites_changed"); len(evs) != 0 {
		t.Fatalf("invites_changed %v", evs)
	}
	if l := mustInvites(t, r, idIago); len(l) != 1 || !l[0].IsMultiuse {
		t.Fatalf("listing %v", l)
	}
	// A link needs an unused, valid address.
	refusedAccept(t, r, key, Signup{FullName: "Nobody"}, "Enter a valid email address.")
	refusedAccept(t, r, key, Signup{FullName: "Nobody", Email: "not-an-address"}, "Enter a valid email address.")
	refusedAccept(t, r, key, Signup{FullName: "Again", Email: "ONE@zulip.com"}, "Already has an account.")
	refusedAccept(t, r, key, Signup{FullName: "Bot", Email: "welcome-bot@zulip.com"}, "Reserved for system bots.")
	if err := r.As(idIago).DeactivateUser(bg, ids[1]); err != nil {
		t.Fatal(err)
	}
	refusedAccept(t, r, key, Signup{FullName: "Back", Email: "two@zulip.com"}, "Account has been deactivated.")
}

func TestAcceptInviteExpiredRevokedUnknown(t *testing.T) {
	r, clock := newTestRealm(t)
	if err := r.As(idIago).SendInvites(bg, expiring("late@zulip.com, gone@zulip.com", 60)); err != nil {
		t.Fatal(err)
	}
	late, gone := lastInviteKey(t, r, "late@zulip.com"), lastInviteKey(t, r, "gone@zulip.com")
	minutes := 30
	link := newLinkKey(t, r, InviteRequest{ExpiresInMinutes: &minutes})
	revokedLink := newLinkKey(t, r, InviteRequest{})
	if err := r.As(idIago).RevokeInvite(bg, 2); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).RevokeInviteLink(bg, 2); err != nil {
		t.Fatal(err)
	}
	s := Signup{FullName: "Late", Email: "late@zulip.com"}
	refusedAccept(t, r, gone, Signup{FullName: "Gone"}, msgLinkDoesNotExist)
	refusedAccept(t, r, revokedLink, s, msgLinkDoesNotExist)
	refusedAccept(t, r, "", s, msgLinkDoesNotExist)
	refusedAccept(t, r, "abcdefghijklmnopqrstuvwx", s, msgLinkDoesNotExist)
	// At its expiry an invitation still works; after, it does not.
	clock.Advance(30 * time.Minute)
	f := r.Fork()
	if _, err := f.AcceptInvitation(link, Signup{FullName: "Just in time", Email: "x@zulip.com"}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	refusedAccept(t, r, link, s, msgLinkExpired)
	clock.Advance(30 * time.Minute)
	refusedAccept(t, r, late, Signup{FullName: "Late"}, msgLinkExpired)
}

// Signing up uses every pending email invitation to the address, as
// Zulip revokes them; other addresses' stay.
func TestAcceptInviteDropsOtherInvites(t *testing.T) {
	r, _ := newTestRealm(t)
	if err := r.As(idHamlet).SendInvites(bg, expiring("dup@zulip.com, other@zulip.com", 60)); err != nil {
		t.Fatal(err)
	}
	hamletKey := lastInviteKey(t, r, "dup@zulip.com")
	if err := r.As(idIago).SendInvites(bg, expiring("DUP@zulip.com", 60)); err != nil {
		t.Fatal(err)
	}
	iagoKey := lastInviteKey(t, r, "DUP@zulip.com")
	if _, err := r.AcceptInvitation(iagoKey, Signup{FullName: "Dup"}); err != nil {
		t.Fatal(err)
	}
	if got := inviteTargets(mustInvites(t, r, idHamlet)); !cmp.Equal(got, []string{"other@zulip.com"}) {
		t.Fatalf("hamlet's invitations %v", got)
	}
	refusedAccept(t, r, hamletKey, Signup{FullName: "Dup"}, msgLinkExpired)
	// Signing up through a link drops the address's email invitations too.
	key := newLinkKey(t, r, InviteRequest{})
	if _, err := r.AcceptInvitation(key, Signup{FullName: "Other", Email: "Other@zulip.com"}); err != nil {
		t.Fatal(err)
	}
	if got := mustInvites(t, r, idHamlet); len(got) != 0 {
		t.Fatalf("hamlet's invitations %v", got)
	}
}

func TestAcceptInviteRules(t *testing.T) {
	r, _ := newTestRealm(t)
	req := expiring("rules@zulip.com", 60)
	req.NotifyReferrerOnJoin = false
	if err := r.As(idHamlet).SendInvites(bg, req); err != nil {
		t.Fatal(err)
	}
	key := lastInviteKey(t, r, "rules@zulip.com")
	link := newLinkKey(t, r, InviteRequest{})
	refusedAccept(t, r, key, Signup{FullName: "  "}, "Name too short!")
	refusedAccept(t, r, key, Signup{FullName: strings.Repeat("n", user.MaxFullNameLength+1)}, "Name too long!")
	refusedAccept(t, r, key, Signup{FullName: "Bad*Name"}, "Invalid characters in name!")
	refusedAccept(t, r, key, Signup{FullName: "Rules", Password: strings.Repeat("é", 101)},
		"Ensure this value has at most 100 characters (it has 101).")
	refusedAccept(t, r, key, Signup{FullName: "Rules", Email: "someone@zulip.com"},
		"This invitation is for rules@zulip.com, not someone@zulip.com")
	// The realm's email rules, as they are when the invitee signs up.
	r.UpdateSettings(func(s *Settings) { s.DisallowDisposableEmailAddresses = true })
	refusedAccept(t, r, link, Signup{FullName: "D", Email: "d@mailinator.com"}, "Please use your real email address.")
	r.UpdateSettings(func(s *Settings) { s.EmailsRestrictedToDomains = true })
	refusedAccept(t, r, link, Signup{FullName: "O", Email: "o@elsewhere.example"},
		"Your email address, o@elsewhere.example, is not in one of the domains that are allowed to register for accounts in this organization.")
	refusedAccept(t, r, link, Signup{FullName: "P", Email: "p+tag@zulip.com"},
		"Email addresses containing + are not allowed in this organization.")
	// The same address, differently cased, is the invitation's.
	before, _ := r.LastMessage(bg, idHamlet)
	id, err := r.AcceptInvitation(key, Signup{FullName: "Rules", Email: "RULES@zulip.com"})
	if err != nil {
		t.Fatal(err)
	}
	if r.users.byID[id].DeliveryEmail != "rules@zulip.com" {
		t.Fatalf("email %q", r.users.byID[id].DeliveryEmail)
	}
	// notify_referrer_on_join false: no notice.
	if after, _ := r.LastMessage(bg, idHamlet); after.ID != before.ID {
		t.Fatalf("notice %+v", after)
	}
}

// A deactivated author's invitation expired with the deactivation (as
// Zulip's revoke_invites_generated_by_user does), so it neither signs up
// nor notifies anyone.
func TestAcceptInviteInactiveReferrer(t *testing.T) {
	r, _ := newTestRealm(t)
	if err := r.As(idHamlet).SendInvites(bg, expiring("orphan@zulip.com", 60)); err != nil {
		t.Fatal(err)
	}
	key := lastInviteKey(t, r, "orphan@zulip.com")
	if err := r.As(idIago).DeactivateUser(bg, idHamlet); err != nil {
		t.Fatal(err)
	}
	n := r.messages.store.Len()
	_, err := r.AcceptInvitation(key, Signup{FullName: "Orphan"})
	wantCode(t, err, CodeBadRequest, msgLinkExpired)
	if r.messages.store.Len() != n {
		t.Fatal("a notice went to a deactivated author")
	}
}

// Confirm takes an email change's key or an invitation's.
func TestConfirmDispatches(t *testing.T) {
	r, _ := newTestRealm(t)
	if err := r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Email: str("prince@zulip.com")}); err != nil {
		t.Fatal(err)
	}
	changeKey := r.Outbox()[0].ConfirmationKey
	if err := r.As(idIago).SendInvites(bg, expiring("c@zulip.com", 60)); err != nil {
		t.Fatal(err)
	}
	inviteKey := lastInviteKey(t, r, "c@zulip.com")
	got, err := r.Confirm(changeKey, Signup{})
	if err != nil || got != (Confirmed{Kind: "email_change", UserID: idHamlet, Email: "prince@zulip.com"}) {
		t.Fatalf("%+v %v", got, err)
	}
	got, err = r.Confirm(inviteKey, Signup{FullName: "Cee"})
	if err != nil || got.Kind != "invitation" || got.Email != "c@zulip.com" || got.APIKey != r.users.byID[got.UserID].APIKey {
		t.Fatalf("%+v %v", got, err)
	}
	for _, key := range []string{changeKey, inviteKey, "nope"} {
		if _, err := r.Confirm(key, Signup{FullName: "Cee"}); err == nil {
			t.Fatalf("%s confirmed twice", key)
		}
	}
}

// Accepting is realm state: restoring a snapshot taken before brings the
// invitation back, unused.
func TestAcceptInviteSnapshot(t *testing.T) {
	r, _ := newTestRealm(t)
	if err := r.As(idIago).SendInvites(bg, expiring("snap@zulip.com", 60)); err != nil {
		t.Fatal(err)
	}
	key := lastInviteKey(t, r, "snap@zulip.com")
	snap := r.Snapshot()
	fork := r.Fork()
	id, err := r.AcceptInvitation(key, Signup{FullName: "Snap"})
	if err != nil {
		t.Fatal(err)
	}
	if l := mustInvites(t, fork, idIago); len(l) != 1 {
		t.Fatalf("the fork saw the signup: %v", l)
	}
	if err := r.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if r.users.byID[id] != nil || len(mustInvites(t, r, idIago)) != 1 {
		t.Fatal("restore kept the signup")
	}
	if _, err := r.AcceptInvitation(key, Signup{FullName: "Snap"}); err != nil {
		t.Fatal(err)
	}
	r.ClearOutbox()
	if len(r.Outbox()) != 0 {
		t.Fatal("outbox not cleared")
	}
}

// A signup through a reusable link records the link, not a referrer, as
// Zulip does: its signup view makes the PreregistrationUser with
// multiuse_invite set and referred_by unset (zerver/views/auth.py
// create_preregistration_user, zerver/views/registration.py
// prepare_activation_url), so process_new_human_user
// (zerver/actions/create_user.py) sends no "accepted your invitation"
// message and no invites_changed, even to someone whose pending email
// invitation to the same address the signup uses up; the link's author
// (MultiuseInvite.referred_by) stays its invited_by_user_id.
func TestLinkSignupHasNoReferrer(t *testing.T) {
	r, _ := newTestRealm(t)
	if err := r.As(idHamlet).SendInvites(bg, expiring("linked@zulip.com", 60)); err != nil {
		t.Fatal(err)
	}
	key := newLinkKey(t, r, InviteRequest{})
	queues := map[int]*Queue{}
	last := map[int]int64{}
	for _, id := range []int{idHamlet, idIago} {
		queues[id] = mustQueue(t, r, id, QueueOptions{})
		m, _ := r.LastMessage(bg, id)
		last[id] = m.ID
	}
	if _, err := r.AcceptInvitation(key, Signup{FullName: "Linked", Email: "linked@zulip.com"}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []int{idHamlet, idIago} {
		if m, _ := r.LastMessage(bg, id); m.ID != last[id] {
			t.Errorf("user %d got %q", id, m.Content)
		}
		if evs := eventsOfType(t, r, id, queues[id], "invites_changed"); len(evs) != 0 {
			t.Errorf("user %d: invites_changed %v", id, evs)
		}
	}
	if got := mustInvites(t, r, idHamlet); len(got) != 0 {
		t.Fatalf("hamlet's invitation survived: %v", got)
	}
	if l := mustInvites(t, r, idIago); len(l) != 1 || !l[0].IsMultiuse || l[0].InvitedByUserID != idIago {
		t.Fatalf("link %+v", l)
	}
}
