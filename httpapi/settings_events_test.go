package httpapi

import (
	"net/url"
	"reflect"
	"testing"
)

// eventsOf are the events of queue qid after last, as objects.
func (e *apiEnv) eventsOf(email, qid string, last int) []map[string]any {
	e.t.Helper()
	var out []map[string]any
	for _, ev := range e.events(email, qid, last, false) {
		m := ev.(map[string]any)
		delete(m, "id")
		out = append(out, m)
	}
	return out
}

func TestHTTPSettingsEvents(t *testing.T) {
	e := newUsersEnv(t)
	modern, _ := e.register("hamlet@zulip.com", url.Values{
		"client_capabilities": {`{"notification_settings_null": true, "user_settings_object": true}`}})
	legacy, _ := e.register("hamlet@zulip.com", url.Values{"client_capabilities": {`{"notification_settings_null": true}`}})
	other, _ := e.register("othello@zulip.com", nil)
	e.ok(e.patchSettings("hamlet@zulip.com", url.Values{
		"default_language": {"de"}, "enable_sounds": {"false"}, "user_list_style": {"1"}, "web_home_view": {"recent_topics"},
		"emojiset": {"google"}, // unchanged: no event
	}))
	want := []map[string]any{
		{"type": "user_settings", "op": "update", "property": "default_language", "value": "de", "language_name": "German"},
		{"type": "user_settings", "op": "update", "property": "web_home_view", "value": "recent"},
		{"type": "user_settings", "op": "update", "property": "user_list_style", "value": 1.0},
		{"type": "user_settings", "op": "update", "property": "enable_sounds", "value": false},
	}
	if got := e.eventsOf("hamlet@zulip.com", modern, -1); !reflect.DeepEqual(got, want) {
		t.Fatalf("modern queue:\n got %v\nwant %v", got, want)
	}
	wantLegacy := []map[string]any{
		want[0],
		{"type": "update_display_settings", "user": "user10@zulipdev.com", "setting_name": "default_language", "setting": "de", "language_name": "German"},
		want[1],
		// web_home_view is in Zulip's display_settings_legacy (as default_view before 219).
		{"type": "update_display_settings", "user": "user10@zulipdev.com", "setting_name": "web_home_view", "setting": "recent"},
		want[2], want[3],
		{"type": "update_global_notifications", "user": "user10@zulipdev.com", "notification_name": "enable_sounds", "setting": false},
	}
	if got := e.eventsOf("hamlet@zulip.com", legacy, -1); !reflect.DeepEqual(got, wantLegacy) {
		t.Fatalf("legacy queue:\n got %v\nwant %v", got, wantLegacy)
	}
	if got := e.eventsOf("othello@zulip.com", other, -1); len(got) != 0 {
		t.Fatalf("another user heard of hamlet's settings: %v", got)
	}
}

func TestHTTPSettingsTimezoneEvents(t *testing.T) {
	e := newUsersEnv(t)
	own, _ := e.register("hamlet@zulip.com", url.Values{"client_capabilities": {`{"notification_settings_null": true, "user_settings_object": true}`}})
	other, _ := e.register("othello@zulip.com", url.Values{"event_types": {`["realm_user", "user_settings"]`}})
	e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"timezone": {"Europe/Paris"}}))
	person := map[string]any{"type": "realm_user", "op": "update", "person": map[string]any{
		"email": "user10@zulipdev.com", "user_id": 10.0, "timezone": "Europe/Paris"}}
	want := []map[string]any{{"type": "user_settings", "op": "update", "property": "timezone", "value": "Europe/Paris"}, person}
	if got := e.eventsOf("hamlet@zulip.com", own, -1); !reflect.DeepEqual(got, want) {
		t.Fatalf("own:\n got %v\nwant %v", got, want)
	}
	if got := e.eventsOf("othello@zulip.com", other, -1); !reflect.DeepEqual(got, []map[string]any{person}) {
		t.Fatalf("other: %v", got)
	}
	if _, body := e.do("othello@zulip.com", "GET", "/users/10", nil); body["user"].(map[string]any)["timezone"] != "Europe/Paris" {
		t.Fatalf("user object %v", body)
	}
}

func TestHTTPTranslateEmoticons(t *testing.T) {
	e := newUsersEnv(t)
	render := func() string {
		_, body := e.do("hamlet@zulip.com", "POST", "/messages/render", url.Values{"content": {"hi :)"}})
		return body["rendered"].(string)
	}
	if got := render(); got != "<p>hi :)</p>" {
		t.Fatalf("off: %s", got)
	}
	e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"translate_emoticons": {"true"}}))
	if got := render(); got != `<p>hi <span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>` {
		t.Fatalf("on: %s", got)
	}
	// Sent messages follow the sender's setting, not the reader's.
	_, body := e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}, "content": {"ok :)"}})
	id := jsonNumber(body["id"])
	_, body = e.do("othello@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}, "content": {"ok :)"}})
	otherID := jsonNumber(body["id"])
	if m := e.message("othello@zulip.com", id); m["content"] != `<p>ok <span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>` {
		t.Fatalf("hamlet's message %v", m["content"])
	}
	if m := e.message("hamlet@zulip.com", otherID); m["content"] != "<p>ok :)</p>" {
		t.Fatalf("othello's message %v", m["content"])
	}
}
