package httpapi

import (
	"net/url"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// zulip-flutter registers with idle_queue_timeout JSON-encoded
// (lib/api/route/events.dart): in strict mode too the register succeeds
// and answers idle_queue_timeout_secs, as Zulip 12.0 (feature level 481)
// does; a bad value is refused and opens no queue.
func TestRegisterIdleQueueTimeout(t *testing.T) {
	e := newCtlEnv(t, WithStrict(true))
	caps := `{"notification_settings_null":true,"bulk_message_deletion":true,"user_avatar_url_field_optional":false,` +
		`"stream_typing_notifications":true,"user_settings_object":true,"include_deactivated_groups":true,"empty_topic_name":true}`
	for raw, want := range map[string]float64{`"mobile"`: 43200, "3600": 3600, "99999999": 604800} {
		status, body := e.do("iago@zulip.com", "POST", "/register", url.Values{"idle_queue_timeout": {raw},
			"apply_markdown": {"true"}, "client_gravatar": {"false"}, "slim_presence": {"true"},
			"client_capabilities": {caps}, "fetch_event_types": {`["realm"]`}})
		out := e.ok(status, body)
		if out["idle_queue_timeout_secs"] != want {
			t.Errorf("%s: idle_queue_timeout_secs %v, want %v", raw, out["idle_queue_timeout_secs"], want)
		}
	}
	before := e.realm.QueueCount()
	for _, raw := range []string{"0", "-1", "forever", "1.5"} {
		status, body := e.do("iago@zulip.com", "POST", "/register", url.Values{"idle_queue_timeout": {raw}})
		e.fail(status, body, 400, "BAD_REQUEST", `idle_queue_timeout is not a positive integer or "mobile"`)
	}
	if e.realm.QueueCount() != before {
		t.Fatal("a refused register opened a queue")
	}

	// Below feature level 481 the parameter is unknown, as on Zulip 11.
	ts := RunT(t, realm.WithFeatureLevel(realm.ChangeIdleQueueTimeout.Level()-1, "11.0"))
	resp, raw := rawDo(t, ts.NewRequest("iago@zulip.com", "POST", "/register",
		url.Values{"idle_queue_timeout": {"3600"}, "fetch_event_types": {`[]`}}))
	out := srvDecode(t, raw)
	ign, _ := out["ignored_parameters_unsupported"].([]any)
	if resp.StatusCode != 200 || len(ign) != 1 || ign[0] != "idle_queue_timeout" {
		t.Fatalf("level 480: %d %v", resp.StatusCode, out)
	}
	if _, ok := out["idle_queue_timeout_secs"]; ok {
		t.Fatal("level 480 answered idle_queue_timeout_secs")
	}
}
