package httpapi

import (
	"net/url"
	"testing"
)

// POST /minizulip/special_permissions grants and withdraws
// can_change_user_emails (and can_create_users): iago, who has it in the
// dev realm, loses it and is refused new_email; given back, his
// PATCH /users/{email} with new_email changes the address. Bad input is
// refused and changes nothing.
func TestControlSpecialPermissions(t *testing.T) {
	e := newCtlEnv(t)
	refused := func(status int, code, msg string) func(int, map[string]any) {
		return func(st int, body map[string]any) { t.Helper(); e.wantError(st, body, status, code, msg) }
	}
	change := func(to string) (int, map[string]any) {
		return e.do("iago@zulip.com", "PATCH", "/users/10", url.Values{"new_email": {to}})
	}
	refused(400, "REQUEST_VARIABLE_MISSING", "")(e.ctl("POST", "/minizulip/special_permissions", url.Values{"can_change_user_emails": {"false"}}))
	refused(400, "BAD_REQUEST", "")(e.ctl("POST", "/minizulip/special_permissions", url.Values{"user": {"nobody@zulip.com"}, "can_change_user_emails": {"false"}}))
	refused(400, "BAD_REQUEST", "")(e.ctl("POST", "/minizulip/special_permissions", url.Values{"user": {"iago@zulip.com"},
		"can_create_users": {"false"}, "can_change_user_emails": {"maybe"}}))
	e.ok(e.do("iago@zulip.com", "POST", "/users", url.Values{"email": {"new@zulip.com"}, "password": {"pw"}, "full_name": {"New"}}))

	e.ok(e.ctl("POST", "/minizulip/special_permissions", url.Values{"user": {"iago@zulip.com"}, "can_change_user_emails": {"false"},
		"can_create_users": {"false"}}))
	refused(400, "BAD_REQUEST", "User not authorized to change user emails")(change("hamlet2@zulip.com"))
	refused(400, "BAD_REQUEST", "User not authorized to create users")(e.do("iago@zulip.com", "POST", "/users", url.Values{"email": {"new2@zulip.com"}, "password": {"pw"}, "full_name": {"New"}}))

	e.ok(e.ctl("POST", "/minizulip/special_permissions", url.Values{"user": {"iago@zulip.com"}, "can_change_user_emails": {"true"}}))
	refused(400, "BAD_REQUEST", "New email value error: Already has an account.")(change("othello@zulip.com"))
	e.ok(e.do("iago@zulip.com", "PATCH", "/users/hamlet@zulip.com", url.Values{"new_email": {"hamlet2@zulip.com"}}))
	if id, ok := e.realm.UserIDByEmail("hamlet2@zulip.com"); !ok || id != 10 {
		t.Fatalf("hamlet2@zulip.com is user %d (%v)", id, ok)
	}
	// A member, even with the permission, may not.
	e.ok(e.ctl("POST", "/minizulip/special_permissions", url.Values{"user": {"othello@zulip.com"}, "can_change_user_emails": {"true"}}))
	refused(400, "BAD_REQUEST", "")(e.do("othello@zulip.com", "PATCH", "/users/10", url.Values{"new_email": {"hamlet3@zulip.com"}}))
}
