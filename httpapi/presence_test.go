package httpapi

import (
	"net/url"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
)

// newPresenceEnv is a dev realm whose users joined an hour before the
// tests start reporting presence.
func newPresenceEnv(t *testing.T, opts ...realm.Option) *apiEnv {
	e := newAPIEnv(t, time.Date(2026, 9, 10, 11, 12, 13, 0, time.UTC), opts...)
	e.clock.Advance(time.Hour)
	return e
}

// ping reports email's presence without fetching anyone's.
func (e *apiEnv) ping(email, status string) {
	e.t.Helper()
	body := e.ok(e.do(email, "POST", "/users/me/presence", url.Values{"status": {status}, "ping_only": {"true"}}))
	if len(body) != 2 {
		e.t.Fatalf("ping_only answer %v, want only result and msg", body)
	}
}

// presenceOf is one user's modern presence as register reports it to
// iago; nil when it is not reported.
func (e *apiEnv) presenceOf(id string) map[string]any {
	e.t.Helper()
	_, body := e.register("iago@zulip.com", url.Values{"fetch_event_types": {`["presence"]`}, "slim_presence": {"true"}})
	p, _ := body["presences"].(map[string]any)[id].(map[string]any)
	return p
}

// presencePost is POST /users/me/presence as email.
func (e *apiEnv) presencePost(email string, form url.Values) map[string]any {
	e.t.Helper()
	return e.ok(e.do(email, "POST", "/users/me/presence", form))
}

