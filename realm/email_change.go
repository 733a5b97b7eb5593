package realm

import (
	"crypto/rand"
	"encoding/hex"
	"maps"
	"slices"
	"time"

	"github.com/minizulip/minizulip/user"
)

// OutboxEmail is an email the realm would have sent. The realm sends no
// mail: tests read it with Realm.Outbox.
type OutboxEmail struct {
	To string
	// Template is Zulip's email template, e.g. "confirm_new_email".
	Template string
	UserID   int
	// OldEmail and NewEmail are the addresses of an email change.
	OldEmail, NewEmail string
	// ConfirmationKey is the key of the mail's link: it confirms an email
	// change (Realm.ConfirmEmailChange) or accepts an invitation
	// (Realm.AcceptInvitation); Realm.Confirm takes either.
	ConfirmationKey string
	Sent            time.Time
}

// mailTable is the realm's outbox and its pending email changes.
type mailTable struct {
	outbox  []OutboxEmail                 // the emails the realm would have sent, oldest first
	pending map[string]pendingEmailChange // the email changes awaiting confirmation, by key
}

func (t *mailTable) clone() mailTable {
	return mailTable{outbox: slices.Clone(t.outbox), pending: maps.Clone(t.pending)}
}

// pendingEmailChange is an email change waiting for its confirmation.
type pendingEmailChange struct {
	userID   int
	newEmail string
}

// Outbox returns every email the realm would have sent, oldest first.
func (r *Realm) Outbox() []OutboxEmail {
	var out []OutboxEmail
	_ = r.view(func() error {
		out = slices.Clone(r.mail.outbox)
		return nil
	})
	return out
}

// ClearOutbox forgets the emails recorded so far; pending email changes
// and invitations keep their keys.
func (r *Realm) ClearOutbox() {
	_ = r.update(func() error {
		r.mail.outbox = nil
		return nil
	})
}

// startEmailChange records an email change and the confirmation mail to
// the new address; the caller holds the write lock. The account keeps its
// address until the change is confirmed.
func (r *Realm) startEmailChange(u *user.User, newEmail string) {
	var b [16]byte
	_, _ = rand.Read(b[:])
	key := hex.EncodeToString(b[:])
	if r.mail.pending == nil {
		r.mail.pending = map[string]pendingEmailChange{}
	}
	r.mail.pending[key] = pendingEmailChange{userID: u.ID, newEmail: newEmail}
	r.mail.outbox = append(r.mail.outbox, OutboxEmail{To: newEmail, Template: "confirm_new_email", UserID: u.ID,
		OldEmail: u.DeliveryEmail, NewEmail: newEmail, ConfirmationKey: key, Sent: r.clock.Now()})
}

// ConfirmEmailChange completes an email change, as following the link of
// its confirmation mail does: the account's real address becomes the new
// one. Users who may see it get a realm_user delivery_email event; when
// the API address changes too, everyone gets new_email; the Gravatar
// avatar follows the address. A key is used once.
func (r *Realm) ConfirmEmailChange(key string) error {
	return r.update(func() error {
		if _, ok := r.mail.pending[key]; !ok {
			return BadRequest("Invalid confirmation key")
		}
		_, err := r.confirmEmailChange(key)
		return err
	})
}

// confirmEmailChange confirms the pending email change of key, which
// exists, and returns the account; the caller holds the write lock.
func (r *Realm) confirmEmailChange(key string) (*user.User, error) {
	p := r.mail.pending[key]
	u := r.users.byID[p.userID]
	if u == nil || !u.IsActive {
		return nil, Unauthorized("Account is deactivated")
	}
	if other := r.users.byEmail[user.NormalizeEmail(p.newEmail)]; other != nil && other != u {
		return nil, BadRequest("Already has an account.")
	}
	delete(r.mail.pending, key)
	old := u.DeliveryEmail
	r.changeDeliveryEmail(u, p.newEmail)
	r.mail.outbox = append(r.mail.outbox, OutboxEmail{To: old, Template: "notify_change_in_email", UserID: u.ID,
		OldEmail: old, NewEmail: u.DeliveryEmail, Sent: r.clock.Now()})
	return u, nil
}

// changeDeliveryEmail gives u a new real address, as Zulip's
// do_change_user_delivery_email: users who may see it get a realm_user
// delivery_email event; when the API address changes too, everyone gets
// new_email; a Gravatar avatar follows the address. The caller holds the
// write lock and has checked the address.
func (r *Realm) changeDeliveryEmail(u *user.User, newEmail string) {
	beforeAPI := r.apiEmail(u)
	delete(r.users.byEmail, user.NormalizeEmail(u.DeliveryEmail))
	u.DeliveryEmail = newEmail
	r.users.byEmail[user.NormalizeEmail(u.DeliveryEmail)] = u
	var seeing []int
	for _, id := range r.activeUserIDs() {
		if r.canSeeDeliveryEmail(r.users.byID[id], u) {
			seeing = append(seeing, id)
		}
	}
	r.emit("realm_user", RealmUserUpdateEvent{Op: "update", Person: map[string]any{"user_id": u.ID, "delivery_email": u.DeliveryEmail}}, seeing...)
	if u.AvatarSource == "G" {
		u.AvatarURL = user.GravatarURL(u.DeliveryEmail, u.AvatarVersion)
		r.emitAvatarChange(u)
	}
	if r.apiEmail(u) != beforeAPI {
		r.emit("realm_user", RealmUserUpdateEvent{Op: "update", Person: map[string]any{"user_id": u.ID, "new_email": r.apiEmail(u)}},
			r.activeUserIDs()...)
	}
}

// checkAdminNewEmail checks the new_email of an administrator's PATCH
// /users/{user_id} for target and returns the address to set, "" when
// none or unchanged. Zulip reports a refused address as "New email value
// error: " and the reason its invitations give.
func (r *Realm) checkAdminNewEmail(target *user.User, email *string) (string, error) {
	if email == nil || *email == target.DeliveryEmail {
		return "", nil
	}
	addr := *email
	other := r.users.byEmail[user.NormalizeEmail(addr)]
	if other == target {
		other = nil // the same address in other letter cases
	}
	why := ""
	switch {
	case !user.ValidNewEmail(addr):
		why = "Invalid address."
	case other != nil && !other.IsActive:
		why = "Account has been deactivated."
	case other != nil:
		why = "Already has an account."
	}
	if why != "" {
		return "", BadRequest("New email value error: %s", why)
	}
	return addr, nil
}
