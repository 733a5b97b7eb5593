package httpapi

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// getDump fetches GET /minizulip/dump and returns its status, content
// type and body.
func (e *ctlEnv) getDump(query string) (int, string, []byte) {
	e.t.Helper()
	resp, err := http.Get(e.srv.URL + "/minizulip/dump" + query)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), body
}

func TestControlDump(t *testing.T) {
	e := newCtlEnv(t)
	e.sendTo("Verona", "dumped")
	status, ct, body := e.getDump("")
	want, err := e.realm.Dump()
	if err != nil {
		t.Fatal(err)
	}
	if status != 200 || ct != "application/json" || !bytes.Equal(body, want) {
		t.Fatalf("dump: %d %s, %d bytes (want %d)", status, ct, len(body), len(want))
	}
	if !bytes.Contains(body, []byte(`"content": "dumped"`)) || !bytes.HasPrefix(body, []byte(`{
  "minizulip_fixture": 1,`)) {
		t.Fatalf("the dump is not the bare fixture document:\n%.300s", body)
	}
	// The document loads into a realm that dumps the same.
	loaded, err := realm.Load(body, realm.WithClock(e.clock))
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := loaded.Dump(); !bytes.Equal(again, body) {
		t.Fatal("the served dump does not load back to itself")
	}
	// Parameters are refused.
	status, _, body = e.getDump("?" + url.Values{"pretty": {"1"}}.Encode())
	if status != 400 || !bytes.Contains(body, []byte("Unknown parameter(s) of GET /minizulip/dump: pretty")) {
		t.Fatalf("dump with a parameter: %d %s", status, body)
	}
}

func TestControlFixtureReplacesTheRealm(t *testing.T) {
	e := newCtlEnv(t)
	e.sendTo("Verona", "kept in the document")
	status, _, doc := e.getDump("")
	if status != 200 {
		t.Fatal(status)
	}
	e.sendTo("Verona", "after the dump")
	queueID := e.ok(e.do("hamlet@zulip.com", "POST", "/register", nil))["queue_id"].(string)
	e.ok(e.ctl("POST", "/minizulip/snapshots", nil))

	e.ok(e.ctlRaw("POST", "/minizulip/fixture", "application/json", string(doc)))
	if got := e.channelMessages("Verona"); len(got) != 1 || got[0] != "kept in the document" {
		t.Fatalf("Verona after the load: %v", got)
	}
	if q := e.ok(e.ctl("GET", "/minizulip/queues", nil))["queues"].([]any); len(q) != 0 {
		t.Fatalf("queues survived: %v", q)
	}
	status, body := e.do("hamlet@zulip.com", "GET", "/events", url.Values{"queue_id": {queueID}, "last_event_id": {"-1"}, "dont_block": {"true"}})
	e.wantError(status, body, 400, "BAD_EVENT_QUEUE_ID", "")
	// Reset goes back to the document, and the snapshot from before the
	// load still restores.
	e.sendTo("Verona", "after the load")
	e.ok(e.ctl("POST", "/minizulip/reset", nil))
	if got := e.channelMessages("Verona"); len(got) != 1 {
		t.Fatalf("Verona after reset: %v", got)
	}
	e.ok(e.ctl("POST", "/minizulip/snapshots/1/restore", nil))
	if got := e.channelMessages("Verona"); len(got) != 2 {
		t.Fatalf("Verona after restoring the older snapshot: %v", got)
	}
	// The index says what the body is.
	for _, ep := range e.ok(e.ctl("GET", "/minizulip/", nil))["endpoints"].([]any) {
		if ep := ep.(map[string]any); ep["path"] == "/minizulip/fixture" && ep["body"] == nil {
			t.Fatalf("index entry %v", ep)
		}
	}
}

func TestControlFixtureRefusesABadDocumentWhole(t *testing.T) {
	e := newCtlEnv(t)
	e.sendTo("Verona", "before")
	_, _, before := e.getDump("")
	for _, c := range []struct {
		ct, body, msg string
	}{
		{"application/json", `{"minizulip_fixture": 1, "users": [{"user_id": 1, "email": "a@example.com", "full_name": "A", "role": 999}]}`, ""},
		{"application/json", `{"minizulip_fixture": 7}`, "fixture: minizulip_fixture: format 7, want 1"},
		{"application/json", `{"minizulip_fixture": 1} trailing`, "fixture: not a valid fixture document: data after the document"},
		{"application/json", `[1, 2]`, ""},
		{"application/json", ``, "The body is empty: send a fixture document (GET /minizulip/dump writes one)"},
		{"multipart/form-data; boundary=x", "--x--", "Send the fixture document itself as the body (Content-Type: application/json), not a multipart form"},
	} {
		status, body := e.ctlRaw("POST", "/minizulip/fixture", c.ct, c.body)
		e.wantError(status, body, 400, "BAD_REQUEST", c.msg)
		if msg := body["msg"].(string); c.ct == "application/json" && c.body != "" && !strings.HasPrefix(msg, "fixture: ") {
			t.Errorf("%s: %q does not name the fixture's fault", c.body, msg)
		}
	}
	if _, _, after := e.getDump(""); !bytes.Equal(before, after) {
		t.Fatal("a refused document changed the realm")
	}
	status, body := e.ctlRaw("POST", "/minizulip/fixture?x=1", "application/json", `{}`)
	e.fail(status, body, 400, "BAD_REQUEST", "Unknown parameter(s) of POST /minizulip/fixture: x (it takes: none)")
}