func keysOf(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func modern(active, idle int64) map[string]any {
	return map[string]any{"active_timestamp": float64(active), "idle_timestamp": float64(idle)}
}

func legacy(status string, ts int64) map[string]any {
	return map[string]any{
		"website":    map[string]any{"client": "website", "status": status, "timestamp": float64(ts), "pushable": false},
		"aggregated": map[string]any{"client": "website", "status": status, "timestamp": float64(ts)},
	}
}

func TestHTTPPresenceFormatsAndIncrementalFetch(t *testing.T) {
	e := newPresenceEnv(t)
	t0 := e.clock.Now().Unix()

	// Without slim_presence or last_update_id: the legacy format, by email.
	body := e.presencePost("hamlet@zulip.com", url.Values{"status": {"active"}, "new_user_input": {"true"}})
	if got := keysOf(body); !slices.Equal(got, []string{"msg", "presence_last_update_id", "presences", "result", "server_timestamp"}) {
		t.Fatalf("answer keys %v", got)
	}
	want := map[string]any{"user10@zulipdev.com": legacy("active", t0)}
	if !reflect.DeepEqual(body["presences"], want) || body["presence_last_update_id"] != float64(1) || body["server_timestamp"] != float64(t0) {
		t.Fatalf("legacy answer %v, want presences %v", body, want)
	}

	// slim_presence: the modern format, by user ID.
	body = e.presencePost("iago@zulip.com", url.Values{"status": {"idle"}, "slim_presence": {"true"}})
	want = map[string]any{"10": modern(t0, t0), "11": modern(t0-3600, t0)}
	if !reflect.DeepEqual(body["presences"], want) || body["presence_last_update_id"] != float64(2) {
		t.Fatalf("slim answer %v, want presences %v", body, want)
	}

	// last_update_id: the modern format, only what changed after it.
	body = e.presencePost("iago@zulip.com", url.Values{"status": {"idle"}, "last_update_id": {"-1"}})
	if !reflect.DeepEqual(body["presences"], want) || body["presence_last_update_id"] != float64(2) {
		t.Fatalf("last_update_id=-1 answer %v", body)
	}
	body = e.presencePost("iago@zulip.com", url.Values{"status": {"idle"}, "last_update_id": {"2"}})
	if len(body["presences"].(map[string]any)) != 0 || body["presence_last_update_id"] != float64(2) {
		t.Fatalf("nothing new: %v", body)
	}

	// A ping within a minute of the last changes nothing.
	e.clock.Advance(30 * time.Second)
	e.ping("hamlet@zulip.com", "active")
	body = e.presencePost("iago@zulip.com", url.Values{"status": {"idle"}, "last_update_id": {"2"}})
	if len(body["presences"].(map[string]any)) != 0 || body["presence_last_update_id"] != float64(2) {
		t.Fatalf("a ping 30 s later moved the presence: %v", body)
	}

	// An idle ping later moves only the idle time (iago's own, sent with
	// the fetch, too); in the legacy format the user is idle once the
	// active time is over 70 s older.
	e.clock.Advance(60 * time.Second)
	e.ping("hamlet@zulip.com", "idle")
	body = e.presencePost("iago@zulip.com", url.Values{"status": {"idle"}, "last_update_id": {"2"}})
	want = map[string]any{"10": modern(t0, t0+90), "11": modern(t0-3600, t0+90)}
	if !reflect.DeepEqual(body["presences"], want) || body["presence_last_update_id"] != float64(4) {
		t.Fatalf("after hamlet's idle ping: %v", body)
	}
	body = e.ok(e.do("iago@zulip.com", "GET", "/realm/presence", nil))
	if got := keysOf(body); !slices.Equal(got, []string{"msg", "presences", "result", "server_timestamp"}) {
		t.Fatalf("GET /realm/presence keys %v", got)
	}
	if got := body["presences"].(map[string]any)["user10@zulipdev.com"]; !reflect.DeepEqual(got, legacy("idle", t0+90)) {
		t.Fatalf("hamlet in /realm/presence %v", got)
	}
	// An active ping makes the user active in both formats.
	e.ping("hamlet@zulip.com", "active")
	if got := e.presenceOf("10"); !reflect.DeepEqual(got, modern(t0+90, t0+90)) {
		t.Fatalf("after the active ping %v", got)
	}
}

func TestHTTPPresenceHistoryBotsAndDeactivated(t *testing.T) {
	e := newPresenceEnv(t)
	e.ping("othello@zulip.com", "active") // update 1
	e.ping("hamlet@zulip.com", "active")  // update 2
	e.clock.Advance(15 * 24 * time.Hour)
	e.ping("iago@zulip.com", "active") // update 3
	t1 := e.clock.Now().Unix()

	ids := func(form url.Values) []string {
		form.Set("status", "active")
		form.Set("slim_presence", "true")
		return keysOf(e.presencePost("iago@zulip.com", form)["presences"].(map[string]any))
	}
	// Presence older than 14 days is left out, unless more days are asked
	// for or a positive last_update_id makes the history limit moot.
	for _, c := range []struct {
		form url.Values
		want []string
	}{
		{url.Values{}, []string{"11"}},
		{url.Values{"history_limit_days": {"30"}}, []string{"10", "11", "12"}},
		{url.Values{"last_update_id": {"0"}}, []string{"11"}},
		{url.Values{"last_update_id": {"0"}, "history_limit_days": {"30"}}, []string{"10", "11", "12"}},
		{url.Values{"last_update_id": {"1"}}, []string{"10", "11"}},
	} {
		if got := ids(c.form); !slices.Equal(got, c.want) {
			t.Errorf("%v: users %v, want %v", c.form, got, c.want)
		}
	}
	if got := e.presenceOf("11"); !reflect.DeepEqual(got, modern(t1, t1)) {
		t.Fatalf("iago %v", got)
	}

	status, body := e.do("default-bot@zulip.com", "POST", "/users/me/presence", url.Values{"status": {"active"}})
	e.fail(status, body, 400, "BAD_REQUEST", "This endpoint does not accept bot requests.")
	e.ok(e.do("iago@zulip.com", "DELETE", "/users/10", nil))
	if got := ids(url.Values{"history_limit_days": {"30"}}); !slices.Equal(got, []string{"11", "12"}) {
		t.Fatalf("deactivated hamlet still reported: %v", got)
	}
}

func TestHTTPPresenceEventShapes(t *testing.T) {
	e := newPresenceEnv(t)
	t0 := e.clock.Now().Unix()
	legacyQ, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["presence"]`}})
	slimQ, _ := e.register("othello@zulip.com", url.Values{"event_types": {`["presence"]`}, "slim_presence": {"true"}})
	modernQ, _ := e.register("cordelia@zulip.com", url.Values{"event_types": {`["presence"]`},
		"client_capabilities": {`{"notification_settings_null": true, "simplified_presence_events": true}`}})
	ownQ, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["presence"]`}})
	otherQ, _ := e.register("prospero@zulip.com", url.Values{"event_types": {`["message"]`}})

	// A first presence is announced to everyone, in each queue's shape.
	e.ping("hamlet@zulip.com", "active")
	website := map[string]any{"website": map[string]any{"client": "website", "status": "active", "timestamp": float64(t0), "pushable": false}}
	wantLegacy := map[string]any{"type": "presence", "user_id": float64(10), "email": "user10@zulipdev.com", "server_timestamp": float64(t0), "presence": website}
	wantSlim := map[string]any{"type": "presence", "user_id": float64(10), "server_timestamp": float64(t0), "presence": website}
	wantModern := map[string]any{"type": "presence", "presences": map[string]any{"10": modern(t0, t0)}}
	for _, c := range []struct {
		email, queue string
		want         map[string]any
	}{
		{"iago@zulip.com", legacyQ, wantLegacy},
		{"othello@zulip.com", slimQ, wantSlim},
		{"cordelia@zulip.com", modernQ, wantModern},
		{"hamlet@zulip.com", ownQ, wantLegacy},
	} {
		if evs := e.eventsOfType(c.email, c.queue, "presence"); len(evs) != 1 || !reflect.DeepEqual(evs[0], c.want) {
			t.Fatalf("%s: %v, want %v", c.email, evs, c.want)
		}
	}
	if evs := e.events("prospero@zulip.com", otherQ, -1, false); len(evs) != 0 {
		t.Fatalf("a queue without presence got %v", evs)
	}

	// Regular pings, active or idle, are not announced.
	for i := 0; i < 4; i++ {
		e.clock.Advance(time.Minute)
		e.ping("hamlet@zulip.com", "idle")
	}
	if evs := e.eventsOfType("iago@zulip.com", legacyQ, "presence"); len(evs) != 1 {
		t.Fatalf("idle pings were announced: %v", evs)
	}
	// Active again after more than 130 s: back online, announced at once.
	e.ping("hamlet@zulip.com", "active")
	t1 := e.clock.Now().Unix()
	evs := e.eventsOfType("cordelia@zulip.com", modernQ, "presence")
	if len(evs) != 2 || !reflect.DeepEqual(evs[1]["presences"], map[string]any{"10": modern(t1, t1)}) {
		t.Fatalf("coming back online: %v", evs)
	}
	// And a minute later, active again: still online, not announced.
	e.clock.Advance(time.Minute)
	e.ping("hamlet@zulip.com", "active")
	if evs := e.eventsOfType("iago@zulip.com", legacyQ, "presence"); len(evs) != 2 {
		t.Fatalf("a regular active ping was announced: %v", evs)
	}
}

