package httpapi

import (
	"net/url"
	"strconv"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// The realm's edit history policy (358) replaced allow_edit_history:
// from 358 register sends the policy next to the boolean, PATCH /realm
// takes the policy and announces it by name; below it only the boolean
// exists, in register, PATCH /realm and events. "none" closes GET
// /messages/{id}/history at both levels.
func TestEditHistoryPolicyAtItsLevel(t *testing.T) {
	level := realm.ChangeEditHistoryPolicy.Level()
	for _, at := range []int{level - 1, level} {
		e := newChanEnv(t, realm.WithFeatureLevel(at, ""))
		_, sent := e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}, "content": {"one"}})
		mid := strconv.Itoa(int(sent["id"].(float64)))
		e.wantSuccess(e.do("hamlet@zulip.com", "PATCH", "/messages/"+mid, url.Values{"content": {"two"}}))
		e.wantSuccess(e.do("hamlet@zulip.com", "PATCH", "/messages/"+mid, url.Values{"topic": {"t2"}}))
		reg := e.realmSection("iago@zulip.com")
		if policy, ok := reg["realm_message_edit_history_visibility_policy"]; (at >= level) != ok || (ok && policy != "all") {
			t.Errorf("level %d: realm_message_edit_history_visibility_policy %v (sent %v)", at, policy, ok)
		}
		q, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["realm"]`}})
		form, wantAnswer, wantEvent := url.Values{"allow_edit_history": {"false"}}, map[string]any{"allow_edit_history": false},
			map[string]any{"type": "realm", "op": "update", "property": "allow_edit_history", "value": false}
		if at >= level {
			form = url.Values{"message_edit_history_visibility_policy": {"none"}}
			wantAnswer = map[string]any{"message_edit_history_visibility_policy": float64(3)}
			wantEvent = map[string]any{"type": "realm", "op": "update", "property": "message_edit_history_visibility_policy", "value": "none"}
		}
		body := e.success(e.patchRealm("iago@zulip.com", form))
		for k, v := range wantAnswer {
			if body[k] != v {
				t.Errorf("level %d: PATCH answered %v, want %s %v", at, body, k, v)
			}
		}
		evs := e.realmEvents("hamlet@zulip.com", q, -1)
		if len(evs) != 1 {
			t.Fatalf("level %d: events %v", at, evs)
		}
		for k, v := range wantEvent {
			if evs[0][k] != v {
				t.Errorf("level %d: event %v, want %s %v", at, evs[0], k, v)
			}
		}
		if reg := e.realmSection("iago@zulip.com"); reg["realm_allow_edit_history"] != false {
			t.Errorf("level %d: realm_allow_edit_history %v after turning history off", at, reg["realm_allow_edit_history"])
		}
		wantRefused(e, errBody(e.do("hamlet@zulip.com", "GET", "/messages/"+mid+"/history", nil)), 400, "BAD_REQUEST",
			"Message edit history is disabled in this organization")
		// The other name is ignored at each level.
		other := "message_edit_history_visibility_policy"
		if at >= level {
			other = "allow_edit_history"
		}
		body = e.success(e.patchRealm("iago@zulip.com", url.Values{other: {"true"}}))
		if ignored, _ := body["ignored_parameters_unsupported"].([]any); len(ignored) != 1 || ignored[0] != other {
			t.Errorf("level %d: %s not ignored: %v", at, other, body)
		}
		if at < level {
			continue
		}
		// "moves": the content-only edit is left out, the move kept
		// without its content diff.
		e.success(e.patchRealm("iago@zulip.com", url.Values{"message_edit_history_visibility_policy": {"moves"}}))
		if reg := e.realmSection("iago@zulip.com"); reg["realm_allow_edit_history"] != true {
			t.Errorf("moves: realm_allow_edit_history %v", reg["realm_allow_edit_history"])
		}
		hist := e.success(e.do("hamlet@zulip.com", "GET", "/messages/"+mid+"/history", nil))["message_history"].([]any)
		if len(hist) != 2 {
			t.Fatalf("moves: history %v", hist)
		}
		last := hist[1].(map[string]any)
		if last["prev_topic"] != "t" || last["prev_content"] != nil || last["content"] != "two" {
			t.Errorf("moves: last version %v", last)
		}
		wantRefused(e, errBody(e.patchRealm("iago@zulip.com", url.Values{"message_edit_history_visibility_policy": {"sometimes"}})),
			400, "BAD_REQUEST", "Invalid message_edit_history_visibility_policy")
	}
}

// PATCH /realm's settings newer than the level are ignored parameters
// there, and taken, stored and sent from their level on; the Jitsi
// server is checked, and "default" returns to the server's.
func TestPlainRealmSettingsAtTheirLevels(t *testing.T) {
	for _, c := range []struct {
		param, value, register string
		want                   any
	}{
		{"jitsi_server_url", `"https://jitsi.example.com"`, "realm_jitsi_server_url", "https://jitsi.example.com"},
		{"enable_guest_user_indicator", "false", "realm_enable_guest_user_indicator", false},
		{"require_unique_names", "true", "realm_require_unique_names", true},
		{"enable_guest_user_dm_warning", "false", "realm_enable_guest_user_dm_warning", false},
		{"require_e2ee_push_notifications", "true", "realm_require_e2ee_push_notifications", true},
		{"welcome_message_custom_text", "Hi!", "realm_welcome_message_custom_text", "Hi!"},
	} {
		level := 0
		for _, row := range realm.FeatureChanges() {
			if row.Where == "event realm update_dict data" && row.Field == c.param {
				level = row.Level
			}
		}
		below := newChanEnv(t, realm.WithFeatureLevel(level-1, ""))
		body := below.success(below.patchRealm("iago@zulip.com", url.Values{c.param: {c.value}}))
		if ignored, _ := body["ignored_parameters_unsupported"].([]any); len(ignored) != 1 || ignored[0] != c.param {
			t.Errorf("level %d: %s not ignored: %v", level-1, c.param, body)
		}
		at := newChanEnv(t, realm.WithFeatureLevel(level, ""))
		body = at.success(at.patchRealm("iago@zulip.com", url.Values{c.param: {c.value}}))
		if _, ok := body[c.param]; !ok || body["ignored_parameters_unsupported"] != nil {
			t.Errorf("level %d: %s answered %v", level, c.param, body)
		}
		if got := at.realmSection("iago@zulip.com")[c.register]; got != c.want {
			t.Errorf("level %d: %s %v, want %v", level, c.register, got, c.want)
		}
	}
	e := newChanEnv(t)
	e.success(e.patchRealm("iago@zulip.com", url.Values{"jitsi_server_url": {`"https://jitsi.example.com/"`}}))
	if reg := e.realmSection("iago@zulip.com"); reg["jitsi_server_url"] != "https://jitsi.example.com/" || reg["server_jitsi_server_url"] != "https://meet.jit.si" {
		t.Errorf("register's Jitsi servers %v %v", reg["jitsi_server_url"], reg["server_jitsi_server_url"])
	}
	q, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["realm"]`}})
	if body := e.success(e.patchRealm("iago@zulip.com", url.Values{"jitsi_server_url": {`"default"`}})); body["jitsi_server_url"] != nil {
		t.Errorf("default answered %v", body)
	}
	evs := e.realmEvents("hamlet@zulip.com", q, -1)
	if len(evs) != 1 || evs[0]["op"] != "update_dict" || evs[0]["data"].(map[string]any)["jitsi_server_url"] != nil {
		t.Errorf("events %v", evs)
	}
	if reg := e.realmSection("iago@zulip.com"); reg["realm_jitsi_server_url"] != nil || reg["jitsi_server_url"] != "https://meet.jit.si" {
		t.Errorf("after default: %v %v", reg["realm_jitsi_server_url"], reg["jitsi_server_url"])
	}
	for _, bad := range []string{`"ftp://example.com"`, `"not a url"`} {
		wantRefused(e, errBody(e.patchRealm("iago@zulip.com", url.Values{"jitsi_server_url": {bad}})), 400, "BAD_REQUEST", "jitsi_server_url is not an allowed_type")
	}
	wantRefused(e, errBody(e.patchRealm("iago@zulip.com", url.Values{"jitsi_server_url": {"12"}})), 400, "BAD_REQUEST", "jitsi_server_url is not a string")
	wantRefused(e, errBody(e.patchRealm("hamlet@zulip.com", url.Values{"require_unique_names": {"true"}})), 400, "UNAUTHORIZED_PRINCIPAL",
		"Must be an organization administrator")
}

