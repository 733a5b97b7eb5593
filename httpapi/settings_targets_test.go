package httpapi

import (
	"net/url"
	"reflect"
	"testing"
)

// targetSettings reads one setting of several users.
func (e *apiEnv) targetSettings(name string, emails ...string) []any {
	e.t.Helper()
	var out []any
	for _, email := range emails {
		out = append(out, e.userSettings(email)[name])
	}
	return out
}

func TestHTTPSettingsTargetUsersNeedAnAdministrator(t *testing.T) {
	e := newUsersEnv(t)
	for _, email := range []string{"hamlet@zulip.com", "shiva@zulip.com"} {
		status, body := e.patchSettings(email, url.Values{"target_users": {`{"user_ids": [6]}`}, "color_scheme": {"2"}})
		e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	}
	if got := e.targetSettings("color_scheme", "AARON@zulip.com", "hamlet@zulip.com"); !reflect.DeepEqual(got, []any{1.0, 1.0}) {
		t.Fatalf("changed: %v", got)
	}
}

func TestHTTPSettingsTargetUsersValidation(t *testing.T) {
	e := newUsersEnv(t)
	for _, c := range []struct {
		form url.Values
		msg  string
	}{
		{url.Values{"target_users": {`{}`}}, "target_users must name user_ids or group_ids"},
		{url.Values{"target_users": {`{"user_ids": [6, 999]}`}, "color_scheme": {"2"}}, "Invalid user ID: 999"},
		{url.Values{"target_users": {`{"user_ids": [6, 1]}`}, "color_scheme": {"2"}}, "Invalid user ID: 1"}, // a system bot
		{url.Values{"target_users": {`{"user_ids": [6], "group_ids": [999]}`}, "color_scheme": {"2"}}, "Invalid user group"},
		{url.Values{"target_users": {`{"user_ids": [6]}`}, "timezone": {"UTC"}}, "timezone cannot be changed for other users"},
		{url.Values{"target_users": {`{"user_ids": [6]}`}, "email": {"a@b.example"}}, "email cannot be changed for other users"},
		{url.Values{"target_users": {`{"user_ids": [6]}`}, "old_password": {"zulip"}, "new_password": {"x"}}, "new_password cannot be changed for other users"},
		{url.Values{"target_users": {`{"user_ids": [6, 10]}`}, "color_scheme": {"2"}, "emojiset": {"apple"}}, "Invalid emojiset"},
	} {
		status, body := e.patchSettings("iago@zulip.com", c.form)
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
	// Nobody changed: every target and value is checked before any applies.
	if got := e.targetSettings("color_scheme", "AARON@zulip.com", "hamlet@zulip.com", "iago@zulip.com"); !reflect.DeepEqual(got, []any{1.0, 1.0, 1.0}) {
		t.Fatalf("changed: %v", got)
	}
}

func TestHTTPSettingsTargetUsers(t *testing.T) {
	e := newUsersEnv(t)
	// Deactivated users listed by ID are updated; bots are left out.
	e.ok(e.do("iago@zulip.com", "DELETE", "/users/14", nil))
	hamlet, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["user_settings"]`}})
	iago, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["user_settings"]`}})
	e.ok(e.patchSettings("iago@zulip.com", url.Values{"target_users": {`{"user_ids": [10, 14, 16]}`}, "color_scheme": {"2"}}))
	if got := e.targetSettings("color_scheme", "hamlet@zulip.com", "iago@zulip.com"); !reflect.DeepEqual(got, []any{2.0, 1.0}) {
		t.Fatalf("targets: %v", got)
	}
	want := []map[string]any{{"type": "user_settings", "op": "update", "property": "color_scheme", "value": 2.0}}
	if got := e.eventsOf("hamlet@zulip.com", hamlet, -1); !reflect.DeepEqual(got, want) {
		t.Fatalf("target's events %v", got)
	}
	if got := e.eventsOf("iago@zulip.com", iago, -1); len(got) != 0 {
		t.Fatalf("the administrator, no target, got %v", got)
	}
	e.ok(e.do("iago@zulip.com", "POST", "/users/14/reactivate", nil))
	if got := e.targetSettings("color_scheme", "prospero@zulip.com", "default-bot@zulip.com"); !reflect.DeepEqual(got, []any{2.0, 1.0}) {
		t.Fatalf("deactivated user and bot: %v", got)
	}
}

// groupID finds a user group's ID by name.
func (e *apiEnv) groupID(name string) string {
	e.t.Helper()
	_, body := e.do("iago@zulip.com", "GET", "/user_groups", nil)
	for _, g := range body["user_groups"].([]any) {
		if g := g.(map[string]any); g["name"] == name {
			return jsonNumber(g["id"])
		}
	}
	e.t.Fatalf("no group %s", name)
	return ""
}

func TestHTTPSettingsTargetGroups(t *testing.T) {
	e := newUsersEnv(t)
	// role:administrators reaches desdemona through role:owners.
	mods := e.groupID("role:administrators")
	e.ok(e.patchSettings("iago@zulip.com", url.Values{"target_users": {`{"group_ids": [` + mods + `]}`}, "user_list_style": {"3"}}))
	got := e.targetSettings("user_list_style", "iago@zulip.com", "desdemona@zulip.com", "shiva@zulip.com", "hamlet@zulip.com")
	if !reflect.DeepEqual(got, []any{3.0, 3.0, 2.0, 2.0}) {
		t.Fatalf("group targets: %v", got)
	}
}

func TestHTTPSettingsSkipIfAlreadyEdited(t *testing.T) {
	e := newUsersEnv(t)
	e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"emojiset": {"text"}}))
	e.ok(e.patchSettings("iago@zulip.com", url.Values{"target_users": {`{"user_ids": [10, 12], "skip_if_already_edited": true}`},
		"emojiset": {"twitter"}, "color_scheme": {"3"}}))
	// Skipped per setting: hamlet chose his emoji set, not his color scheme.
	if got := e.targetSettings("emojiset", "hamlet@zulip.com", "othello@zulip.com"); !reflect.DeepEqual(got, []any{"text", "twitter"}) {
		t.Fatalf("emojiset %v", got)
	}
	if got := e.targetSettings("color_scheme", "hamlet@zulip.com", "othello@zulip.com"); !reflect.DeepEqual(got, []any{3.0, 3.0}) {
		t.Fatalf("color_scheme %v", got)
	}
	// An administrator's update does not count as the user's own edit.
	e.ok(e.patchSettings("iago@zulip.com", url.Values{"target_users": {`{"user_ids": [12], "skip_if_already_edited": true}`}, "emojiset": {"google"}}))
	if got := e.targetSettings("emojiset", "othello@zulip.com"); !reflect.DeepEqual(got, []any{"google"}) {
		t.Fatalf("othello %v", got)
	}
	// Without the flag, everyone is updated.
	e.ok(e.patchSettings("iago@zulip.com", url.Values{"target_users": {`{"user_ids": [10]}`}, "emojiset": {"google"}}))
	if got := e.targetSettings("emojiset", "hamlet@zulip.com"); !reflect.DeepEqual(got, []any{"google"}) {
		t.Fatalf("hamlet %v", got)
	}
}
