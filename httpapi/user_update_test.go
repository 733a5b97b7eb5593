package httpapi

import (
	"net/url"
	"testing"
)

func TestHTTPUpdateUser(t *testing.T) {
	e := newUsersEnv(t)
	form := url.Values{"full_name": {"Othello"}, "role": {"300"},
		"profile_data": {`[{"id": 3, "value": "Figs"}, {"id": 1, "value": null}]`}}
	status, body := e.do("hamlet@zulip.com", "PATCH", "/users/12", form)
	e.fail(status, body, 400, "BAD_REQUEST", "Insufficient permission")
	e.ok(e.do("iago@zulip.com", "PATCH", "/users/12", form))
	got := e.ok(e.do("hamlet@zulip.com", "GET", "/users/12", url.Values{"include_custom_profile_fields": {"true"}}))
	u := got["user"].(map[string]any)
	pd := u["profile_data"].(map[string]any)
	if u["full_name"] != "Othello" || u["role"] != float64(300) || pd["3"].(map[string]any)["value"] != "Figs" || pd["1"] != nil {
		t.Fatalf("updated user %v", u)
	}
	// By email (feature level 313).
	e.ok(e.do("iago@zulip.com", "PATCH", "/users/othello@zulip.com", url.Values{"full_name": {"Othello again"}}))
	got = e.ok(e.do("hamlet@zulip.com", "GET", "/users/12", nil))
	if got["user"].(map[string]any)["full_name"] != "Othello again" {
		t.Fatalf("by email: %v", got)
	}
	for _, c := range []struct {
		form url.Values
		code string
		msg  string
	}{
		{url.Values{"role": {"owner"}}, "BAD_REQUEST", "role is not an integer"},
		{url.Values{"role": {"150"}}, "BAD_REQUEST", "Invalid role"},
		{url.Values{"role": {"100"}}, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner"},
		{url.Values{"profile_data": {`{"id": 3}`}}, "BAD_REQUEST", "profile_data is not a list"},
		{url.Values{"profile_data": {`[{"id": 3, "value": 5}]`}}, "BAD_REQUEST", `profile_data[0]["value"] is not a string or a list of integers`},
		{url.Values{"profile_data": {`[{"id": 77, "value": "x"}]`}}, "BAD_REQUEST", "Field id 77 not found."},
	} {
		status, body := e.do("iago@zulip.com", "PATCH", "/users/12", c.form)
		e.fail(status, body, 400, c.code, c.msg)
	}
	status, body = e.do("iago@zulip.com", "PATCH", "/users/4242", url.Values{"full_name": {"Nobody"}})
	e.fail(status, body, 400, "BAD_REQUEST", "No such user")
}
