package realm

import (
	"strings"
	"testing"
	"time"
)

// A realm with presence off, as Zulip's Realm.presence_disabled: register
// says so (zerver/lib/events.py realm_presence_disabled), every presence
// answer lists nobody with last update ID -1 (zerver/lib/presence.py
// get_presences_for_realm), reports are kept but a first presence or a
// return online is not announced, a forced update still is
// (zerver/actions/presence.py do_update_user_presence), and one user's
// presence is still served (zerver/views/presence.py get_presence_backend).
func TestPresenceDisabledRealm(t *testing.T) {
	r, clock := newTestRealm(t, WithSettings(func(s *Settings) { s.PresenceDisabled = true }))
	clock.Advance(time.Hour)
	q := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"presence"}})
	ping(t, r, idHamlet, PresenceActive)
	if _, _, ok := modernPresenceOf(r, idHamlet); !ok {
		t.Fatal("the report was not kept")
	}
	clock.Advance(10 * time.Minute)
	ping(t, r, idHamlet, PresenceActive) // back online
	if evs := eventsOfType(t, r, idIago, q, "presence"); len(evs) != 0 {
		t.Fatalf("presence events %v", evs)
	}
	for _, req := range []PresenceRequest{
		{Status: PresenceActive},
		{Status: PresenceActive, SlimPresence: true},
		{Status: PresenceIdle, LastUpdateID: intPtr(0)},
	} {
		res, err := r.As(idIago).UpdatePresence(bg, req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := res.Presences.MarshalJSON()
		if string(b) != "{}" || *res.PresenceLastUpdateID != -1 {
			t.Fatalf("%+v: presences %s, last update %d", req, b, *res.PresenceLastUpdateID)
		}
	}
	if res, err := r.As(idIago).RealmPresence(bg); err != nil || len(res.Presences.Legacy) != 0 {
		t.Fatalf("GET /realm/presence: %+v %v", res, err)
	}
	st, err := r.As(idIago).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm", "presence"}})
	if err != nil {
		t.Fatal(err)
	}
	if !st.RealmPresenceDisabled || len(st.PresenceState.Presences.Legacy)+len(st.PresenceState.Presences.Modern) != 0 {
		t.Fatalf("register: disabled %v, presences %+v", st.RealmPresenceDisabled, st.PresenceState.Presences)
	}
	if p, err := r.As(idIago).UserPresence(bg, "hamlet@zulip.com"); err != nil || p["aggregated"].Status != PresenceActive {
		t.Fatalf("one user's presence: %v %v", p, err)
	}
	// Turning one's presence_enabled off forces an update: it is sent.
	if err := r.As(idHamlet).UpdateStatus(bg, StatusUpdate{Away: boolPtr(true)}); err != nil {
		t.Fatal(err)
	}
	if evs := eventsOfType(t, r, idIago, q, "presence"); len(evs) != 1 {
		t.Fatalf("forced update: %d presence events", len(evs))
	}

	// The default: presence on, said so in register, events sent.
	on, _ := newTestRealm(t)
	st, err = on.As(idIago).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm"}})
	if err != nil || st.RealmPresenceDisabled {
		t.Fatalf("default realm_presence_disabled %v %v", st.RealmPresenceDisabled, err)
	}
}

// The setting travels in fixtures (settings.presence_disabled).
func TestPresenceDisabledInFixtures(t *testing.T) {
	r, _ := newTestRealm(t, WithSettings(func(s *Settings) { s.PresenceDisabled = true }))
	doc, err := r.Dump()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.ReplaceAll(string(doc), " ", ""), `"presence_disabled":true`) {
		t.Fatal("dump lost presence_disabled")
	}
	back, err := Load(doc)
	if err != nil {
		t.Fatal(err)
	}
	if !back.settings.PresenceDisabled {
		t.Fatal("load lost presence_disabled")
	}
}

// Guests see everyone's presence, as in Zulip with its default server
// settings: zerver/lib/presence.py limits presence to accessible users
// only when CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE is set, which is
// off by default (and the realm keeps no can_access_all_users_group).
func TestGuestsSeeEveryonesPresence(t *testing.T) {
	r, _ := newTestRealm(t)
	for _, id := range []int{idHamlet, idIago, idOthello} {
		ping(t, r, id, PresenceActive)
	}
	res, err := r.As(idPolonius).UpdatePresence(bg, PresenceRequest{Status: PresenceActive, SlimPresence: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Presences.Modern); n != 4 {
		t.Fatalf("a guest sees %d presences, want 4: %v", n, res.Presences.Modern)
	}
}
