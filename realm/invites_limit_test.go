package realm

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The daily invitation limit counts the invitation emails of the last day
// by the realm's clock, resent ones included, and refuses a request that
// would go over it whole.
func TestDailyInviteLimit(t *testing.T) {
	r, clock := newTestRealm(t, WithSettings(func(s *Settings) { s.MaxInvites = 3 }))
	log := newEventLog(t, r, idHamlet)
	limited := func(err error) {
		t.Helper()
		e := wantCode(t, err, CodeInvitationFailed, "")
		const msg = "To protect users, Zulip limits the number of invitations you can send in one day. " +
			"Because you have reached the limit, no invitations were sent."
		if e.Msg != msg || e.Extra["daily_limit_reached"] != true || e.Extra["sent_invitations"] != false ||
			e.Extra["license_limit_reached"] != false || !cmp.Equal(e.Extra["errors"], [][]any{}) {
			t.Fatalf("error %+v", e)
		}
	}
	if err := r.As(idHamlet).SendInvites(bg, expiring("a@zulip.com, b@zulip.com", DefaultInviteExpiryMinutes)); err != nil {
		t.Fatal(err)
	}
	// (Queues expire while the clock moves on: a new one after each move.)
	clock.Advance(12 * time.Hour)
	log = newEventLog(t, r, idHamlet)
	// Two more would make four.
	before := r.Snapshot()
	limited(r.As(idHamlet).SendInvites(bg, expiring("c@zulip.com, d@zulip.com", DefaultInviteExpiryMinutes)))
	unchanged(t, r, before, log)
	// A resend counts as one.
	if err := r.As(idHamlet).ResendInvite(bg, 1); err != nil {
		t.Fatal(err)
	}
	log.read()
	before = r.Snapshot()
	limited(r.As(idHamlet).ResendInvite(bg, 2))
	limited(r.As(idIago).SendInvites(bg, expiring("c@zulip.com", DefaultInviteExpiryMinutes)))
	unchanged(t, r, before, log)
	// A day after the first two, only the resend still counts.
	clock.Advance(12 * time.Hour)
	if err := r.As(idHamlet).SendInvites(bg, expiring("c@zulip.com, d@zulip.com", DefaultInviteExpiryMinutes)); err != nil {
		t.Fatal(err)
	}
	limited(r.As(idHamlet).ResendInvite(bg, 2))
	if got := inviteTargets(mustInvites(t, r, idIago)); !cmp.Equal(got, []string{"a@zulip.com", "b@zulip.com", "c@zulip.com", "d@zulip.com"}) {
		t.Fatalf("invites %v", got)
	}
}

// The dev realm allows Zulip's default of 100 invitations a day.
func TestDefaultInviteLimit(t *testing.T) {
	r, _ := newTestRealm(t)
	if r.Settings().MaxInvites != DefaultMaxInvites || DefaultMaxInvites != 100 {
		t.Fatalf("max invites %d", r.Settings().MaxInvites)
	}
	r.invites.sent = make([]time.Time, 99)
	for i := range r.invites.sent {
		r.invites.sent[i] = r.Now()
	}
	if err := r.As(idHamlet).SendInvites(bg, expiring("a@zulip.com, b@zulip.com", DefaultInviteExpiryMinutes)); err == nil {
		t.Fatal("101 invitations in a day")
	}
	if err := r.As(idHamlet).SendInvites(bg, expiring("a@zulip.com", DefaultInviteExpiryMinutes)); err != nil {
		t.Fatal(err)
	}
	// Zero is the default too.
	r.settings.MaxInvites = 0
	if got := r.maxInvites(); got != DefaultMaxInvites {
		t.Fatalf("max invites %d", got)
	}
}
