package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/realm/clock"
)

// ctlEnv is an apiEnv whose server is at hand, with helpers for the
// test-control API.
type ctlEnv struct {
	*apiEnv
	api *Server
}

var ctlStart = time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)

// newCtlEnv serves a dev realm on a manual clock with the given server
// options.
func newCtlEnv(t *testing.T, opts ...Option) *ctlEnv {
	t.Helper()
	clock := clock.NewManual(ctlStart)
	r := newCheckedRealm(t, realm.WithClock(clock))
	api := New(r, opts...)
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	return &ctlEnv{apiEnv: &apiEnv{t: t, realm: r, clock: clock, srv: srv}, api: api}
}

// ctl calls the control API: form in the query for GET, else in the body.
func (e *ctlEnv) ctl(method, path string, form url.Values) (int, map[string]any) {
	e.t.Helper()
	return e.ctlRaw(method, path, "application/x-www-form-urlencoded", form.Encode())
}

// ctlRaw sends a control request with a body of the given type.
func (e *ctlEnv) ctlRaw(method, path, contentType, body string) (int, map[string]any) {
	e.t.Helper()
	target := e.srv.URL + path
	var rd *strings.Reader
	if method == http.MethodGet && body != "" {
		target += "?" + body
		body = ""
	}
	rd = strings.NewReader(body)
	req, err := http.NewRequest(method, target, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return e.doJSON(req)
}

func unixSeconds(t time.Time) float64 { return float64(t.UnixMicro()) / 1e6 }

func TestControlClockReadsAndMovesTheRealmClock(t *testing.T) {
	e := newCtlEnv(t)
	status, body := e.ctl("GET", "/minizulip/clock", nil)
	if e.wantSuccess(status, body); body["now"] != unixSeconds(ctlStart) {
		t.Fatalf("now %v, want %v", body["now"], unixSeconds(ctlStart))
	}
	status, body = e.ctl("POST", "/minizulip/clock", url.Values{"advance": {"1.5"}})
	want := ctlStart.Add(1500 * time.Millisecond)
	if e.wantSuccess(status, body); body["now"] != unixSeconds(want) || !e.clock.Now().Equal(want) {
		t.Fatalf("after advance 1.5: answer %v, clock %v", body["now"], e.clock.Now())
	}
	target := ctlStart.Add(time.Hour)
	status, body = e.ctl("POST", "/minizulip/clock", url.Values{"now": {"1788267600"}}) // ctlStart + 1h
	if e.wantSuccess(status, body); !e.clock.Now().Equal(target) {
		t.Fatalf("after now: clock %v, want %v", e.clock.Now(), target)
	}
	status, body = e.ctlRaw("POST", "/minizulip/clock", "application/json", `{"advance": 60}`)
	if e.wantSuccess(status, body); !e.clock.Now().Equal(target.Add(time.Minute)) {
		t.Fatalf("JSON advance: clock %v", e.clock.Now())
	}
}

func TestControlClockRefusesBadMovesAndChangesNothing(t *testing.T) {
	e := newCtlEnv(t)
	cases := []struct {
		form url.Values
		msg  string
	}{
		{url.Values{"advance": {"-1"}}, "The clock cannot go backwards (advance -1)"},
		{url.Values{"now": {"1788263999"}}, ""}, // a second before ctlStart
		{url.Values{"advance": {"1"}, "now": {"1788267600"}}, "Give exactly one of advance (seconds) and now (Unix seconds)"},
		{nil, "Give exactly one of advance (seconds) and now (Unix seconds)"},
		{url.Values{"advance": {"soon"}}, "advance is not a number"},
		{url.Values{"advance": {"NaN"}}, "advance is not a number"},
		{url.Values{"advance": {"1e300"}}, ""},
		{url.Values{"now": {"1e300"}}, "now is out of range"},
		{url.Values{"advance": {"1"}, "speed": {"2"}}, "Unknown parameter(s) of POST /minizulip/clock: speed (it takes: advance, now)"},
	}
	for _, c := range cases {
		status, body := e.ctl("POST", "/minizulip/clock", c.form)
		e.wantError(status, body, 400, "BAD_REQUEST", c.msg)
		if !e.clock.Now().Equal(ctlStart) {
			t.Fatalf("%v moved the clock to %v", c.form, e.clock.Now())
		}
	}
	status, body := e.ctlRaw("POST", "/minizulip/clock", "application/json", `[1]`)
	e.wantError(status, body, 400, "BAD_REQUEST", "The body is not a JSON object")
}

func TestControlClockOfASystemClockRealmCannotMove(t *testing.T) {
	api := New(realm.New())
	srv := httptest.NewServer(api)
	defer srv.Close()
	resp, err := http.PostForm(srv.URL+"/minizulip/clock", url.Values{"advance": {"1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != 400 || !strings.Contains(body["msg"].(string), "cannot be moved") {
		t.Fatalf("got %d %v", resp.StatusCode, body)
	}
}

// Moving the clock over HTTP crosses every time limit: a waiting long poll
// ends with its heartbeat, an idle queue expires, and an edit falls
// outside the edit limit.
func TestControlClockDrivesTimeLimits(t *testing.T) {
	e := newCtlEnv(t)
	qid, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["message"]`}})
	done := make(chan []any, 1)
	go func() {
		status, body := e.do("iago@zulip.com", "GET", "/events", url.Values{"queue_id": {qid}, "last_event_id": {"-1"}})
		if status != 200 {
			done <- nil
			return
		}
		done <- body["events"].([]any)
	}()
	waitPolling(t, e.realm, qid)
	e.wantSuccess(e.ctl("POST", "/minizulip/clock", url.Values{"advance": {"56"}}))
	if evs := <-done; len(evs) != 1 || evs[0].(map[string]any)["type"] != "heartbeat" {
		t.Fatalf("the long poll ended with %v, want a heartbeat", evs)
	}

	status, body := e.do("iago@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}, "content": {"first"}})
	e.wantSuccess(status, body)
	msgID := int(body["id"].(float64))
	e.wantSuccess(e.ctl("POST", "/minizulip/clock", url.Values{"advance": {"601"}}))
	status, body = e.do("iago@zulip.com", "GET", "/events", url.Values{"queue_id": {qid}, "last_event_id": {"0"}, "dont_block": {"true"}})
	e.wantError(status, body, 400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+qid)

	limit := e.realm.Settings().MessageContentEditLimitSeconds
	if limit == nil {
		t.Fatal("the dev realm has an edit limit")
	}
	e.wantSuccess(e.ctl("POST", "/minizulip/clock", url.Values{"advance": {strconv.Itoa(*limit + 1)}}))
	status, body = e.do("iago@zulip.com", "PATCH", "/messages/"+strconv.Itoa(msgID), url.Values{"content": {"late"}})
	e.wantError(status, body, 400, "BAD_REQUEST", "The time limit for editing this message has passed")
}

func TestControlExpireQueue(t *testing.T) {
	e := newCtlEnv(t)
	qid, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["message"]`}})
	other, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["message"]`}})

	// A poll waiting on the queue completes, as Zulip finishes it.
	done := make(chan map[string]any, 1)
	go func() {
		status, body := e.do("iago@zulip.com", "GET", "/events", url.Values{"queue_id": {qid}, "last_event_id": {"-1"}})
		body["status"] = float64(status)
		done <- body
	}()
	waitPolling(t, e.realm, qid)
	e.ok(e.ctl("POST", "/minizulip/queues/"+qid+"/expire", nil))
	if body := <-done; body["status"] != float64(200) || len(body["events"].([]any)) != 0 {
		t.Fatalf("the waiting poll ended with %v", body)
	}
	status, body := e.do("iago@zulip.com", "GET", "/events", url.Values{"queue_id": {qid}, "last_event_id": {"-1"}})
	e.wantError(status, body, 400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+qid)
	if body["queue_id"] != qid {
		t.Fatalf("no queue_id: %v", body)
	}

	// Unknown queue, or one already expired: 400, and no other queue goes.
	before := e.realm.QueueCount()
	for _, id := range []string{"nope", qid} {
		status, body = e.ctl("POST", "/minizulip/queues/"+id+"/expire", nil)
		e.fail(status, body, 400, "BAD_REQUEST", `No event queue with ID "`+id+`"`)
	}
	if e.realm.QueueCount() != before || before != 1 {
		t.Fatalf("queues %d, before %d", e.realm.QueueCount(), before)
	}
	e.events("hamlet@zulip.com", other, -1, false)
}

func TestControlAPIIsOnForDevServersOnly(t *testing.T) {
	cases := []struct {
		opts   []Option
		status int
	}{
		{nil, 200},
		{[]Option{WithDevEndpoints(false)}, 404},
		{[]Option{WithDevEndpoints(false), WithTestControl(true)}, 200},
		{[]Option{WithTestControl(false)}, 404},
	}
	for _, c := range cases {
		e := newCtlEnv(t, c.opts...)
		status, body := e.ctl("GET", "/minizulip/clock", nil)
		if status != c.status {
			t.Fatalf("options %d: got %d %v, want %d", len(c.opts), status, body, c.status)
		}
		if status == 404 && body["msg"] != "Not Found" {
			t.Fatalf("a server without control answers as for any unknown path: %v", body)
		}
	}
}

func TestControlUnknownEndpointMethodAndHost(t *testing.T) {
	e := newCtlEnv(t)
	status, body := e.ctl("GET", "/minizulip/nothing", nil)
	e.fail(status, body, 404, "BAD_REQUEST", "No test-control endpoint /minizulip/nothing")
	status, body = e.ctl("PUT", "/minizulip/clock", nil)
	if status != 405 || body["msg"] != "Method Not Allowed" {
		t.Fatalf("PUT clock: %d %v", status, body)
	}
	status, body = e.ctl("GET", "/minizulip/queues/x/expire", nil)
	if status != 405 {
		t.Fatalf("GET expire: %d %v", status, body)
	}
	if len(e.api.Unsupported()) != 0 || len(e.api.Requests()) != 0 {
		t.Fatalf("control requests were recorded: %v %v", e.api.Unsupported(), e.api.Requests())
	}

	h := newCtlEnv(t, WithAllowedHosts("zulip.example"))
	status, body = h.ctl("POST", "/minizulip/clock", url.Values{"advance": {"5"}})
	h.fail(status, body, 400, "BAD_REQUEST", "Invalid HTTP Host header")
	if !h.clock.Now().Equal(ctlStart) {
		t.Fatal("a refused host moved the clock")
	}
}

// The contract check skips the control API: its answers are not Zulip's.
func TestContractCheckSkipsControlPaths(t *testing.T) {
	probe.mu.Lock()
	fails, n, undocumented := len(probe.fails), probe.n, probe.undocumented
	probe.mu.Unlock()
	for _, path := range []string{"/minizulip/clock", "/minizulip/faults"} {
		contractCheck(httptest.NewRequest("GET", path, nil), 200, http.Header{"Content-Type": {"application/json"}}, []byte(`{"odd":true}`))
	}
	probe.mu.Lock()
	defer probe.mu.Unlock()
	if len(probe.fails) != fails || probe.n != n || probe.undocumented != undocumented {
		t.Fatalf("control answers were checked: fails %d→%d, n %d→%d", fails, len(probe.fails), n, probe.n)
	}
}