// answer is a status and body, as one value.
type answer struct {
	status int
	body   map[string]any
}

func errBody(status int, body map[string]any) answer { return answer{status, body} }

// wantRefused is apiEnv.wantError of one answer.
func wantRefused(e *apiEnv, a answer, status int, code, msg string) {
	e.t.Helper()
	e.wantError(a.status, a.body, status, code, msg)
}

// POST /minizulip/push_notifications_enabled sets what register sends
// and refuses a missing or malformed value.
func TestControlPushNotificationsEnabled(t *testing.T) {
	e := newCtlEnv(t)
	e.ok(e.ctl("POST", "/minizulip/push_notifications_enabled", url.Values{"enabled": {"true"}, "end_timestamp": {"1900000000"}}))
	reg := e.realmSection("iago@zulip.com")
	if reg["realm_push_notifications_enabled"] != true || reg["realm_push_notifications_enabled_end_timestamp"] != float64(1900000000) {
		t.Errorf("register %v %v", reg["realm_push_notifications_enabled"], reg["realm_push_notifications_enabled_end_timestamp"])
	}
	status, body := e.ctl("POST", "/minizulip/push_notifications_enabled", nil)
	e.fail(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'enabled' argument")
	status, body = e.ctl("POST", "/minizulip/push_notifications_enabled", url.Values{"enabled": {"false"}, "end_timestamp": {"soon"}})
	e.fail(status, body, 400, "BAD_REQUEST", "end_timestamp is not an integer")
	e.ok(e.ctl("POST", "/minizulip/push_notifications_enabled", url.Values{"enabled": {"false"}, "end_timestamp": {"null"}}))
	if reg := e.realmSection("iago@zulip.com"); reg["realm_push_notifications_enabled"] != false || reg["realm_push_notifications_enabled_end_timestamp"] != nil {
		t.Errorf("after turning off: %v", reg)
	}
}
