package httpapi

import (
	"net/url"
	"strconv"
	"testing"
	"time"
)

// channelMessages fetches the newest messages of a channel as iago and
// returns their contents, oldest first.
func (e *ctlEnv) channelMessages(channel string) []string {
	e.t.Helper()
	body := e.ok(e.do("iago@zulip.com", "GET", "/messages", url.Values{"anchor": {"newest"}, "num_before": {"100"},
		"num_after": {"0"}, "apply_markdown": {"false"}, "narrow": {`[{"operator":"channel","operand":"` + channel + `"}]`}}))
	var out []string
	for _, m := range body["messages"].([]any) {
		out = append(out, m.(map[string]any)["content"].(string))
	}
	return out
}

func (e *ctlEnv) sendTo(channel, content string) string {
	e.t.Helper()
	body := e.ok(e.do("iago@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {channel},
		"topic": {"t"}, "content": {content}}))
	return strconv.FormatInt(int64(body["id"].(float64)), 10)
}

func TestControlSnapshotsRestore(t *testing.T) {
	e := newCtlEnv(t)
	e.sendTo("Verona", "before")
	body := e.ok(e.ctl("POST", "/minizulip/snapshots", nil))
	if body["snapshot_id"] != float64(1) {
		t.Fatalf("first snapshot: %v", body)
	}
	id := e.sendTo("Verona", "after")
	e.ok(e.do("iago@zulip.com", "PATCH", "/messages/"+id, url.Values{"content": {"edited"}}))
	e.ok(e.ctl("POST", "/minizulip/clock", url.Values{"advance": {"60"}}))
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["message"]`}})
	if got := e.channelMessages("Verona"); len(got) != 2 || got[1] != "edited" {
		t.Fatalf("before restore: %v", got)
	}

	e.ok(e.ctl("POST", "/minizulip/snapshots/1/restore", nil))
	if got := e.channelMessages("Verona"); len(got) != 1 || got[0] != "before" {
		t.Fatalf("after restore: %v", got)
	}
	// The queue is gone as an expired one is; the clock did not go back.
	status, body := e.do("hamlet@zulip.com", "GET", "/events", url.Values{"queue_id": {qid}, "last_event_id": {"-1"}})
	e.wantError(status, body, 400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+qid)
	if !e.clock.Now().Equal(ctlStart.Add(time.Minute)) {
		t.Fatalf("restore moved the clock to %v", e.clock.Now())
	}
	// A snapshot can be restored again, and numbers go on.
	e.sendTo("Verona", "third")
	e.ok(e.ctl("POST", "/minizulip/snapshots/1/restore", nil))
	if got := e.channelMessages("Verona"); len(got) != 1 {
		t.Fatalf("after the second restore: %v", got)
	}
	if body := e.ok(e.ctl("POST", "/minizulip/snapshots", nil)); body["snapshot_id"] != float64(2) {
		t.Fatalf("second snapshot: %v", body)
	}
	// Deleted, it is gone.
	e.ok(e.ctl("DELETE", "/minizulip/snapshots/1", nil))
	status, body = e.ctl("POST", "/minizulip/snapshots/1/restore", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "No snapshot with ID 1")
}

func TestControlSnapshotsBadInput(t *testing.T) {
	e := newCtlEnv(t)
	e.sendTo("Verona", "kept")
	e.ok(e.ctl("POST", "/minizulip/snapshots", nil))
	e.sendTo("Verona", "after the snapshot")
	for _, c := range []struct {
		method, path string
		form         url.Values
		status       int
		msg          string
	}{
		{"POST", "/minizulip/snapshots/7/restore", nil, 400, "No snapshot with ID 7"},
		{"POST", "/minizulip/snapshots/x/restore", nil, 400, `Invalid snapshot ID "x"`},
		{"DELETE", "/minizulip/snapshots/7", nil, 400, "No snapshot with ID 7"},
		{"POST", "/minizulip/snapshots", url.Values{"name": {"x"}}, 400,
			"Unknown parameter(s) of POST /minizulip/snapshots: name (it takes: none)"},
		{"POST", "/minizulip/reset", url.Values{"seed": {"dev"}}, 400,
			"Unknown parameter(s) of POST /minizulip/reset: seed (it takes: none)"},
	} {
		status, body := e.ctl(c.method, c.path, c.form)
		e.fail(status, body, c.status, "BAD_REQUEST", c.msg)
	}
	status, body := e.ctl("GET", "/minizulip/reset", nil)
	if status != 405 {
		t.Fatalf("GET reset: %d %v", status, body)
	}
	// Nothing changed: both messages are there, and only one snapshot.
	if got := e.channelMessages("Verona"); len(got) != 2 {
		t.Fatalf("a refused request changed the realm: %v", got)
	}
	if body := e.ok(e.ctl("POST", "/minizulip/snapshots", nil)); body["snapshot_id"] != float64(2) {
		t.Fatalf("next snapshot: %v", body)
	}
}

func TestControlResetGoesBackToTheSeededRealm(t *testing.T) {
	e := newCtlEnv(t)
	e.sendTo("Verona", "gone after reset")
	e.ok(e.do("iago@zulip.com", "POST", "/users", url.Values{"email": {"new@zulip.com"}, "password": {"x"},
		"full_name": {"New"}}))
	qid, _ := e.register("iago@zulip.com", nil)
	e.ok(e.ctl("POST", "/minizulip/reset", nil))
	if got := e.channelMessages("Verona"); len(got) != 0 {
		t.Fatalf("after reset: %v", got)
	}
	if _, ok := e.realm.UserIDByEmail("new@zulip.com"); ok {
		t.Fatal("the new user survived the reset")
	}
	status, body := e.do("iago@zulip.com", "GET", "/events", url.Values{"queue_id": {qid}, "last_event_id": {"-1"}})
	e.wantError(status, body, 400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+qid)
	// The same credentials still work.
	e.ok(e.do("iago@zulip.com", "GET", "/users/me", nil))
}

func TestControlListsSnapshots(t *testing.T) {
	e := newCtlEnv(t)
	if list := e.ok(e.ctl("GET", "/minizulip/snapshots", nil))["snapshots"].([]any); len(list) != 0 {
		t.Fatalf("snapshots of a new realm: %v", list)
	}
	e.ok(e.ctl("POST", "/minizulip/snapshots", nil))
	e.clock.Advance(time.Hour)
	e.ok(e.ctl("POST", "/minizulip/snapshots", nil))
	e.ok(e.ctl("POST", "/minizulip/snapshots", nil))
	e.ok(e.ctl("DELETE", "/minizulip/snapshots/2", nil))
	list := e.ok(e.ctl("GET", "/minizulip/snapshots", nil))["snapshots"].([]any)
	if len(list) != 2 {
		t.Fatalf("snapshots %v", list)
	}
	first, second := list[0].(map[string]any), list[1].(map[string]any)
	if first["snapshot_id"] != float64(1) || first["created"] != float64(ctlStart.Unix()) ||
		second["snapshot_id"] != float64(3) || second["created"] != float64(ctlStart.Add(time.Hour).Unix()) {
		t.Fatalf("snapshots %v", list)
	}
	status, body := e.ctl("GET", "/minizulip/snapshots", url.Values{"snapshot_id": {"1"}})
	e.wantError(status, body, 400, "BAD_REQUEST", "")
}
