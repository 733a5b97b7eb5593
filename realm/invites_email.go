package realm

import (
	"context"

	"github.com/minizulip/minizulip/user"
)

// InviteTemplate is the Outbox template of an invitation email; its
// UserID is the inviter.
const InviteTemplate = "invitation"

// invitationFailed is Zulip's InvitationError: some addresses were
// refused, each listed as [address, reason, deactivated].
func invitationFailed(msg string, refused [][3]any, sent bool) *Error {
	errs := make([][]any, len(refused))
	for i, e := range refused {
		errs[i] = e[:]
	}
	return &Error{Code: CodeInvitationFailed, Msg: msg, Status: statusBadRequest, Extra: map[string]any{
		"errors": errs, "sent_invitations": sent, "license_limit_reached": false, "daily_limit_reached": false}}
}

// SendInvites answers POST /invites: members of the realm's
// can_invite_users_group invite addresses by email (no mail leaves; each
// invitation is recorded in the Outbox). As in Zulip, addresses already
// in use are skipped and the others invited, the answer then being an
// INVITATION_FAILED error with sent_invitations true; an invalid address,
// or one the realm's email rules refuse (email_rules.go), refuses the
// whole request, as does going over the daily invitation limit
// (invites_limit.go).
func (a *Actor) SendInvites(ctx context.Context, req InviteRequest) error {
	r := a.r
	var partial *Error
	err := a.write(ctx, func(me *user.User) error {
		if err := r.normalizeInviteRequest(me, &req, r.settings.CanInviteUsersGroup); err != nil {
			return err
		}
		if req.InviteeEmails == "" {
			return BadRequest("You must specify at least one email address.")
		}
		emails := inviteeEmails(req.InviteeEmails)
		if err := r.checkInviteTargets(me, req); err != nil {
			return err
		}
		if err := r.checkInviteLimit(len(emails)); err != nil {
			return err
		}
		var invalid, skipped [][3]any
		var good []string
		for _, email := range emails {
			if !user.ValidNewEmail(email) {
				invalid = append(invalid, [3]any{email, "Invalid address.", false})
			} else if refusal := r.emailRefusalOf(email); refusal != emailAllowed {
				invalid = append(invalid, [3]any{email, refusal.inviteMessage(), false})
			} else if msg, deactivated, taken := r.inviteeTaken(email); taken {
				skipped = append(skipped, [3]any{email, msg, deactivated})
			} else {
				good = append(good, email)
			}
		}
		if len(invalid) > 0 {
			return invitationFailed("Some emails did not validate, so we didn't send any invitations.",
				append(invalid, skipped...), false)
		}
		if len(good) == 0 {
			return invitationFailed("We weren't able to invite anyone.", skipped, false)
		}
		for _, email := range good {
			inv := r.newInvite(me, req)
			inv.email = email
			r.invites.lastEmailID++
			inv.id = r.invites.lastEmailID
			if r.invites.email == nil {
				r.invites.email = map[int]*storedInvite{}
			}
			r.invites.email[inv.id] = inv
			r.mailInvite(inv)
		}
		r.emitInvitesChanged(me.ID)
		if len(skipped) > 0 {
			partial = invitationFailed("Some of those addresses are already using Zulip, so we didn't send them "+
				"an invitation. We did send invitations to everyone else!", skipped, true)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if partial != nil {
		return partial
	}
	return nil
}

// inviteeTaken reports why an address cannot be invited: an account has
// it (active or not), or a system bot does.
func (r *Realm) inviteeTaken(email string) (msg string, deactivated, taken bool) {
	norm := user.NormalizeEmail(email)
	u := r.users.byEmail[norm]
	switch {
	case u == nil || user.NormalizeEmail(u.DeliveryEmail) != norm: // API addresses do not count
		return "", false, false
	case u.IsSystemBot:
		return "Reserved for system bots.", false, true
	case !u.IsActive:
		return "Account has been deactivated.", true, true
	}
	return "Already has an account.", false, true
}

// mailInvite records the invitation email of inv, with the confirmation
// key that accepts it (Realm.AcceptInvitation), counting it toward the
// daily invitation limit.
func (r *Realm) mailInvite(inv *storedInvite) {
	now := r.clock.Now()
	r.mail.outbox = append(r.mail.outbox, OutboxEmail{To: inv.email, Template: InviteTemplate,
		UserID: inv.referrerID, ConfirmationKey: inv.key, Sent: now})
	r.noteInviteSent(now)
}

// RevokeInvite answers DELETE /invites/{invite_id}: the author of an
// email invitation, or an administrator, revokes it.
func (a *Actor) RevokeInvite(ctx context.Context, id int) error {
	return a.withInvite(ctx, id, emailInvites, func(inv *storedInvite) error {
		inv.revoked = true
		a.r.emitInvitesChanged(inv.referrerID)
		return nil
	})
}

// ResendInvite answers POST /invites/{invite_id}/resend: the invitation
// email goes again (to the Outbox), within the daily invitation limit;
// the invitation itself is unchanged, and, as in Zulip, no
// invites_changed event is sent.
func (a *Actor) ResendInvite(ctx context.Context, id int) error {
	return a.withInvite(ctx, id, emailInvites, func(inv *storedInvite) error {
		if err := a.r.checkInviteLimit(1); err != nil {
			return err
		}
		a.r.mailInvite(inv)
		return nil
	})
}

// emailInvites picks the email invitations for withInvite.
func emailInvites(s *inviteTable) map[int]*storedInvite { return s.email }
