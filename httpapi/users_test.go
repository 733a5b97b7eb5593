package httpapi

import (
	"net/url"
	"testing"
)

func TestHTTPGetOwnUser(t *testing.T) {
	e := newMsgEnv(t)
	status, body := e.do("hamlet@zulip.com", "GET", "/users/me", nil)
	e.wantSuccess(status, body)
	for k, v := range map[string]any{"user_id": float64(10), "email": "user10@zulipdev.com", "delivery_email": "hamlet@zulip.com",
		"full_name": "King Hamlet", "role": float64(400), "is_admin": false, "is_owner": false, "is_guest": false,
		"is_bot": false, "is_active": true, "max_message_id": float64(-1), "timezone": ""} {
		if body[k] != v {
			t.Errorf("%s = %v, want %v", k, body[k], v)
		}
	}
	if _, ok := body["profile_data"].(map[string]any); !ok {
		t.Error("own user lacks profile_data")
	}
}

func TestHTTPGetUser(t *testing.T) {
	e := newMsgEnv(t)
	status, body := e.do("iago@zulip.com", "GET", "/users/10", url.Values{"client_gravatar": {"false"}, "include_custom_profile_fields": {"true"}})
	e.wantSuccess(status, body)
	u := body["user"].(map[string]any)
	if u["delivery_email"] != "hamlet@zulip.com" || u["avatar_url"] == nil || u["bot_type"] != nil || u["profile_data"] == nil {
		t.Fatalf("user %v", u)
	}
	status, body = e.do("hamlet@zulip.com", "GET", "/users/11", nil)
	e.wantSuccess(status, body)
	if u := body["user"].(map[string]any); u["delivery_email"] != nil || u["avatar_url"] == nil {
		t.Fatalf("member's view of iago %v", u)
	}
	status, body = e.do("hamlet@zulip.com", "GET", "/users/Iago@Zulip.com", nil)
	e.wantSuccess(status, body)
	if body["user"].(map[string]any)["user_id"] != float64(11) {
		t.Fatalf("by email %v", body)
	}
	status, body = e.do("hamlet@zulip.com", "GET", "/users/4242", nil)
	e.wantError(status, body, 400, "BAD_REQUEST", "No such user")
	status, body = e.do("hamlet@zulip.com", "GET", "/users/10", url.Values{"client_gravatar": {"perhaps"}})
	e.wantError(status, body, 400, "BAD_REQUEST", "client_gravatar is not a boolean")
}

func TestHTTPListUsers(t *testing.T) {
	e := newMsgEnv(t)
	status, body := e.do("hamlet@zulip.com", "GET", "/users", nil)
	e.wantSuccess(status, body)
	members := body["members"].([]any)
	if len(members) != 16 {
		t.Fatalf("%d members", len(members))
	}
	bots := 0
	for _, m := range members {
		if m.(map[string]any)["is_bot"] == true {
			bots++
		}
	}
	if bots != 6 {
		t.Fatalf("%d bots listed", bots)
	}
}

func TestHTTPCreateUser(t *testing.T) {
	e := newMsgEnv(t)
	form := url.Values{"email": {"new@zulip.com"}, "password": {"secret"}, "full_name": {"New Person"}}
	status, body := e.do("hamlet@zulip.com", "POST", "/users", form)
	e.wantError(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	status, body = e.do("iago@zulip.com", "POST", "/users", form)
	e.wantError(status, body, 400, "BAD_REQUEST", "User not authorized to create users")
	_ = e.realm.SetCanCreateUsers(11, true)
	status, body = e.do("iago@zulip.com", "POST", "/users", url.Values{"email": {"x@zulip.com"}, "full_name": {"X"}})
	e.wantError(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'password' argument")
	if body["var_name"] != "password" {
		t.Fatalf("var_name %v", body)
	}
	status, body = e.do("iago@zulip.com", "POST", "/users", url.Values{"email": {"hamlet@ZULIP.com"}, "password": {"p"}, "full_name": {"Dup"}})
	e.wantError(status, body, 400, "BAD_REQUEST", "Email 'hamlet@ZULIP.com' already in use")
	status, body = e.do("iago@zulip.com", "POST", "/users", form)
	e.wantSuccess(status, body)
	id := body["user_id"].(float64)
	status, body = e.do("iago@zulip.com", "GET", "/users/new@zulip.com", nil)
	e.wantSuccess(status, body)
	if body["user"].(map[string]any)["user_id"] != id {
		t.Fatalf("created user not found by email: %v", body)
	}
}
