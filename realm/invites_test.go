package realm

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/user"
)

// expiring is an InviteRequest for emails lasting minutes.
func expiring(emails string, minutes int, streamIDs ...int) InviteRequest {
	return InviteRequest{InviteeEmails: emails, ExpiresInMinutes: &minutes, StreamIDs: streamIDs, NotifyReferrerOnJoin: true}
}

func mustInvites(t *testing.T, r *Realm, userID int) []Invite {
	t.Helper()
	list, err := r.As(userID).Invites(bg)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// inviteTargets lists the addresses (or "link") of a listing.
func inviteTargets(list []Invite) []string {
	out := []string{}
	for _, inv := range list {
		if inv.IsMultiuse {
			out = append(out, "link")
		} else {
			out = append(out, inv.Email)
		}
	}
	return out
}

func TestSendInvitesAndList(t *testing.T) {
	r, _ := newTestRealm(t)
	verona := r.channels.byName["verona"].ID
	req := expiring("new1@zulip.com\n Friend <new2@zulip.com> , new1@zulip.com", 60, verona)
	if err := r.As(idHamlet).SendInvites(bg, req); err != nil {
		t.Fatal(err)
	}
	list := mustInvites(t, r, idHamlet)
	now := r.Now().Unix()
	exp := now + 3600
	notify := true
	want := []Invite{
		{ID: 1, InvitedByUserID: idHamlet, Invited: now, ExpiryDate: &exp, InvitedAs: 400, Email: "new1@zulip.com", NotifyReferrer: &notify},
		{ID: 2, InvitedByUserID: idHamlet, Invited: now, ExpiryDate: &exp, InvitedAs: 400, Email: "new2@zulip.com", NotifyReferrer: &notify},
	}
	if diff := cmp.Diff(want, list); diff != "" {
		t.Fatalf("invites (-want +got):\n%s", diff)
	}
	// The invitations were "mailed".
	var mailed []string
	for _, m := range r.Outbox() {
		if m.Template == InviteTemplate && m.UserID == idHamlet {
			mailed = append(mailed, m.To)
		}
	}
	if !cmp.Equal(mailed, []string{"new1@zulip.com", "new2@zulip.com"}) {
		t.Fatalf("outbox %v", mailed)
	}
	// Othello (a member) sees none of hamlet's; iago (an admin) sees them all.
	if l := mustInvites(t, r, idOthello); len(l) != 0 {
		t.Fatalf("othello sees %v", l)
	}
	if err := r.As(idOthello).SendInvites(bg, expiring("new3@zulip.com", 60)); err != nil {
		t.Fatal(err)
	}
	if got := inviteTargets(mustInvites(t, r, idIago)); !cmp.Equal(got, []string{"new1@zulip.com", "new2@zulip.com", "new3@zulip.com"}) {
		t.Fatalf("iago sees %v", got)
	}
	if got := inviteTargets(mustInvites(t, r, idOthello)); !cmp.Equal(got, []string{"new3@zulip.com"}) {
		t.Fatalf("othello sees %v", got)
	}
}

func TestInviteLinks(t *testing.T) {
	r, _ := newTestRealm(t)
	link, err := r.As(idIago).CreateInviteLink(bg, InviteRequest{InviteAs: user.RoleGuest, IncludeRealmDefaultSubscriptions: true})
	if err != nil {
		t.Fatal(err)
	}
	key := strings.TrimSuffix(strings.TrimPrefix(link, r.opts.URL+"/join/"), "/")
	if len(key) != 24 || strings.ToLower(key) != key || !strings.HasSuffix(link, "/") {
		t.Fatalf("link %q", link)
	}
	if err := r.As(idIago).SendInvites(bg, expiring("new@zulip.com", 60)); err != nil {
		t.Fatal(err)
	}
	list := mustInvites(t, r, idIago)
	// Email invitations come first; a link has its URL, no email, no
	// notify_referrer_on_join, and never expires when asked so.
	want := Invite{ID: 1, InvitedByUserID: idIago, Invited: r.Now().Unix(), InvitedAs: 600, LinkURL: link, IsMultiuse: true}
	if len(list) != 2 || list[0].IsMultiuse || !cmp.Equal(list[1], want) {
		t.Fatalf("invites %+v", list)
	}
	// Desdemona (an administrator too) sees the link; hamlet does not.
	if got := inviteTargets(mustInvites(t, r, idDesdemona)); !cmp.Equal(got, []string{"new@zulip.com", "link"}) {
		t.Fatalf("desdemona sees %v", got)
	}
	if got := mustInvites(t, r, idHamlet); len(got) != 0 {
		t.Fatalf("hamlet sees %v", got)
	}
	// Revoking: once.
	if err := r.As(idIago).RevokeInviteLink(bg, 1); err != nil {
		t.Fatal(err)
	}
	wantCode(t, r.As(idIago).RevokeInviteLink(bg, 1), CodeBadRequest, "Invitation has already been revoked")
	wantCode(t, r.As(idIago).RevokeInviteLink(bg, 2), CodeBadRequest, "No such invitation")
	if got := inviteTargets(mustInvites(t, r, idIago)); !cmp.Equal(got, []string{"new@zulip.com"}) {
		t.Fatalf("after revoking, iago sees %v", got)
	}
	// Link and email IDs are numbered apart: email invitation 1 is no link.
	if _, err := r.As(idIago).CreateInviteLink(bg, InviteRequest{}); err != nil {
		t.Fatal(err)
	}
	if l := mustInvites(t, r, idIago); l[1].ID != 2 || l[1].InvitedAs != 400 || l[1].ExpiryDate != nil {
		t.Fatalf("second link %+v", l[1])
	}
}

// create_multiuse_invite_group decides who makes links (administrators
// by default); members of it manage their own links.
func TestInviteLinkPermissions(t *testing.T) {
	r, _ := newTestRealm(t)
	wantCode(t, errOf(r.As(idHamlet).CreateInviteLink(bg, InviteRequest{})), CodeBadRequest, "Insufficient permission")
	wantCode(t, errOf(r.As(idShiva).CreateInviteLink(bg, InviteRequest{})), CodeBadRequest, "Insufficient permission")
	r.UpdateSettings(func(s *Settings) { s.CreateMultiuseInviteGroup = NamedGroupSetting(gidMembers) })
	if _, err := r.As(idHamlet).CreateInviteLink(bg, InviteRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idIago).CreateInviteLink(bg, InviteRequest{}); err != nil {
		t.Fatal(err)
	}
	if got := inviteTargets(mustInvites(t, r, idHamlet)); len(got) != 1 {
		t.Fatalf("hamlet sees %v", got)
	}
	wantCode(t, r.As(idHamlet).RevokeInviteLink(bg, 2), CodeBadRequest, "Must be an organization administrator")
	if err := r.As(idHamlet).RevokeInviteLink(bg, 1); err != nil {
		t.Fatal(err)
	}
	// An owner's link inviting owners is for owners to revoke.
	if _, err := r.As(idDesdemona).CreateInviteLink(bg, InviteRequest{InviteAs: user.RoleOwner}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, r.As(idIago).RevokeInviteLink(bg, 3), CodeUnauthorizedPrincipal, "Must be an organization owner")
	if err := r.As(idIago).RevokeInviteLink(bg, 2); err != nil {
		t.Fatal(err)
	}
}

// Who may invite, as whom, to what: each refusal leaves no invitation.
func TestSendInvitesRefusals(t *testing.T) {
	r, _ := newTestRealm(t)
	verona, denmark := r.channels.byName["verona"].ID, r.channels.byName["denmark"].ID
	coreTeam := r.channels.byName["core team"].ID
	long := strings.Repeat("x", MaxWelcomeMessageCustomTextLength+1)
	hamletsGroup := r.groups.byName["hamletcharacters"].ID
	cases := []struct {
		name string
		who  int
		req  InviteRequest
		code Code
		msg  string
	}{
		{"guest", idPolonius, expiring("a@zulip.com", 60), CodeBadRequest, "Not allowed for guest users"},
		{"bot", idDefaultBot, expiring("a@zulip.com", 60), CodeBadRequest, "This endpoint does not accept bot requests."},
		{"bad role", idIago, InviteRequest{InviteeEmails: "a@zulip.com", InviteAs: 250}, CodeBadRequest, "Invalid invite_as"},
		{"member inviting a moderator", idHamlet, InviteRequest{InviteeEmails: "a@zulip.com", InviteAs: user.RoleModerator}, CodeBadRequest, "Must be an organization administrator"},
		{"moderator inviting an admin", idShiva, InviteRequest{InviteeEmails: "a@zulip.com", InviteAs: user.RoleAdmin}, CodeBadRequest, "Must be an organization administrator"},
		{"admin inviting an owner", idIago, InviteRequest{InviteeEmails: "a@zulip.com", InviteAs: user.RoleOwner}, CodeUnauthorizedPrincipal, "Must be an organization owner"},
		{"no emails", idHamlet, expiring("", 60), CodeBadRequest, "You must specify at least one email address."},
		{"unknown channel", idHamlet, expiring("a@zulip.com", 60, verona, 999), CodeBadRequest, "Invalid channel ID 999. No invites were sent."},
		{"private channel", idShiva, expiring("a@zulip.com", 60, coreTeam), CodeBadRequest, "Invalid channel ID " + strconv.Itoa(coreTeam) + ". No invites were sent."},
		{"unknown group", idHamlet, InviteRequest{InviteeEmails: "a@zulip.com", GroupIDs: []int{999}}, CodeBadRequest, "Invalid user group"},
		{"system group", idIago, InviteRequest{InviteeEmails: "a@zulip.com", GroupIDs: []int{gidMembers}}, CodeBadRequest, "Insufficient permission"},
		{"group not managed", idOthello, InviteRequest{InviteeEmails: "a@zulip.com", GroupIDs: []int{hamletsGroup}}, CodeBadRequest, "Insufficient permission"},
		{"welcome text by a member", idHamlet, InviteRequest{InviteeEmails: "a@zulip.com", WelcomeMessageCustomText: str("hi")}, CodeBadRequest, "Must be an organization administrator"},
		{"welcome text too long", idIago, InviteRequest{InviteeEmails: "a@zulip.com", WelcomeMessageCustomText: &long}, CodeBadRequest, "welcome_message_custom_text is too long (limit: 8000 characters)"},
		{"expiry past year 9999", idIago, InviteRequest{InviteeEmails: "a@zulip.com", ExpiresInMinutes: intPtr(1 << 40)}, CodeBadRequest, "Invalid invite_expires_in_minutes"},
	}
	for _, c := range cases {
		wantCode(t, r.As(c.who).SendInvites(bg, c.req), c.code, c.msg)
		if l := mustInvites(t, r, idIago); len(l) != 0 {
			t.Fatalf("%s: invites %v", c.name, l)
		}
	}
	// can_invite_users_group: members by default, here administrators.
	r.UpdateSettings(func(s *Settings) { s.CanInviteUsersGroup = NamedGroupSetting(gidAdministrators) })
	wantCode(t, r.As(idHamlet).SendInvites(bg, expiring("a@zulip.com", 60)), CodeBadRequest, "Insufficient permission")
	r.UpdateSettings(func(s *Settings) { s.CanInviteUsersGroup = NamedGroupSetting(gidMembers) })
	// Without can_add_subscribers_group, only default channels (Verona).
	r.UpdateSettings(func(s *Settings) { s.CanAddSubscribersGroup = NamedGroupSetting(gidAdministrators) })
	wantCode(t, r.As(idHamlet).SendInvites(bg, expiring("a@zulip.com", 60, verona, denmark)), CodeBadRequest,
		"You do not have permission to subscribe other users to channels.")
	if err := r.As(idHamlet).SendInvites(bg, expiring("a@zulip.com", 60, verona)); err != nil {
		t.Fatal(err)
	}
	// Archived channels are invalid.
	if err := r.As(idIago).ArchiveChannel(bg, denmark); err != nil {
		t.Fatal(err)
	}
	wantCode(t, r.As(idIago).SendInvites(bg, expiring("b@zulip.com", 60, denmark)), CodeBadRequest, "Invalid channel ID")
	// A group's manager may invite into it; an admin may send a welcome.
	wantCode(t, r.As(idIago).SendInvites(bg, InviteRequest{InviteeEmails: "c@zulip.com", GroupIDs: []int{hamletsGroup}}),
		CodeBadRequest, "Insufficient permission") // can_manage_all_groups is the owners'
	if err := r.As(idDesdemona).SendInvites(bg, InviteRequest{InviteeEmails: "c@zulip.com", GroupIDs: []int{hamletsGroup},
		WelcomeMessageCustomText: str("Welcome!"), InviteAs: user.RoleModerator}); err != nil {
		t.Fatal(err)
	}
	if l := mustInvites(t, r, idIago); len(l) != 2 || l[1].InvitedAs != 300 || l[1].ExpiryDate != nil {
		t.Fatalf("invites %+v", l)
	}
}

// Bad and taken addresses: Zulip's INVITATION_FAILED with each address's
// reason; an invalid one refuses all, taken ones are skipped.
func TestSendInvitesAddressErrors(t *testing.T) {
	r, _ := newTestRealm(t)
	if err := r.As(idIago).DeactivateUser(bg, idOthello); err != nil {
		t.Fatal(err)
	}
	failure := func(err error, msg string, sent bool, errs ...[]any) {
		t.Helper()
		e := wantCode(t, err, CodeInvitationFailed, msg)
		if e.Status != 400 || e.Extra["sent_invitations"] != sent || e.Extra["daily_limit_reached"] != false ||
			e.Extra["license_limit_reached"] != false {
			t.Fatalf("error %+v", e)
		}
		if diff := cmp.Diff(errs, e.Extra["errors"]); diff != "" {
			t.Fatalf("errors (-want +got):\n%s", diff)
		}
	}
	failure(r.As(idHamlet).SendInvites(bg, expiring("new@zulip.com, not-an-address, HAMLET@zulip.com", 60)),
		"Some emails did not validate, so we didn't send any invitations.", false,
		[]any{"not-an-address", "Invalid address.", false}, []any{"HAMLET@zulip.com", "Already has an account.", false})
	failure(r.As(idHamlet).SendInvites(bg, expiring("new@zulip.com,", 60)),
		"Some emails did not validate, so we didn't send any invitations.", false, []any{"", "Invalid address.", false})
	if l := mustInvites(t, r, idIago); len(l) != 0 {
		t.Fatalf("invites %v", l)
	}
	failure(r.As(idHamlet).SendInvites(bg, expiring("othello@zulip.com\nnotification-bot@zulip.com", 60)),
		"We weren't able to invite anyone.", false,
		[]any{"othello@zulip.com", "Account has been deactivated.", true},
		[]any{"notification-bot@zulip.com", "Reserved for system bots.", false})
	failure(r.As(idHamlet).SendInvites(bg, expiring("iago@zulip.com, new@zulip.com", 60)),
		"Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!", true,
		[]any{"iago@zulip.com", "Already has an account.", false})
	if got := inviteTargets(mustInvites(t, r, idIago)); !cmp.Equal(got, []string{"new@zulip.com"}) {
		t.Fatalf("invites %v", got)
	}
}

// Expiry follows the realm's clock; a null expiry never comes.
func TestInvitesExpire(t *testing.T) {
	r, clock := newTestRealm(t)
	if err := r.As(idIago).SendInvites(bg, expiring("soon@zulip.com", 60)); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).SendInvites(bg, InviteRequest{InviteeEmails: "never@zulip.com"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idIago).CreateInviteLink(bg, InviteRequest{ExpiresInMinutes: intPtr(30)}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(30 * time.Minute) // the link's last moment
	if got := inviteTargets(mustInvites(t, r, idIago)); !cmp.Equal(got, []string{"soon@zulip.com", "never@zulip.com", "link"}) {
		t.Fatalf("at 30 minutes: %v", got)
	}
	clock.Advance(time.Second)
	if got := inviteTargets(mustInvites(t, r, idIago)); !cmp.Equal(got, []string{"soon@zulip.com", "never@zulip.com"}) {
		t.Fatalf("after 30 minutes: %v", got)
	}
	clock.Advance(time.Hour)
	if got := inviteTargets(mustInvites(t, r, idIago)); !cmp.Equal(got, []string{"never@zulip.com"}) {
		t.Fatalf("after 90 minutes: %v", got)
	}
	// An expired invitation may still be revoked, as in Zulip.
	if err := r.As(idIago).RevokeInvite(bg, 1); err != nil {
		t.Fatal(err)
	}
}

func TestRevokeAndResendInvites(t *testing.T) {
	r, _ := newTestRealm(t)
	for _, who := range []int{idHamlet, idOthello} {
		if err := r.As(who).SendInvites(bg, expiring("for"+strconv.Itoa(who)+"@zulip.com", 60)); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.As(idDesdemona).SendInvites(bg, InviteRequest{InviteeEmails: "owner@zulip.com", InviteAs: user.RoleOwner}); err != nil {
		t.Fatal(err)
	}
	mails := len(r.Outbox())
	// Others' invitations are for administrators; owners' of owners for owners.
	for _, act := range []func(*Actor, int) error{
		func(a *Actor, id int) error { return a.RevokeInvite(bg, id) },
		func(a *Actor, id int) error { return a.ResendInvite(bg, id) },
	} {
		wantCode(t, act(r.As(idHamlet), 2), CodeBadRequest, "Must be an organization administrator")
		wantCode(t, act(r.As(idShiva), 2), CodeBadRequest, "Must be an organization administrator")
		wantCode(t, act(r.As(idIago), 3), CodeUnauthorizedPrincipal, "Must be an organization owner")
		wantCode(t, act(r.As(idIago), 99), CodeBadRequest, "No such invitation")
		wantCode(t, act(r.As(idPolonius), 1), CodeBadRequest, "Not allowed for guest users")
	}
	if len(r.Outbox()) != mails {
		t.Fatal("a refused resend mailed")
	}
	hq := mustQueue(t, r, idHamlet, QueueOptions{})
	if err := r.As(idHamlet).ResendInvite(bg, 1); err != nil {
		t.Fatal(err)
	}
	if out := r.Outbox(); len(out) != mails+1 || out[mails].To != "for10@zulip.com" || out[mails].Template != InviteTemplate {
		t.Fatalf("outbox %+v", out[mails:])
	}
	if evs := eventsOfType(t, r, idHamlet, hq, "invites_changed"); len(evs) != 0 {
		t.Fatalf("resend sent %v", evs)
	}
	if err := r.As(idHamlet).RevokeInvite(bg, 1); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).RevokeInvite(bg, 2); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idDesdemona).RevokeInvite(bg, 3); err != nil {
		t.Fatal(err)
	}
	if l := mustInvites(t, r, idDesdemona); len(l) != 0 {
		t.Fatalf("left %v", l)
	}
}

// invites_changed goes to the administrators and the invitation's author.
func TestInvitesChangedEvents(t *testing.T) {
	r, _ := newTestRealm(t)
	users := []int{idHamlet, idOthello, idIago, idDesdemona, idShiva}
	queues := map[int]*Queue{}
	for _, id := range users {
		queues[id] = mustQueue(t, r, id, QueueOptions{})
	}
	count := func() map[int]int {
		out := map[int]int{}
		for _, id := range users {
			for _, ev := range eventsOfType(t, r, id, queues[id], "invites_changed") {
				if len(ev) != 2 { // type and id only
					t.Fatalf("event %v", ev)
				}
				out[id]++
			}
		}
		return out
	}
	if err := r.As(idHamlet).SendInvites(bg, expiring("a@zulip.com, b@zulip.com", 60)); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).RevokeInvite(bg, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idIago).CreateInviteLink(bg, InviteRequest{}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idDesdemona).RevokeInviteLink(bg, 1); err != nil {
		t.Fatal(err)
	}
	want := map[int]int{idHamlet: 2, idIago: 4, idDesdemona: 4}
	if diff := cmp.Diff(want, count()); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	// A refusal sends nothing.
	wantCode(t, r.As(idHamlet).SendInvites(bg, expiring("bad", 60)), CodeInvitationFailed, "")
	if got := count(); !cmp.Equal(got, want) {
		t.Fatalf("after a refusal: %v", got)
	}
}

