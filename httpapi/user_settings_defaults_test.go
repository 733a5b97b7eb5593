package httpapi

import (
	"net/url"
	"testing"
)

func TestHTTPUserSettingsDefaults(t *testing.T) {
	e := newMsgEnv(t)
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["realm_user_settings_defaults"]`}})
	status, body := e.do("hamlet@zulip.com", "PATCH", "/realm/user_settings_defaults", url.Values{"enter_sends": {"true"}})
	e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	status, body = e.do("iago@zulip.com", "PATCH", "/realm/user_settings_defaults", url.Values{"enter_sends": {"maybe"}})
	e.fail(status, body, 400, "BAD_REQUEST", "enter_sends is not a boolean")
	status, body = e.do("iago@zulip.com", "PATCH", "/realm/user_settings_defaults",
		url.Values{"enter_sends": {"true"}, "web_home_view": {`"recent"`}, "not_a_setting": {"1"}})
	e.wantSuccess(status, body)
	if ignored, _ := body["ignored_parameters_unsupported"].([]any); len(ignored) != 1 || ignored[0] != "not_a_setting" {
		t.Fatalf("answer %v", body)
	}
	_, state := e.register("othello@zulip.com", url.Values{"fetch_event_types": {`["realm_user_settings_defaults"]`}})
	d := state["realm_user_settings_defaults"].(map[string]any)
	if d["enter_sends"] != true || d["web_home_view"] != "recent_topics" && d["web_home_view"] != "recent" {
		t.Fatalf("defaults %v", d)
	}
	evs := e.events("hamlet@zulip.com", qid, -1, false)
	if len(evs) != 2 {
		t.Fatalf("events %v", evs)
	}
}
