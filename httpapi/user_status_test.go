package httpapi

import (
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"
)

// statusOf is GET /users/{id}/status as iago.
func (e *apiEnv) statusOf(id string) map[string]any {
	e.t.Helper()
	return e.ok(e.do("iago@zulip.com", "GET", "/users/"+id+"/status", nil))["status"].(map[string]any)
}

// eventsOfType polls a queue without blocking and keeps one event type.
func (e *apiEnv) eventsOfType(email, queueID, typ string) []map[string]any {
	e.t.Helper()
	var out []map[string]any
	for _, ev := range e.events(email, queueID, -1, false) {
		if m := ev.(map[string]any); m["type"] == typ {
			delete(m, "id")
			out = append(out, m)
		}
	}
	return out
}

func TestHTTPUserStatusSetGetAndEvents(t *testing.T) {
	e := newUsersEnv(t)
	if got := e.statusOf("10"); len(got) != 0 {
		t.Fatalf("hamlet has no status yet: %v", got)
	}
	iagoQ, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["user_status"]`}})
	hamletQ, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["user_status"]`}})
	botQ, _ := e.register("default-bot@zulip.com", url.Values{"event_types": {`["user_status"]`}})

	// Only the emoji name is needed; code and type come from the table.
	e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/status", url.Values{"status_text": {"  on vacation "}, "emoji_name": {"car"}}))
	want := map[string]any{"status_text": "on vacation", "emoji_name": "car", "emoji_code": "1f697", "reaction_type": "unicode_emoji"}
	if got := e.statusOf("10"); !reflect.DeepEqual(got, want) {
		t.Fatalf("status %v, want %v", got, want)
	}
	wantEv := map[string]any{"type": "user_status", "user_id": float64(10), "status_text": "on vacation",
		"emoji_name": "car", "emoji_code": "1f697", "reaction_type": "unicode_emoji"}
	for _, q := range []struct{ email, id string }{{"iago@zulip.com", iagoQ}, {"hamlet@zulip.com", hamletQ}, {"default-bot@zulip.com", botQ}} {
		if evs := e.eventsOfType(q.email, q.id, "user_status"); len(evs) != 1 || !reflect.DeepEqual(evs[0], wantEv) {
			t.Fatalf("%s got %v, want one %v", q.email, evs, wantEv)
		}
	}

	// A change of the text alone keeps the emoji and sends only the text.
	e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/status", url.Values{"status_text": {"back soon"}}))
	if got := e.statusOf("10"); got["status_text"] != "back soon" || got["emoji_name"] != "car" {
		t.Fatalf("status %v", got)
	}
	evs := e.eventsOfType("iago@zulip.com", iagoQ, "user_status")
	if last := evs[len(evs)-1]; !reflect.DeepEqual(last, map[string]any{"type": "user_status", "user_id": float64(10), "status_text": "back soon"}) {
		t.Fatalf("text-only event %v", last)
	}

	// An empty emoji_name clears the emoji, announced with empty strings.
	e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/status", url.Values{"emoji_name": {""}}))
	if got := e.statusOf("10"); !reflect.DeepEqual(got, map[string]any{"status_text": "back soon"}) {
		t.Fatalf("status after clearing the emoji %v", got)
	}
	evs = e.eventsOfType("iago@zulip.com", iagoQ, "user_status")
	if last := evs[len(evs)-1]; last["emoji_name"] != "" || last["emoji_code"] != "" || last["reaction_type"] != "unicode_emoji" || last["status_text"] != nil {
		t.Fatalf("clearing event %v", last)
	}

	// Custom and built-in emoji.
	e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/status", url.Values{"emoji_name": {"green_tick"}}))
	if got := e.statusOf("10"); got["emoji_code"] != "1" || got["reaction_type"] != "realm_emoji" {
		t.Fatalf("custom emoji status %v", got)
	}
	e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/status", url.Values{"emoji_name": {"zulip"}}))
	if got := e.statusOf("10"); got["emoji_code"] != "zulip" || got["reaction_type"] != "zulip_extra_emoji" {
		t.Fatalf("built-in emoji status %v", got)
	}
	// An alias with its code and type is fine too.
	e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/status", url.Values{"emoji_name": {"love"}, "emoji_code": {"2764"}, "reaction_type": {"unicode_emoji"}}))
	if got := e.statusOf("10"); got["emoji_name"] != "love" || got["emoji_code"] != "2764" {
		t.Fatalf("alias status %v", got)
	}
}

