package realm

import "testing"

func TestTheOnlyActiveUserCannotLeave(t *testing.T) {
	r, _ := newTestRealm(t)
	r.mu.Lock()
	for id, u := range r.users.byID {
		if id != idHamlet && !u.IsSystemBot {
			u.IsActive = false
		}
	}
	r.mu.Unlock()
	e := wantCode(t, r.As(idHamlet).DeactivateOwnUser(bg), CodeCannotDeactivateLastUser, "Cannot deactivate the only user")
	if e.Extra["is_last_owner"] != false || e.Extra["entity"] != "user" {
		t.Fatalf("extra fields: %v", e.Extra)
	}
	if u, _ := r.As(idHamlet).OwnUser(bg); !u.IsActive {
		t.Fatal("the refused user was deactivated")
	}
}

func TestLeavingTellsEveryoneAndEndsAccess(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idIago, QueueOptions{})
	if err := r.As(idHamlet).DeactivateOwnUser(bg); err != nil {
		t.Fatal(err)
	}
	evs := eventsOfType(t, r, idIago, q, "realm_user")
	if len(evs) != 1 {
		t.Fatalf("realm_user events: %v", evs)
	}
	p := evs[0]["person"].(map[string]any)
	if evs[0]["op"] != "update" || p["user_id"] != float64(idHamlet) || p["is_active"] != false {
		t.Fatalf("event %v", evs[0])
	}
	wantCode(t, r.As(idHamlet).DeactivateOwnUser(bg), CodeUnauthorized, "Account is deactivated")
}
