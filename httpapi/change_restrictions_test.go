package httpapi

import (
	"net/url"
	"testing"
)

// TestHTTPChangeRestrictions: PATCH /realm takes email_changes_disabled,
// name_changes_disabled and avatar_changes_disabled (as JSON booleans),
// register reports them, and PATCH /settings then refuses a member's new
// email address.
func TestHTTPChangeRestrictions(t *testing.T) {
	e := newMsgEnv(t)
	status, body := e.do("iago@zulip.com", "PATCH", "/realm", url.Values{"email_changes_disabled": {"maybe"}})
	e.fail(status, body, 400, "BAD_REQUEST", "email_changes_disabled is not a boolean")
	body = e.ok(e.do("iago@zulip.com", "PATCH", "/realm", url.Values{"email_changes_disabled": {"true"},
		"name_changes_disabled": {"true"}, "avatar_changes_disabled": {"false"}}))
	if body["email_changes_disabled"] != true || body["name_changes_disabled"] != true {
		t.Fatalf("PATCH /realm %v", body)
	}
	if _, ok := body["avatar_changes_disabled"]; ok {
		t.Errorf("an unchanged setting is reported: %v", body)
	}
	_, state := e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["realm"]`}})
	if state["realm_email_changes_disabled"] != true || state["realm_name_changes_disabled"] != true || state["realm_avatar_changes_disabled"] != false {
		t.Fatalf("register %v %v %v", state["realm_email_changes_disabled"], state["realm_name_changes_disabled"], state["realm_avatar_changes_disabled"])
	}
	status, body = e.do("hamlet@zulip.com", "PATCH", "/settings", url.Values{"email": {"hamlet2@zulip.com"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Email address changes are disabled in this organization.")
	e.ok(e.do("hamlet@zulip.com", "PATCH", "/settings", url.Values{"full_name": {"Prince Hamlet"}}))
	_, state = e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["realm_user"]`}})
	if state["full_name"] != "King Hamlet" {
		t.Errorf("full_name = %v, want the name kept", state["full_name"])
	}
}
