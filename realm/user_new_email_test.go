package realm

import (
	"testing"
)

// An administrator with can_change_user_emails changes another user's
// address at once (PATCH /users/{user_id} new_email): the address is the
// new one, those who may see it get a realm_user delivery_email event,
// others nothing; without the permission, or as a non-administrator, the
// request is refused; an address in use or malformed is refused with
// Zulip's "New email value error"; a refused request changes nothing.
func TestAdminChangesUserEmail(t *testing.T) {
	r, _ := newTestRealm(t)
	iagoQ := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"realm_user"}})
	hamletQ := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm_user"}})
	othelloQ := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"realm_user"}})
	str := func(s string) *string { return &s }

	// Refusals.
	if err := r.SetCanChangeUserEmails(idIago, false); err != nil {
		t.Fatal(err)
	}
	err := r.As(idIago).UpdateUser(bg, idHamlet, UserUpdate{NewEmail: str("hamlet2@zulip.com")})
	wantCode(t, err, CodeBadRequest, "User not authorized to change user emails")
	if err := r.SetCanChangeUserEmails(idIago, true); err != nil {
		t.Fatal(err)
	}
	_ = r.SetCanChangeUserEmails(idOthello, true)
	err = r.As(idOthello).UpdateUser(bg, idHamlet, UserUpdate{NewEmail: str("hamlet2@zulip.com")})
	wantCode(t, err, CodeBadRequest, "Insufficient permission")
	for addr, why := range map[string]string{
		"othello@zulip.com": "New email value error: Already has an account.",
		"not an address":    "New email value error: Invalid address.",
	} {
		err = r.As(idIago).UpdateUser(bg, idHamlet, UserUpdate{FullName: str("Renamed"), NewEmail: str(addr)})
		wantCode(t, err, CodeBadRequest, why)
	}
	if err := r.As(idIago).DeactivateUser(bg, idPolonius); err != nil {
		t.Fatal(err)
	}
	err = r.As(idIago).UpdateUser(bg, idHamlet, UserUpdate{NewEmail: str("polonius@zulip.com")})
	wantCode(t, err, CodeBadRequest, "New email value error: Account has been deactivated.")
	if u := r.users.byID[idHamlet]; u.DeliveryEmail != "hamlet@zulip.com" || u.FullName != "King Hamlet" {
		t.Fatalf("a refused change changed hamlet: %q %q", u.DeliveryEmail, u.FullName)
	}
	hamletLast := len(pending(t, r, idHamlet, hamletQ, -1)) - 1
	iagoLast := len(pending(t, r, idIago, iagoQ, -1)) - 1
	othelloLast := len(pending(t, r, idOthello, othelloQ, -1)) - 1

	// The change.
	if err := r.As(idIago).UpdateUser(bg, idHamlet, UserUpdate{NewEmail: str("hamlet2@zulip.com")}); err != nil {
		t.Fatal(err)
	}
	if u := r.users.byID[idHamlet]; u.DeliveryEmail != "hamlet2@zulip.com" {
		t.Fatalf("hamlet's address is %q", u.DeliveryEmail)
	}
	if id, ok := r.UserIDByEmail("hamlet2@zulip.com"); !ok || id != idHamlet {
		t.Fatal("hamlet is not found by the new address")
	}
	if _, ok := r.UserIDByEmail("hamlet@zulip.com"); ok {
		t.Fatal("the old address still finds a user")
	}
	for _, c := range []struct {
		id   int
		q    *Queue
		last int
		sees bool
	}{{idIago, iagoQ, iagoLast, true}, {idHamlet, hamletQ, hamletLast, true}, {idOthello, othelloQ, othelloLast, false}} {
		// (A Gravatar avatar follows the address: everyone gets that.)
		var got []map[string]any
		for _, ev := range pending(t, r, c.id, c.q, c.last) {
			m := eventJSON(t, ev)
			if p, _ := m["person"].(map[string]any); p["user_id"] == float64(idHamlet) && p["avatar_url"] == nil {
				got = append(got, p)
			}
		}
		switch {
		case c.sees && (len(got) == 0 || got[0]["delivery_email"] != "hamlet2@zulip.com"):
			t.Errorf("user %d: events about hamlet %v; want delivery_email", c.id, got)
		case !c.sees && len(got) != 0:
			t.Errorf("user %d, who may not see the address, got %v", c.id, got)
		}
	}
	// The same address again changes nothing and is no error; another
	// letter case of one's own address is no duplicate.
	if err := r.As(idIago).UpdateUser(bg, idHamlet, UserUpdate{NewEmail: str("hamlet2@zulip.com")}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).UpdateUser(bg, idHamlet, UserUpdate{NewEmail: str("Hamlet2@zulip.com")}); err != nil {
		t.Fatal(err)
	}
}

// With email addresses visible to everyone, the API address changes too:
// everyone gets a realm_user new_email event.
func TestAdminChangesUserEmailVisibleToEveryone(t *testing.T) {
	r, _ := newTestRealm(t)
	if err := r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Settings: map[string]any{"email_address_visibility": 1}}); err != nil {
		t.Fatal(err)
	}
	othelloQ := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"realm_user"}})
	s := "hamlet2@zulip.com"
	if err := r.As(idIago).UpdateUser(bg, idHamlet, UserUpdate{NewEmail: &s}); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, ev := range pending(t, r, idOthello, othelloQ, -1) {
		if p, _ := eventJSON(t, ev)["person"].(map[string]any); p["new_email"] == "hamlet2@zulip.com" {
			found = true
		}
	}
	if !found {
		t.Fatal("othello got no new_email event")
	}
}
