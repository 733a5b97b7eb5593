package realm

import (
	"testing"
)

// A revoked email invitation is gone: resending or revoking it again
// answers "No such invitation", as zerver/tests/test_invite.py expects
// of a second DELETE /invites/{id}; a revoked link answers "Invitation
// has already been revoked" (zerver/views/invite.py,
// access_multiuse_invite_by_id). Nothing is mailed.
func TestRevokedInvitationIsGone(t *testing.T) {
	r, _ := newTestRealm(t)
	if err := r.As(idHamlet).SendInvites(bg, expiring("gone@zulip.com", 60)); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idHamlet).RevokeInvite(bg, 1); err != nil {
		t.Fatal(err)
	}
	mails := len(r.Outbox())
	wantCode(t, r.As(idHamlet).ResendInvite(bg, 1), CodeBadRequest, "No such invitation")
	wantCode(t, r.As(idHamlet).RevokeInvite(bg, 1), CodeBadRequest, "No such invitation")
	wantCode(t, r.As(idIago).RevokeInvite(bg, 1), CodeBadRequest, "No such invitation")
	if len(r.Outbox()) != mails {
		t.Fatal("resending a revoked invitation mailed it")
	}
	if _, err := r.As(idIago).CreateInviteLink(bg, InviteRequest{}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).RevokeInviteLink(bg, 1); err != nil {
		t.Fatal(err)
	}
	wantCode(t, r.As(idIago).RevokeInviteLink(bg, 1), CodeBadRequest, "Invitation has already been revoked")
}

// Deactivating a user ends the invitations they sent, as Zulip's
// do_deactivate_user does through revoke_invites_generated_by_user
// (zerver/lib/invites.py): pending email invitations and valid links
// expire, leaving GET /invites and answering as expired when followed;
// the administrators hear invites_changed; others' invitations stay.
func TestDeactivationExpiresInvitations(t *testing.T) {
	r, _ := newTestRealm(t)
	if err := r.As(idHamlet).SendInvites(bg, expiring("one@zulip.com, two@zulip.com", 600)); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idOthello).SendInvites(bg, expiring("other@zulip.com", 600)); err != nil {
		t.Fatal(err)
	}
	link, err := r.As(idIago).CreateInviteLink(bg, InviteRequest{})
	if err != nil {
		t.Fatal(err)
	}
	key := link[len(link)-25 : len(link)-1]
	if got := len(mustInvites(t, r, idDesdemona)); got != 4 {
		t.Fatalf("%d invitations before", got)
	}
	desdemona := mustQueue(t, r, idDesdemona, QueueOptions{})
	othello := mustQueue(t, r, idOthello, QueueOptions{})
	if err := r.As(idDesdemona).DeactivateUser(bg, idHamlet); err != nil {
		t.Fatal(err)
	}
	if got := inviteTargets(mustInvites(t, r, idDesdemona)); len(got) != 2 || got[0] != "other@zulip.com" || got[1] != "link" {
		t.Fatalf("after deactivating hamlet: %v", got)
	}
	if n := len(eventsOfType(t, r, idDesdemona, desdemona, "invites_changed")); n != 1 {
		t.Fatalf("administrators heard %d invites_changed", n)
	}
	if n := len(eventsOfType(t, r, idOthello, othello, "invites_changed")); n != 0 {
		t.Fatalf("a bystander heard %d invites_changed", n)
	}
	out := r.Outbox()
	var hamletKey string
	for _, m := range out {
		if m.To == "one@zulip.com" {
			hamletKey = m.ConfirmationKey
		}
	}
	_, err = r.AcceptInvitation(hamletKey, Signup{FullName: "One"})
	wantCode(t, err, CodeBadRequest, msgLinkExpired)

	// A user deactivating themselves ends their link too; nothing left to
	// end sends no event.
	if err := r.As(idIago).DeactivateOwnUser(bg); err != nil {
		t.Fatal(err)
	}
	_, err = r.AcceptInvitation(key, Signup{FullName: "Late", Email: "late@zulip.com"})
	wantCode(t, err, CodeBadRequest, msgLinkExpired)
	if got := inviteTargets(mustInvites(t, r, idDesdemona)); len(got) != 1 {
		t.Fatalf("after deactivating iago: %v", got)
	}
	before := len(eventsOfType(t, r, idDesdemona, desdemona, "invites_changed"))
	if err := r.As(idDesdemona).DeactivateUser(bg, idPolonius); err != nil {
		t.Fatal(err)
	}
	if n := len(eventsOfType(t, r, idDesdemona, desdemona, "invites_changed")); n != before {
		t.Fatal("a deactivation that ended nothing sent invites_changed")
	}
}
