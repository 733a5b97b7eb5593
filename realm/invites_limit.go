package realm

import (
	"slices"
	"time"
)

// DefaultMaxInvites is how many invitation emails a realm may send in a
// day unless its MaxInvites says otherwise: Zulip's
// INVITES_DEFAULT_REALM_DAILY_MAX.
const DefaultMaxInvites = 100

// inviteLimitWindow is the span the daily invitation limit counts over.
const inviteLimitWindow = 24 * time.Hour

// maxInvites is the realm's daily invitation limit; a MaxInvites of 0
// means the default, as Zulip's unset max_invites does.
func (r *Realm) maxInvites() int {
	if r.settings.MaxInvites <= 0 {
		return DefaultMaxInvites
	}
	return r.settings.MaxInvites
}

// recentInvites counts the invitation emails sent (or sent again) within
// the last day by the realm's clock.
func (r *Realm) recentInvites() int {
	since := r.clock.Now().Add(-inviteLimitWindow)
	n := 0
	for _, t := range r.invites.sent {
		if t.After(since) {
			n++
		}
	}
	return n
}

// checkInviteLimit refuses to send n more invitation emails when that
// would exceed the realm's daily limit, with Zulip's error
// (check_invite_limit): nothing is sent.
func (r *Realm) checkInviteLimit(n int) error {
	if n+r.recentInvites() <= r.maxInvites() {
		return nil
	}
	err := invitationFailed("To protect users, Zulip limits the number of invitations you can send in one day. "+
		"Because you have reached the limit, no invitations were sent.", nil, false)
	err.Extra["daily_limit_reached"] = true
	return err
}

// noteInviteSent counts one invitation email toward the daily limit,
// forgetting those older than the limit's window.
func (r *Realm) noteInviteSent(at time.Time) {
	since := at.Add(-inviteLimitWindow)
	r.invites.sent = append(slices.DeleteFunc(r.invites.sent, func(t time.Time) bool { return !t.After(since) }), at)
}