// Below feature level 419 the capability is unknown: legacy events.
func TestHTTPPresenceSimplifiedEventsNeedLevel419(t *testing.T) {
	e := newPresenceEnv(t, realmFeatureLevel(418, "11.0"))
	q, _ := e.register("cordelia@zulip.com", url.Values{"event_types": {`["presence"]`},
		"client_capabilities": {`{"notification_settings_null": true, "simplified_presence_events": true}`}})
	e.ping("hamlet@zulip.com", "active")
	if evs := e.eventsOfType("cordelia@zulip.com", q, "presence"); len(evs) != 1 || evs[0]["email"] != "user10@zulipdev.com" || evs[0]["presences"] != nil {
		t.Fatalf("events at level 418: %v", evs)
	}
}

func TestHTTPUserPresence(t *testing.T) {
	e := newPresenceEnv(t)
	status, body := e.do("hamlet@zulip.com", "GET", "/users/11/presence", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "No presence data for 11")
	e.ping("iago@zulip.com", "active")
	t0 := e.clock.Now().Unix()
	want := map[string]any{"website": map[string]any{"status": "active", "timestamp": float64(t0)},
		"aggregated": map[string]any{"status": "active", "timestamp": float64(t0)}}
	for _, key := range []string{"11", "user11@zulipdev.com"} {
		if got := e.ok(e.do("hamlet@zulip.com", "GET", "/users/"+key+"/presence", nil))["presence"]; !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %v, want %v", key, got, want)
		}
	}
	// The real address finds the user only for those who may see it.
	if got := e.ok(e.do("iago@zulip.com", "GET", "/users/iago@zulip.com/presence", nil))["presence"]; !reflect.DeepEqual(got, want) {
		t.Fatalf("by real address %v", got)
	}
	status, body = e.do("hamlet@zulip.com", "GET", "/users/iago@zulip.com/presence", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "No such user")
	// Past the offline threshold the aggregate says offline.
	e.clock.Advance(200 * time.Second)
	agg := e.ok(e.do("hamlet@zulip.com", "GET", "/users/11/presence", nil))["presence"].(map[string]any)["aggregated"]
	if agg.(map[string]any)["status"] != "active" {
		t.Fatalf("at the threshold: %v", agg)
	}
	e.clock.Advance(time.Second)
	p := e.ok(e.do("hamlet@zulip.com", "GET", "/users/11/presence", nil))["presence"].(map[string]any)
	if p["aggregated"].(map[string]any)["status"] != "offline" || p["website"].(map[string]any)["status"] != "active" {
		t.Fatalf("past the threshold: %v", p)
	}
	for _, c := range []struct{ key, msg string }{
		{"16", "Presence is not supported for bot users."},
		{"default-bot@zulip.com", "Presence is not supported for bot users."},
		{"9999", "No such user"},
		{"nobody@zulip.com", "No such user"},
	} {
		status, body = e.do("hamlet@zulip.com", "GET", "/users/"+c.key+"/presence", nil)
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
	e.ok(e.do("iago@zulip.com", "DELETE", "/users/12", nil))
	status, body = e.do("hamlet@zulip.com", "GET", "/users/12/presence", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "No such user")
}

