package httpapi

import (
	"net/url"
	"reflect"
	"testing"
)

// setProfileData sends PATCH /users/me/profile_data with data as JSON.
func (e *apiEnv) setProfileData(email, data string) (int, map[string]any) {
	e.t.Helper()
	return e.do(email, "PATCH", "/users/me/profile_data", url.Values{"data": {data}})
}

func TestHTTPProfileDataValueRules(t *testing.T) {
	e := newUsersEnv(t)
	e.ok(e.do("iago@zulip.com", "PATCH", "/realm/profile_fields/5", url.Values{"editable_by_user": {"false"}}))
	before := e.profileData("othello@zulip.com", 12)
	for _, c := range []struct{ data, msg string }{
		{`{"id": 1}`, "data is not a list"},
		{`[{"id": 1}]`, "data[0] key is missing: value"},
		{`[{"id": "1", "value": "x"}]`, `data[0]["id"] is not an integer`},
		{`[{"id": 1, "value": 5}]`, `data[0]["value"] is not a string or a list of integers`},
		{`[{"id": 99, "value": "x"}]`, "Field id 99 not found."},
		{`[{"id": 1, "value": "012345678901234567890123456789012345678901234567890"}]`, "Phone number is too long (limit: 50 characters)"},
		{`[{"id": 2, "value": [1]}]`, "Biography is not a string"},
		{`[{"id": 4, "value": "2"}]`, "'2' is not a valid choice for 'Favorite editor'."},
		{`[{"id": 5, "value": "1990-01-01"}]`, "You are not allowed to change this field. Contact an administrator to update it."},
		{`[{"id": 6, "value": "not a url"}]`, "Favorite website is not a URL"},
		{`[{"id": 6, "value": "javascript:alert(1)"}]`, "Favorite website is not a URL"},
		{`[{"id": 7, "value": "11"}]`, "User IDs is not a list"},
		{`[{"id": 7, "value": [999]}]`, "Invalid user ID: 999"},
		{`[{"id": 7, "value": [16]}]`, "User with ID 16 is a bot"},
		{`[{"id": 9, "value": "they/them"}, {"id": 1, "value": 7}]`, `data[1]["value"] is not a string or a list of integers`},
		{`[{"id": 9, "value": "they/them"}, {"id": 4, "value": "7"}]`, "'7' is not a valid choice for 'Favorite editor'."},
	} {
		status, body := e.setProfileData("othello@zulip.com", c.data)
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
	if after := e.profileData("othello@zulip.com", 12); !reflect.DeepEqual(before, after) {
		t.Fatalf("a refused request changed values: %v", after)
	}
	// Dates are checked as dates; administrators may change any field.
	status, body := e.setProfileData("iago@zulip.com", `[{"id": 5, "value": "2023-02-30"}]`)
	e.fail(status, body, 400, "BAD_REQUEST", "Birthday is not a date")
	e.ok(e.setProfileData("iago@zulip.com", `[{"id": 5, "value": "2023-02-28"}]`))
	e.ok(e.do("iago@zulip.com", "DELETE", "/users/14", nil))
	status, body = e.setProfileData("othello@zulip.com", `[{"id": 7, "value": [14]}]`)
	e.fail(status, body, 400, "BAD_REQUEST", "User with ID 14 is deactivated")
	status, body = e.setProfileData("default-bot@zulip.com", `[{"id": 1, "value": "1"}]`)
	e.fail(status, body, 400, "BAD_REQUEST", "This endpoint does not accept bot requests.")
}

func TestHTTPProfileDataValues(t *testing.T) {
	e := newUsersEnv(t)
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["realm_user"]`}})
	e.ok(e.setProfileData("othello@zulip.com", `[{"id": 2, "value": "**Moor**"}, {"id": 7, "value": [10, 11]}, {"id": 4, "value": "1"}]`))
	pd := e.profileData("hamlet@zulip.com", 12)
	want := map[string]any{
		"2": map[string]any{"value": "**Moor**", "rendered_value": "<p><strong>Moor</strong></p>"},
		"7": map[string]any{"value": "[10,11]"},
		"4": map[string]any{"value": "1"},
	}
	if !reflect.DeepEqual(pd, want) {
		t.Fatalf("profile_data\n got %v\nwant %v", pd, want)
	}
	evs := e.eventsOf("hamlet@zulip.com", qid, -1)
	wantEvs := []map[string]any{
		{"type": "realm_user", "op": "update", "person": map[string]any{"user_id": 12.0, "custom_profile_field": map[string]any{
			"id": 2.0, "value": "**Moor**", "rendered_value": "<p><strong>Moor</strong></p>"}}},
		{"type": "realm_user", "op": "update", "person": map[string]any{"user_id": 12.0, "custom_profile_field": map[string]any{
			"id": 7.0, "value": "[10,11]"}}},
		{"type": "realm_user", "op": "update", "person": map[string]any{"user_id": 12.0, "custom_profile_field": map[string]any{
			"id": 4.0, "value": "1"}}},
	}
	if !reflect.DeepEqual(evs, wantEvs) {
		t.Fatalf("events\n got %v\nwant %v", evs, wantEvs)
	}
	// The same value again is no change and no event.
	e.ok(e.setProfileData("othello@zulip.com", `[{"id": 4, "value": "1"}]`))
	if evs := e.eventsOf("hamlet@zulip.com", qid, 2); len(evs) != 0 {
		t.Fatalf("unchanged value sent %v", evs)
	}
	// Removing: unknown field refused, missing value no error.
	status, body := e.do("othello@zulip.com", "DELETE", "/users/me/profile_data", url.Values{"data": {"[2, 99]"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Field id 99 not found.")
	e.ok(e.do("othello@zulip.com", "DELETE", "/users/me/profile_data", url.Values{"data": {"[2, 3]"}}))
	if pd := e.profileData("hamlet@zulip.com", 12); len(pd) != 2 || pd["2"] != nil {
		t.Fatalf("after remove %v", pd)
	}
	evs = e.eventsOf("hamlet@zulip.com", qid, 2)
	if len(evs) != 1 || !reflect.DeepEqual(evs[0]["person"], map[string]any{"user_id": 12.0, "custom_profile_field": map[string]any{"id": 2.0, "value": nil}}) {
		t.Fatalf("remove events %v", evs)
	}
}
