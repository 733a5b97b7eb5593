package httpapi

import (
	"net/url"
	"testing"
)

func TestHTTPDeactivateAndReactivateUser(t *testing.T) {
	e := newUsersEnv(t)
	status, body := e.do("hamlet@zulip.com", "DELETE", "/users/12", nil)
	e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	e.ok(e.do("iago@zulip.com", "DELETE", "/users/12", nil))
	// A deactivated user can no longer authenticate, and is no member.
	_, apiKey, _ := e.realm.APIKey("othello@zulip.com")
	if _, err := e.realm.Authenticate("othello@zulip.com", apiKey); err == nil {
		t.Fatal("a deactivated user authenticated")
	}
	body = e.ok(e.do("hamlet@zulip.com", "GET", "/user_groups/14/members/12", nil))
	if body["is_user_group_member"] != false {
		t.Fatalf("deactivated member: %v", body)
	}
	status, body = e.do("iago@zulip.com", "DELETE", "/users/12", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "User is already deactivated")
	status, body = e.do("iago@zulip.com", "DELETE", "/users/9", nil)
	e.wantError(status, body, 400, "CANNOT_DEACTIVATE_LAST_USER", "")
	if body["is_last_owner"] != true {
		t.Fatalf("last owner: %v", body)
	}
	e.ok(e.do("iago@zulip.com", "POST", "/users/12/reactivate", nil))
	body = e.ok(e.do("hamlet@zulip.com", "GET", "/users/12", url.Values{}))
	if body["user"].(map[string]any)["is_active"] != true {
		t.Fatalf("reactivated: %v", body)
	}
	status, body = e.do("iago@zulip.com", "DELETE", "/users/4242", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "No such user")
}