func TestHTTPPresenceBadInput(t *testing.T) {
	e := newPresenceEnv(t)
	for _, c := range []struct {
		form      url.Values
		code, msg string
	}{
		{url.Values{}, "REQUEST_VARIABLE_MISSING", "Missing 'status' argument"},
		{url.Values{"status": {"away"}}, "BAD_REQUEST", "Invalid status: away"},
		{url.Values{"status": {"active"}, "ping_only": {"maybe"}}, "BAD_REQUEST", "ping_only is not a boolean"},
		{url.Values{"status": {"active"}, "new_user_input": {"2"}}, "BAD_REQUEST", "new_user_input is not a boolean"},
		{url.Values{"status": {"active"}, "slim_presence": {"yes"}}, "BAD_REQUEST", "slim_presence is not a boolean"},
		{url.Values{"status": {"active"}, "last_update_id": {"abc"}}, "BAD_REQUEST", "last_update_id is not an integer"},
		{url.Values{"status": {"active"}, "history_limit_days": {"1.5"}}, "BAD_REQUEST", "history_limit_days is not an integer"},
	} {
		status, body := e.do("hamlet@zulip.com", "POST", "/users/me/presence", c.form)
		e.fail(status, body, 400, c.code, c.msg)
	}
	if p := e.presenceOf("10"); p != nil {
		t.Fatalf("refused requests recorded a presence: %v", p)
	}
}

func TestHTTPPresenceRegisterState(t *testing.T) {
	e := newPresenceEnv(t)
	t0 := e.clock.Now().Unix()
	e.ping("hamlet@zulip.com", "active")
	_, body := e.register("iago@zulip.com", url.Values{"fetch_event_types": {`["presence"]`}})
	if !reflect.DeepEqual(body["presences"], map[string]any{"user10@zulipdev.com": legacy("active", t0)}) ||
		body["presence_last_update_id"] != float64(1) || body["server_timestamp"] != float64(t0) {
		t.Fatalf("legacy register state %v", body)
	}
	_, body = e.register("iago@zulip.com", url.Values{"fetch_event_types": {`["presence"]`}, "slim_presence": {"true"}})
	if !reflect.DeepEqual(body["presences"], map[string]any{"10": modern(t0, t0)}) {
		t.Fatalf("slim register state %v", body)
	}
	e.clock.Advance(15 * 24 * time.Hour)
	_, body = e.register("iago@zulip.com", url.Values{"fetch_event_types": {`["presence"]`}})
	if len(body["presences"].(map[string]any)) != 0 || body["presence_last_update_id"] != float64(-1) {
		t.Fatalf("presence older than 14 days in register: %v", body)
	}
	_, body = e.register("iago@zulip.com", url.Values{"fetch_event_types": {`["presence"]`}, "presence_history_limit_days": {"20"}})
	if len(body["presences"].(map[string]any)) != 1 || body["presence_last_update_id"] != float64(1) {
		t.Fatalf("presence_history_limit_days=20: %v", body)
	}
}

// Below feature level 263 there is no incremental fetch: last_update_id
// is an unknown parameter and no answer carries presence_last_update_id.
func TestHTTPPresenceBeforeLastUpdateID(t *testing.T) {
	e := newPresenceEnv(t, realmFeatureLevel(262, "9.0-dev"))
	t0 := e.clock.Now().Unix()
	status, body := e.do("hamlet@zulip.com", "POST", "/users/me/presence", url.Values{"status": {"active"}, "last_update_id": {"-1"}, "history_limit_days": {"3"}})
	body = e.success(status, body)
	if got := keysOf(body); !slices.Equal(got, []string{"ignored_parameters_unsupported", "msg", "presences", "result", "server_timestamp"}) {
		t.Fatalf("answer keys %v", got)
	}
	if !reflect.DeepEqual(body["ignored_parameters_unsupported"], []any{"history_limit_days", "last_update_id"}) {
		t.Fatalf("ignored %v", body["ignored_parameters_unsupported"])
	}
	if !reflect.DeepEqual(body["presences"], map[string]any{"user10@zulipdev.com": legacy("active", t0)}) {
		t.Fatalf("presences %v", body["presences"])
	}
	_, body = e.register("iago@zulip.com", url.Values{"fetch_event_types": {`["presence"]`}})
	if _, ok := body["presence_last_update_id"]; ok {
		t.Fatalf("register at level 262 has presence_last_update_id: %v", body)
	}
}
