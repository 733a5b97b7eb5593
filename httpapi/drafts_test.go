package httpapi

import (
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// draftsOf lists email's drafts through GET /drafts, checking count.
func (e *msgEnv) draftsOf(email string) []any {
	e.t.Helper()
	status, body := e.do(email, "GET", "/drafts", nil)
	e.wantSuccess(status, body)
	list := body["drafts"].([]any)
	if body["count"] != float64(len(list)) {
		e.t.Fatalf("count %v for %d drafts", body["count"], len(list))
	}
	return list
}

// Drafts are created in bulk, read back in the stored shape (channel ID,
// the other participants, a note to self, a draft with no recipient),
// edited whole and deleted, each with its drafts event to the author's
// own queues only.
func TestHTTPDrafts(t *testing.T) {
	e := newMsgEnv(t)
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["drafts"]`}})
	otherQID, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["drafts"]`}})
	now := e.clock.Now().Unix()
	status, body := e.do("hamlet@zulip.com", "POST", "/drafts", url.Values{"drafts": {`[
		{"type": "stream", "to": [` + e.channelID("Denmark") + `], "topic": "plans", "content": "  half a thought  \n", "timestamp": 1595479019.5},
		{"type": "private", "to": [11, 8, 10], "topic": "ignored", "content": "to the group"},
		{"type": "private", "to": [10], "topic": "", "content": "note to self"},
		{"type": "", "to": [8], "topic": "dropped", "content": "no one yet"},
		{"type": "private", "to": [], "topic": "", "content": "nobody"}]`}})
	e.wantSuccess(status, body)
	ids := body["ids"].([]any)
	if len(ids) != 5 {
		t.Fatalf("ids %v", ids)
	}
	want := []any{
		map[string]any{"id": ids[0], "type": "stream", "to": []any{jsonFloat(e.channelID("Denmark"))}, "topic": "plans", "content": "  half a thought", "timestamp": float64(1595479019)},
		map[string]any{"id": ids[1], "type": "private", "to": []any{float64(8), float64(11)}, "topic": "", "content": "to the group", "timestamp": float64(now)},
		map[string]any{"id": ids[2], "type": "private", "to": []any{float64(10)}, "topic": "", "content": "note to self", "timestamp": float64(now)},
		map[string]any{"id": ids[3], "type": "", "to": []any{}, "topic": "", "content": "no one yet", "timestamp": float64(now)},
		map[string]any{"id": ids[4], "type": "", "to": []any{}, "topic": "", "content": "nobody", "timestamp": float64(now)},
	}
	if diff := cmp.Diff(want, e.draftsOf("hamlet@zulip.com")); diff != "" {
		t.Fatalf("GET /drafts, oldest edit first (-want +got):\n%s", diff)
	}
	// iago has only the dev realm's two drafts, never hamlet's.
	iagos := e.draftsOf("iago@zulip.com")
	if len(iagos) != 2 || iagos[0].(map[string]any)["topic"] != "Release Notes" || iagos[1].(map[string]any)["type"] != "" {
		t.Fatalf("iago's drafts: %v", iagos)
	}
	evs := e.events("hamlet@zulip.com", qid, -1, false)
	if len(evs) != 1 || evs[0].(map[string]any)["op"] != "add" || len(evs[0].(map[string]any)["drafts"].([]any)) != 5 {
		t.Fatalf("add events %v", evs)
	}
	// register lists them newest edit first.
	_, reg := e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["drafts"]`}})
	if first := reg["drafts"].([]any)[0].(map[string]any); first["id"] != ids[1] {
		t.Fatalf("register drafts start with %v", first)
	}

	id := strconv.Itoa(int(ids[0].(float64)))
	e.clock.Advance(time.Minute)
	status, body = e.do("hamlet@zulip.com", "PATCH", "/drafts/"+id, url.Values{"draft": {`{"type": "stream", "to": [` + e.channelID("Verona") + `], "topic": "moved", "content": "whole thought"}`}})
	e.wantSuccess(status, body)
	got := e.draftsOf("hamlet@zulip.com")
	edited := got[len(got)-1].(map[string]any) // now the newest edit
	if edited["id"] != ids[0] || edited["topic"] != "moved" || edited["content"] != "whole thought" || edited["timestamp"] != float64(now+60) {
		t.Fatalf("edited draft %v", edited)
	}
	status, body = e.do("hamlet@zulip.com", "DELETE", "/drafts/"+id, nil)
	e.wantSuccess(status, body)
	if got := e.draftsOf("hamlet@zulip.com"); len(got) != 4 {
		t.Fatalf("%d drafts after delete", len(got))
	}
	evs = e.events("hamlet@zulip.com", qid, 0, false)
	if len(evs) != 2 || evs[0].(map[string]any)["op"] != "update" || evs[0].(map[string]any)["draft"].(map[string]any)["topic"] != "moved" ||
		evs[1].(map[string]any)["op"] != "remove" || evs[1].(map[string]any)["draft_id"] != ids[0] {
		t.Fatalf("update/remove events %v", evs)
	}
	if evs := e.events("iago@zulip.com", otherQID, -1, false); len(evs) != 0 {
		t.Fatalf("iago got hamlet's drafts events: %v", evs)
	}
}

// Bad drafts are refused with Zulip's wording and store nothing, not even
// the valid drafts of the same request; another user's draft does not
// exist for the caller.
func TestHTTPDraftsBadInput(t *testing.T) {
	e := newMsgEnv(t)
	denmark := e.channelID("Denmark")
	core := e.channelID("core team")
	valid := `{"type": "", "to": [], "topic": "", "content": "fine"}`
	for _, c := range []struct{ drafts, msg string }{
		{`{"type": ""}`, "drafts is not a list"},
		{`[`, "drafts is not valid JSON"},
		{`[` + valid + `, 3]`, "drafts[1] is not a dict"},
		{`[{"type": "", "to": [], "topic": "", "content": "x", "extra": 1}]`, `Argument "extra" at drafts[0] is unexpected`},
		{`[{"type": "", "to": [], "content": "x"}]`, `drafts[0]["topic"] is missing`},
		{`[{"type": "", "to": "8", "topic": "", "content": "x"}]`, `drafts[0]["to"] is not a list`},
		{`[{"type": "", "to": [1.5], "topic": "", "content": "x"}]`, `drafts[0]["to"][0] is not an integer`},
		{`[{"type": 1, "to": [], "topic": "", "content": "x"}]`, `drafts[0]["type"] is not a string`},
		{`[` + valid + `, {"type": "huddle", "to": [], "topic": "", "content": "x"}]`, `Invalid drafts[1]["type"]`},
		{`[{"type": "", "to": [], "topic": "", "content": "  "}]`, `drafts[0]["content"] cannot be blank`},
		{`[{"type": "", "to": [], "topic": "", "content": "x", "timestamp": -1}]`, "Timestamp must not be negative."},
		{`[{"type": "", "to": [], "topic": "", "content": "x", "timestamp": "now"}]`, `drafts[0]["timestamp"] is not a float`},
		{`[{"type": "stream", "to": [], "topic": "t", "content": "x"}]`, "Must specify exactly 1 channel ID for channel messages"},
		{`[{"type": "stream", "to": [` + denmark + `, ` + denmark + `], "topic": "t", "content": "x"}]`, "Must specify exactly 1 channel ID for channel messages"},
		{`[{"type": "stream", "to": [` + core + `], "topic": "t", "content": "x"}]`, "Invalid channel ID"},
		{`[{"type": "stream", "to": [999], "topic": "t", "content": "x"}]`, "Invalid channel ID"},
		{`[{"type": "stream", "to": [` + denmark + `], "topic": "a\u0000b", "content": "x"}]`, "Topic must not contain null bytes"},
		{`[{"type": "private", "to": [999], "topic": "", "content": "x"}]`, "Invalid user ID 999"},
		{`[{"type": "", "to": [], "topic": "", "content": "a\u0000b"}]`, "Message must not contain null bytes"},
	} {
		status, body := e.do("othello@zulip.com", "POST", "/drafts", url.Values{"drafts": {c.drafts}})
		e.wantError(status, body, 400, "BAD_REQUEST", c.msg)
	}
	status, body := e.do("othello@zulip.com", "POST", "/drafts", nil)
	e.wantError(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'drafts' argument")
	if got := e.draftsOf("othello@zulip.com"); len(got) != 0 {
		t.Fatalf("refused requests stored %v", got)
	}

	status, body = e.do("hamlet@zulip.com", "POST", "/drafts", url.Values{"drafts": {`[` + valid + `]`}})
	e.wantSuccess(status, body)
	id := strconv.Itoa(int(body["ids"].([]any)[0].(float64)))
	status, body = e.do("othello@zulip.com", "PATCH", "/drafts/"+id, url.Values{"draft": {valid}})
	e.wantError(status, body, 404, "BAD_REQUEST", "Draft does not exist")
	status, body = e.do("othello@zulip.com", "DELETE", "/drafts/"+id, nil)
	e.wantError(status, body, 404, "BAD_REQUEST", "Draft does not exist")
	status, body = e.do("hamlet@zulip.com", "PATCH", "/drafts/"+id, url.Values{"draft": {`{"type": "", "to": [], "topic": "", "content": ""}`}})
	e.wantError(status, body, 400, "BAD_REQUEST", `draft["content"] cannot be blank`)
	status, body = e.do("hamlet@zulip.com", "PATCH", "/drafts/"+id, nil)
	e.wantError(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'draft' argument")
	if got := e.draftsOf("hamlet@zulip.com"); len(got) != 1 || got[0].(map[string]any)["content"] != "fine" {
		t.Fatalf("refused edits changed %v", got)
	}
}

// Turning enable_drafts_synchronization off deletes the user's drafts
// (without drafts events: the clients keep theirs) and refuses every
// drafts call until it is on again; register then lists none.
func TestHTTPDraftsSynchronizationOff(t *testing.T) {
	e := newMsgEnv(t)
	status, body := e.do("hamlet@zulip.com", "POST", "/drafts", url.Values{"drafts": {`[{"type": "", "to": [], "topic": "", "content": "keep?"}]`}})
	e.wantSuccess(status, body)
	id := strconv.Itoa(int(body["ids"].([]any)[0].(float64)))
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["drafts"]`}})
	status, body = e.do("hamlet@zulip.com", "PATCH", "/settings", url.Values{"enable_drafts_synchronization": {"false"}})
	e.wantSuccess(status, body)
	for _, c := range []struct{ method, path string }{{"GET", "/drafts"}, {"POST", "/drafts"}, {"PATCH", "/drafts/" + id}, {"DELETE", "/drafts/" + id}} {
		status, body := e.do("hamlet@zulip.com", c.method, c.path, url.Values{"drafts": {`[]`}, "draft": {`{"type": "", "to": [], "topic": "", "content": "x"}`}})
		e.wantError(status, body, 400, "BAD_REQUEST", "User has disabled synchronizing drafts.")
	}
	if evs := e.events("hamlet@zulip.com", qid, -1, false); len(evs) != 0 {
		t.Fatalf("drafts events on turning sync off: %v", evs)
	}
	_, reg := e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["drafts"]`}})
	if got := reg["drafts"].([]any); len(got) != 0 {
		t.Fatalf("register drafts %v", got)
	}
	status, body = e.do("hamlet@zulip.com", "PATCH", "/settings", url.Values{"enable_drafts_synchronization": {"true"}})
	e.wantSuccess(status, body)
	if got := e.draftsOf("hamlet@zulip.com"); len(got) != 0 {
		t.Fatalf("drafts came back: %v", got)
	}
}

// jsonFloat is the JSON number a decimal string decodes to.
func jsonFloat(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}