// Invitations are realm state: a snapshot keeps them as they were,
// Restore brings them back, a fork has its own.
func TestInvitesInSnapshots(t *testing.T) {
	r, _ := newTestRealm(t)
	if err := r.As(idIago).SendInvites(bg, expiring("a@zulip.com", 60, r.channels.byName["verona"].ID)); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idIago).CreateInviteLink(bg, InviteRequest{StreamIDs: []int{r.channels.byName["denmark"].ID}}); err != nil {
		t.Fatal(err)
	}
	want := mustInvites(t, r, idIago)
	snap := r.Snapshot()
	fork := r.Fork()
	for id, inv := range snap.state.invites.email {
		if inv == r.invites.email[id] || &inv.streamIDs[0] == &r.invites.email[id].streamIDs[0] {
			t.Fatal("the snapshot shares an invitation")
		}
	}
	if err := r.As(idIago).RevokeInvite(bg, 1); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).RevokeInviteLink(bg, 1); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).SendInvites(bg, expiring("b@zulip.com", 60)); err != nil {
		t.Fatal(err)
	}
	if got := mustInvites(t, fork, idIago); !cmp.Equal(got, want) {
		t.Fatalf("the fork changed: %v", got)
	}
	if err := r.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if got := mustInvites(t, r, idIago); !cmp.Equal(got, want) {
		t.Fatalf("restored: %v", got)
	}
	// Numbering goes on from the snapshot's.
	if err := r.As(idIago).SendInvites(bg, expiring("c@zulip.com", 60)); err != nil {
		t.Fatal(err)
	}
	if l := mustInvites(t, r, idIago); len(l) != 3 || l[1].ID != 2 {
		t.Fatalf("after restore %+v", l)
	}
	r.Reset()
	if l := mustInvites(t, r, idIago); len(l) != 0 {
		t.Fatalf("after reset %+v", l)
	}
}
