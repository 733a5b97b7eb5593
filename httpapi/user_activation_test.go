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
	// Only an owner deactivates an owner, and never the last one.
	status, body = e.do("iago@zulip.com", "DELETE", "/users/9", nil)
	e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")
	status, body = e.do("desdemona@zulip.com", "DELETE", "/users/9", nil)
	e.fail(status, body, 400, "CANNOT_DEACTIVATE_LAST_USER", "Cannot deactivate the only organization owner")
	if body["is_last_owner"] != true || body["entity"] != "organization owner" {
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

func TestHTTPDeactivateOwnUser(t *testing.T) {
	e := newUsersEnv(t)
	// The only owner may not leave.
	status, body := e.do("desdemona@zulip.com", "DELETE", "/users/me", nil)
	e.fail(status, body, 400, "CANNOT_DEACTIVATE_LAST_USER", "Cannot deactivate the only organization owner")
	if body["is_last_owner"] != true || body["entity"] != "organization owner" {
		t.Fatalf("last owner: %v", body)
	}
	if u := e.ok(e.do("iago@zulip.com", "GET", "/users/9", url.Values{}))["user"].(map[string]any); u["is_active"] != true {
		t.Fatalf("the refused owner was deactivated: %v", u)
	}
	// Anyone else may; their API key stops working at once.
	e.ok(e.do("hamlet@zulip.com", "DELETE", "/users/me", nil))
	status, body = e.do("hamlet@zulip.com", "GET", "/users/me", nil)
	e.fail(status, body, 401, "UNAUTHORIZED", "Account is deactivated")
	if u := e.ok(e.do("iago@zulip.com", "GET", "/users/10", url.Values{}))["user"].(map[string]any); u["is_active"] != false {
		t.Fatalf("hamlet after leaving: %v", u)
	}
}