func TestHTTPUserStatusBadInput(t *testing.T) {
	e := newUsersEnv(t)
	e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/status", url.Values{"status_text": {"lunch"}, "emoji_name": {"car"}}))
	qid, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["user_status","user_settings"]`}})
	before := e.statusOf("10")
	exactly60 := strings.Repeat("é", 60)
	for _, c := range []struct {
		form url.Values
		msg  string
	}{
		{url.Values{}, "Client did not pass any new values."},
		{url.Values{"status_text": {exactly60 + "x"}}, "status_text is too long (limit: 60 characters)"},
		// An emoji code alone is nothing new (Zulip checks that first).
		{url.Values{"emoji_code": {"1f697"}}, "Client did not pass any new values."},
		{url.Values{"status_text": {"x"}, "reaction_type": {"unicode_emoji"}}, "Client must pass emoji_name if they pass either emoji_code or reaction_type."},
		{url.Values{"emoji_name": {"no_such_emoji"}}, "Emoji 'no_such_emoji' does not exist"},
		{url.Values{"emoji_name": {"car"}, "emoji_code": {"1f600"}}, "Invalid emoji name."},
		{url.Values{"emoji_name": {"car"}, "emoji_code": {"zzzz"}}, "Invalid emoji code."},
		{url.Values{"emoji_name": {"car"}, "emoji_code": {"1f697"}, "reaction_type": {"gif"}}, "Invalid emoji type."},
		{url.Values{"emoji_name": {"car"}, "emoji_code": {"99"}, "reaction_type": {"realm_emoji"}}, "Invalid custom emoji."},
		{url.Values{"emoji_name": {"car"}, "emoji_code": {"1"}, "reaction_type": {"realm_emoji"}}, "Invalid custom emoji name."},
		{url.Values{"emoji_name": {"car"}, "emoji_code": {"car"}, "reaction_type": {"zulip_extra_emoji"}}, "Invalid emoji code."},
		{url.Values{"emoji_name": {"car"}, "emoji_code": {"zulip"}, "reaction_type": {"zulip_extra_emoji"}}, "Invalid emoji name."},
		// A bad emoji refuses the whole request: away is not applied either.
		{url.Values{"away": {"true"}, "emoji_name": {"no_such_emoji"}}, "Emoji 'no_such_emoji' does not exist"},
		{url.Values{"away": {"maybe"}}, "away is not a boolean"},
	} {
		status, body := e.do("hamlet@zulip.com", "POST", "/users/me/status", c.form)
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
	if after := e.statusOf("10"); !reflect.DeepEqual(after, before) {
		t.Fatalf("refused requests changed the status: %v -> %v", before, after)
	}
	if evs := e.events("iago@zulip.com", qid, -1, false); len(evs) != 0 {
		t.Fatalf("refused requests sent events: %v", evs)
	}
	// 60 characters after trimming are fine.
	e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/status", url.Values{"status_text": {" " + exactly60 + " "}}))
	if got := e.statusOf("10"); got["status_text"] != exactly60 {
		t.Fatalf("status %v", got)
	}

	status, body := e.do("default-bot@zulip.com", "POST", "/users/me/status", url.Values{"status_text": {"beep"}})
	e.fail(status, body, 400, "BAD_REQUEST", "This endpoint does not accept bot requests.")
	for _, path := range []string{"/users/9999/status", "/users/16/status"} {
		status, body = e.do("iago@zulip.com", "GET", path, nil)
		e.fail(status, body, 400, "BAD_REQUEST", "No such user")
	}
	e.ok(e.do("iago@zulip.com", "DELETE", "/users/10", nil))
	status, body = e.do("iago@zulip.com", "GET", "/users/10/status", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "User is deactivated")
	// Zulip's literal users/me/status (POST only) comes before
	// users/<int:user_id>/status: GET on it is a 405.
	status, _ = e.do("iago@zulip.com", "GET", "/users/me/status", nil)
	if status != 405 {
		t.Fatalf("GET /users/me/status: %d, want 405", status)
	}
}

func TestHTTPUserStatusRegisterState(t *testing.T) {
	e := newUsersEnv(t)
	e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/status", url.Values{"status_text": {"busy"}, "emoji_name": {"green_tick"}}))
	// A status set and then emptied is no status.
	e.ok(e.do("othello@zulip.com", "POST", "/users/me/status", url.Values{"status_text": {"gone"}}))
	e.ok(e.do("othello@zulip.com", "POST", "/users/me/status", url.Values{"status_text": {""}}))
	// Away alone is a status.
	e.ok(e.do("cordelia@zulip.com", "POST", "/users/me/status", url.Values{"away": {"true"}}))
	_, body := e.register("iago@zulip.com", url.Values{"fetch_event_types": {`["user_status"]`}})
	want := map[string]any{
		"10": map[string]any{"status_text": "busy", "emoji_name": "green_tick", "emoji_code": "1", "reaction_type": "realm_emoji"},
		"8":  map[string]any{"away": true},
	}
	if got := body["user_status"]; !reflect.DeepEqual(got, want) {
		t.Fatalf("user_status %v, want %v", got, want)
	}
	// Deactivated users' statuses are not sent.
	e.ok(e.do("iago@zulip.com", "DELETE", "/users/10", nil))
	_, body = e.register("iago@zulip.com", url.Values{"fetch_event_types": {`["user_status"]`}})
	if got := body["user_status"].(map[string]any); len(got) != 1 || got["8"] == nil {
		t.Fatalf("user_status after deactivation %v", got)
	}
}

// away is the inverse of presence_enabled: setting it changes the
// setting, tells the user's clients in both event forms, and shows the
// realm the user offline (or back online).
func TestHTTPUserStatusAwayIsPresenceEnabled(t *testing.T) {
	e := newUsersEnv(t)
	joined := e.clock.Now().Unix()
	e.clock.Advance(time.Hour)
	now := e.clock.Now().Unix()
	e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/presence", url.Values{"status": {"active"}, "ping_only": {"true"}}))
	modernQ, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["user_settings","update_global_notifications"]`},
		"client_capabilities": {`{"notification_settings_null": true, "user_settings_object": true}`}})
	legacyQ, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["user_settings","update_global_notifications"]`}})
	iagoQ, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["user_settings","update_global_notifications","presence","user_status"]`},
		"slim_presence": {"true"}})

	e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/status", url.Values{"away": {"true"}}))
	if got := e.statusOf("10"); !reflect.DeepEqual(got, map[string]any{"away": true}) {
		t.Fatalf("status %v", got)
	}
	_, body := e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["user_settings"]`}})
	if body["user_settings"].(map[string]any)["presence_enabled"] != false {
		t.Fatal("away=true leaves presence_enabled on")
	}
	setting := map[string]any{"type": "user_settings", "op": "update", "property": "presence_enabled", "value": false}
	if evs := e.eventsOfType("hamlet@zulip.com", modernQ, "user_settings"); len(evs) != 1 || !reflect.DeepEqual(evs[0], setting) {
		t.Fatalf("user_settings events %v", evs)
	}
	if evs := e.eventsOfType("hamlet@zulip.com", modernQ, "update_global_notifications"); len(evs) != 0 {
		t.Fatalf("user_settings_object queue got legacy events %v", evs)
	}
	legacy := map[string]any{"type": "update_global_notifications", "user": "user10@zulipdev.com", "notification_name": "presence_enabled", "setting": false}
	if evs := e.eventsOfType("hamlet@zulip.com", legacyQ, "update_global_notifications"); len(evs) != 1 || !reflect.DeepEqual(evs[0], legacy) {
		t.Fatalf("legacy events %v", evs)
	}
	if evs := e.eventsOfType("iago@zulip.com", iagoQ, "user_settings"); len(evs) != 0 {
		t.Fatalf("another user got hamlet's settings: %v", evs)
	}
	// The realm sees hamlet as last online long enough ago to be offline.
	offline := now - 320
	wantPresence := map[string]any{"type": "presence", "user_id": float64(10), "server_timestamp": float64(now),
		"presence": map[string]any{"website": map[string]any{"client": "website", "status": "idle", "timestamp": float64(offline), "pushable": false}}}
	if evs := e.eventsOfType("iago@zulip.com", iagoQ, "presence"); len(evs) != 1 || !reflect.DeepEqual(evs[0], wantPresence) {
		t.Fatalf("presence events %v, want %v", evs, wantPresence)
	}
	if evs := e.eventsOfType("iago@zulip.com", iagoQ, "user_status"); len(evs) != 1 || evs[0]["away"] != true {
		t.Fatalf("user_status events %v", evs)
	}
	// While away, pings do not move hamlet's presence.
	e.clock.Advance(90e9)
	e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/presence", url.Values{"status": {"active"}, "ping_only": {"true"}}))
	// (Never active since: the active time reads as the join time.)
	if got := e.presenceOf("10"); got["active_timestamp"] != float64(joined) || got["idle_timestamp"] != float64(offline) {
		t.Fatalf("presence while away %v", got)
	}
	// Back: presence_enabled on, online at once.
	e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/status", url.Values{"away": {"false"}}))
	if got := e.statusOf("10"); len(got) != 0 {
		t.Fatalf("status after away=false %v", got)
	}
	back := now + 90
	if got := e.presenceOf("10"); got["active_timestamp"] != float64(back) || got["idle_timestamp"] != float64(back) {
		t.Fatalf("presence after coming back %v", got)
	}
}

// POST /users/{user_id}/status: administrators set another user's status.
func TestHTTPUpdateStatusForUser(t *testing.T) {
	e := newUsersEnv(t)
	qid, _ := e.register("cordelia@zulip.com", url.Values{"event_types": {`["user_status"]`}})
	e.ok(e.do("iago@zulip.com", "POST", "/users/10/status", url.Values{"status_text": {"in a meeting"}, "emoji_name": {"car"}}))
	if got := e.statusOf("10"); got["status_text"] != "in a meeting" || got["emoji_name"] != "car" || got["emoji_code"] != "1f697" {
		t.Fatalf("hamlet's status set by iago: %v", got)
	}
	evs := e.eventsOfType("cordelia@zulip.com", qid, "user_status")
	if len(evs) != 1 || evs[0]["user_id"] != float64(10) || evs[0]["status_text"] != "in a meeting" {
		t.Fatalf("user_status events %v", evs)
	}
	for _, c := range []struct {
		email, path string
		form        url.Values
		msg         string
	}{
		{"hamlet@zulip.com", "/users/8/status", url.Values{"status_text": {"hacked"}}, "Insufficient permission"},
		{"iago@zulip.com", "/users/9999/status", url.Values{"status_text": {"x"}}, "No such user"},
		{"iago@zulip.com", "/users/10/status", nil, "Client did not pass any new values."},
		{"iago@zulip.com", "/users/10/status", url.Values{"status_text": {strings.Repeat("x", 61)}}, "status_text is too long (limit: 60 characters)"},
	} {
		status, body := e.do(c.email, "POST", c.path, c.form)
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
	if got := e.statusOf("10"); got["status_text"] != "in a meeting" {
		t.Fatalf("a refused request changed the status: %v", got)
	}
	if got := e.statusOf("8"); len(got) != 0 {
		t.Fatalf("a refused request set cordelia's status: %v", got)
	}
}
