package realm

import (
	"testing"
	"time"
)

func ping(t *testing.T, r *Realm, userID int, status string) {
	t.Helper()
	if _, err := r.As(userID).UpdatePresence(bg, PresenceRequest{Status: status, PingOnly: true}); err != nil {
		t.Fatal(err)
	}
}

// modernPresenceOf is userID's presence as POST /users/me/presence would
// give it in the modern format, and its update ID.
func modernPresenceOf(r *Realm, userID int) (ModernPresence, int, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	rec := r.presence.byUser[userID]
	if rec == nil {
		return ModernPresence{}, 0, false
	}
	return modernPresence(r.users.byID[userID], rec), rec.updateID, true
}

// A presence is rewritten only when the last report is over 55 s old; an
// active report over 130 s after the last active one is a return online,
// announced at once.
func TestPresenceUpdateThresholds(t *testing.T) {
	r, clock := newTestRealm(t)
	clock.Advance(time.Hour)
	q := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"presence"}})
	t0 := clock.Now().Unix()
	ping(t, r, idHamlet, PresenceActive)
	if p, id, _ := modernPresenceOf(r, idHamlet); p != (ModernPresence{t0, t0}) || id != 1 {
		t.Fatalf("first report %+v id %d", p, id)
	}
	clock.Advance(55 * time.Second)
	ping(t, r, idHamlet, PresenceActive)
	if p, id, _ := modernPresenceOf(r, idHamlet); p != (ModernPresence{t0, t0}) || id != 1 {
		t.Fatalf("55 s later %+v id %d: nothing should move", p, id)
	}
	clock.Advance(time.Second)
	ping(t, r, idHamlet, PresenceIdle)
	if p, id, _ := modernPresenceOf(r, idHamlet); p != (ModernPresence{t0, t0 + 56}) || id != 2 {
		t.Fatalf("56 s later, idle %+v id %d", p, id)
	}
	// Active exactly 130 s after the last active report: still online.
	clock.Advance(74 * time.Second)
	ping(t, r, idHamlet, PresenceActive)
	if evs := eventsOfType(t, r, idIago, q, "presence"); len(evs) != 1 {
		t.Fatalf("after 130 s: %d presence events, want only the first", len(evs))
	}
	if p, id, _ := modernPresenceOf(r, idHamlet); p != (ModernPresence{t0 + 130, t0 + 130}) || id != 3 {
		t.Fatalf("130 s later, active %+v id %d", p, id)
	}
	// 131 s after it: back online.
	clock.Advance(131 * time.Second)
	ping(t, r, idHamlet, PresenceActive)
	if evs := eventsOfType(t, r, idIago, q, "presence"); len(evs) != 2 {
		t.Fatalf("after 131 s: %d presence events, want 2", len(evs))
	}
}

// Presence and status events go to every active user's queues: a queue
// left open by a user since deactivated gets none.
func TestPresenceAndStatusEventsSkipDeactivatedUsers(t *testing.T) {
	r, _ := newTestRealm(t)
	types := QueueOptions{EventTypes: []string{"presence", "user_status"}}
	othelloQ := mustQueue(t, r, idOthello, types)
	hamletQ := mustQueue(t, r, idHamlet, types)
	botQ := mustQueue(t, r, idDefaultBot, types)
	if err := r.As(idIago).DeactivateUser(bg, idOthello); err != nil {
		t.Fatal(err)
	}
	ping(t, r, idIago, PresenceActive)
	if err := r.As(idIago).UpdateStatus(bg, StatusUpdate{StatusText: str("here")}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).ReactivateUser(bg, idOthello); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id   int
		q    *Queue
		want int
	}{{idHamlet, hamletQ, 1}, {idDefaultBot, botQ, 1}, {idOthello, othelloQ, 0}} {
		for _, typ := range []string{"presence", "user_status"} {
			if got := len(eventsOfType(t, r, c.id, c.q, typ)); got != c.want {
				t.Errorf("user %d: %d %s events, want %d", c.id, got, typ, c.want)
			}
		}
	}
}

// With presence_enabled off a report changes nothing and tells no one.
func TestPresenceDisabledReportsAreDropped(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"presence"}})
	r.mu.Lock()
	r.users.byID[idHamlet].Settings.PresenceEnabled = false
	r.mu.Unlock()
	ping(t, r, idHamlet, PresenceActive)
	if _, _, ok := modernPresenceOf(r, idHamlet); ok {
		t.Fatal("a report with presence disabled was recorded")
	}
	if evs := eventsOfType(t, r, idIago, q, "presence"); len(evs) != 0 {
		t.Fatalf("events %v", evs)
	}
	res, err := r.As(idHamlet).UpdatePresence(bg, PresenceRequest{Status: PresenceActive, SlimPresence: true})
	if err != nil || res.Presences == nil || len(res.Presences.Modern) != 0 || *res.PresenceLastUpdateID != -1 {
		t.Fatalf("fetch with no presence anywhere: %+v %v", res, err)
	}
}

// WithSeededPresence: every human of the dev realm is present, active at
// the realm's creation; bots are not; without the option nobody is.
func TestSeededPresence(t *testing.T) {
	r, clock := newTestRealm(t, WithSeededPresence())
	created := clock.Now().Unix()
	for id, u := range r.users.byID {
		rec := r.presence.byUser[id]
		switch {
		case u.IsBot() && rec != nil:
			t.Errorf("bot %d has a presence", id)
		case !u.IsBot() && u.IsActive && (rec == nil || rec.lastActive.Unix() != created):
			t.Errorf("user %d: presence %+v, want active at %d", id, rec, created)
		}
	}
	plain, _ := newTestRealm(t)
	if len(plain.presence.byUser) != 0 {
		t.Fatalf("without the option: %d presences", len(plain.presence.byUser))
	}
}
