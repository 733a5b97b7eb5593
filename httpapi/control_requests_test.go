package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/realm/clock"
)

// logged lists GET /minizulip/requests with the given filters.
func (e *ctlEnv) logged(filters url.Values) []map[string]any {
	e.t.Helper()
	body := e.ok(e.ctl("GET", "/minizulip/requests", filters))
	var out []map[string]any
	for _, r := range body["requests"].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

func TestRequestLogKeepsParamsAgentClientAndQueue(t *testing.T) {
	e := newCtlEnv(t)
	// A password login: the password is redacted, the username kept.
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/v1/fetch_api_key",
		strings.NewReader(url.Values{"username": {"hamlet@zulip.com"}, "password": {"zulip"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("User-Agent", "ZulipMobile/27.1 (Android 14)")
	e.ok(e.doJSON(req))
	reg := e.ok(e.do("hamlet@zulip.com", "POST", "/register", url.Values{"event_types": {`["message"]`}}))
	queueID := reg["queue_id"].(string)
	e.ok(e.do("hamlet@zulip.com", "GET", "/events", url.Values{"queue_id": {queueID}, "last_event_id": {"-1"}, "dont_block": {"true"}}))
	e.ok(e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"castle"},
		"content": {"hi"}, "client": {"my bot"}}))

	all := e.logged(nil)
	if len(all) != 4 {
		t.Fatalf("%d entries: %v", len(all), all)
	}
	login, register, events, send := all[0], all[1], all[2], all[3]
	if p := login["params"].(map[string]any); p["username"] != "hamlet@zulip.com" || p["password"] != RedactedValue ||
		login["user_agent"] != "ZulipMobile/27.1 (Android 14)" || login["client"] != "ZulipMobile" {
		t.Fatalf("login entry %v", login)
	}
	if register["queue_id"] != queueID || register["params"].(map[string]any)["event_types"] != `["message"]` ||
		register["client"] != "Go-http-client" || register["user"] != "hamlet@zulip.com" {
		t.Fatalf("register entry %v", register)
	}
	if events["queue_id"] != queueID {
		t.Fatalf("events entry %v", events)
	}
	if send["client"] != "my bot" || send["params"].(map[string]any)["content"] != "hi" {
		t.Fatalf("send entry %v", send)
	}
	if _, has := send["queue_id"]; has {
		t.Fatalf("a send names no queue: %v", send)
	}
	for i := 1; i < len(all); i++ {
		if all[i]["id"].(float64) <= all[i-1]["id"].(float64) {
			t.Fatalf("ids do not increase: %v", all)
		}
	}
	// An API key in a query string is redacted too.
	e.do("", "GET", "/users/me", url.Values{"api_key": {"secret-key"}})
	if last := e.api.Requests(); last[len(last)-1].Params["api_key"] != RedactedValue {
		t.Fatalf("api_key logged: %v", last[len(last)-1].Params)
	}
	// Clearing keeps the numbering going.
	lastID := e.api.Requests()[4].ID
	e.ok(e.ctl("DELETE", "/minizulip/requests", nil))
	e.ok(e.do("iago@zulip.com", "GET", "/users/me", nil))
	if got := e.api.Requests(); len(got) != 1 || got[0].ID != lastID+1 {
		t.Fatalf("after clearing: %+v (last id %d)", got, lastID)
	}
}

func TestRequestLogNamesTheUserAndParamsOfAFaultedRequest(t *testing.T) {
	e := newCtlEnv(t)
	e.ok(e.ctl("POST", "/minizulip/faults", url.Values{"path": {"/api/v1/messages"}, "status": {"429"}}))
	status, body := e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}, "content": {"retry me"}})
	e.wantError(status, body, 429, "RATE_LIMIT_HIT", "")
	// A file in a multipart body is logged by name and size, not content.
	e.ok(e.ctl("POST", "/minizulip/faults", url.Values{"path": {"/api/v1/user_uploads"}, "status": {"500"}}))
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("file", "notes.txt")
	_, _ = fw.Write([]byte("top secret bytes"))
	_ = mw.Close()
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/v1/user_uploads", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	e.auth(req, "iago@zulip.com")
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	all := e.logged(nil)
	if len(all) != 2 {
		t.Fatalf("entries %v", all)
	}
	if r := all[0]; r["user"] != "hamlet@zulip.com" || r["fault_id"] != float64(1) || r["status"] != float64(429) ||
		r["params"].(map[string]any)["content"] != "retry me" {
		t.Fatalf("faulted send %v", r)
	}
	if r := all[1]; r["user"] != "iago@zulip.com" || r["params"].(map[string]any)["file"] != "[file notes.txt, 16 bytes]" {
		t.Fatalf("faulted upload %v", r)
	}
}

func TestRequestLogFilters(t *testing.T) {
	e := newCtlEnv(t)
	e.ok(e.do("hamlet@zulip.com", "GET", "/users/me", nil))
	e.ok(e.do("iago@zulip.com", "GET", "/users/hamlet@zulip.com", nil))
	e.ok(e.do("iago@zulip.com", "GET", "/users/me", nil))
	e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/presence", url.Values{"status": {"active"}}))
	ids := func(list []map[string]any) (out []int) {
		for _, r := range list {
			out = append(out, int(r["id"].(float64)))
		}
		return out
	}
	for _, c := range []struct {
		filters url.Values
		want    []int
	}{
		{url.Values{"user": {"hamlet@zulip.com"}}, []int{1, 4}},
		{url.Values{"method": {"post"}}, []int{4}},
		{url.Values{"path": {"/api/v1/users/me"}}, []int{1, 3}},
		{url.Values{"path": {"/api/v1/users/{user}"}}, []int{2}},
		{url.Values{"since_id": {"2"}}, []int{3, 4}},
		{url.Values{"since_id": {"2"}, "user": {"iago@zulip.com"}, "method": {"GET"}}, []int{3}},
		{url.Values{"path": {"/api/v1/nothing/here"}}, nil},
	} {
		if got := ids(e.logged(c.filters)); !equalInts(got, c.want) {
			t.Errorf("%v: ids %v, want %v", c.filters, got, c.want)
		}
	}
	for _, c := range []struct {
		filters url.Values
		msg     string
	}{
		{url.Values{"status": {"200"}}, "Unknown parameter(s) of GET /minizulip/requests: status (it takes: method, path, user, since_id)"},
		{url.Values{"user": {"nobody@zulip.com"}}, `No user with email "nobody@zulip.com"`},
		{url.Values{"since_id": {"x"}}, "since_id is not a request ID (a whole number, 0 or more)"},
		{url.Values{"since_id": {"-1"}}, "since_id is not a request ID (a whole number, 0 or more)"},
	} {
		status, body := e.ctl("GET", "/minizulip/requests", c.filters)
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
	status, body := e.ctl("GET", "/minizulip/requests", url.Values{"path": {"/api/v1/nope/{x_id}"}})
	e.wantError(status, body, 400, "BAD_REQUEST", "")
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// serveRec serves one request in-process and decodes the JSON answer.
func serveRec(t *testing.T, h http.Handler, req *http.Request) (int, map[string]any) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("%s %s: %v: %s", req.Method, req.URL, err, rec.Body)
	}
	return rec.Code, out
}

// authed is a GET of the Zulip API as email.
func authed(t *testing.T, r *realm.Realm, email, path string) *http.Request {
	t.Helper()
	_, key, ok := r.APIKey(email)
	if !ok {
		t.Fatalf("no user %s", email)
	}
	req := httptest.NewRequest("GET", path, nil)
	req.SetBasicAuth(email, key)
	return req
}

func TestRequestWaitWakesOnAMatchingRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := realm.New(realm.WithClock(clock.NewManual(ctlStart)))
		api := New(r)
		serveRec(t, api, authed(t, r, "iago@zulip.com", "/api/v1/users/me")) // id 1
		type answer struct {
			status int
			body   map[string]any
			took   time.Duration
		}
		done := make(chan answer, 1)
		start := time.Now()
		go func() {
			status, body := serveRec(t, api, httptest.NewRequest("GET",
				"/minizulip/requests/wait?user=hamlet@zulip.com&path=/api/v1/users/me&timeout=30", nil))
			done <- answer{status, body, time.Since(start)}
		}()
		synctest.Wait() // the wait is blocked: iago's request does not match
		select {
		case a := <-done:
			t.Fatalf("answered before a match: %v", a)
		default:
		}
		serveRec(t, api, authed(t, r, "iago@zulip.com", "/api/v1/users/me"))     // id 2: another user
		serveRec(t, api, authed(t, r, "hamlet@zulip.com", "/api/v1/messages/1")) // id 3: another path
		synctest.Wait()
		select {
		case a := <-done:
			t.Fatalf("answered for a request that does not match: %v", a)
		default:
		}
		serveRec(t, api, authed(t, r, "hamlet@zulip.com", "/api/v1/users/me")) // id 4
		a := <-done
		if a.status != 200 || a.took != 0 {
			t.Fatalf("got %d after %v: %v", a.status, a.took, a.body)
		}
		got := a.body["request"].(map[string]any)
		if got["id"] != float64(4) || got["user"] != "hamlet@zulip.com" || got["path"] != "/api/v1/users/me" {
			t.Fatalf("request %v", got)
		}
	})
}

func TestRequestWaitTakesAnEarlierRequestAfterSinceID(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := realm.New(realm.WithClock(clock.NewManual(ctlStart)))
		api := New(r)
		for range 3 {
			serveRec(t, api, authed(t, r, "iago@zulip.com", "/api/v1/users/me"))
		}
		start := time.Now()
		status, body := serveRec(t, api, httptest.NewRequest("GET", "/minizulip/requests/wait?since_id=1", nil))
		if status != 200 || body["request"].(map[string]any)["id"] != float64(2) || time.Since(start) != 0 {
			t.Fatalf("got %d %v", status, body)
		}
		// Past the last one, nothing is there yet: the wait runs out.
		status, body = serveRec(t, api, httptest.NewRequest("GET", "/minizulip/requests/wait?since_id=3&timeout=0.5", nil))
		if status != http.StatusRequestTimeout || body["code"] != "TIMEOUT" || body["result"] != "error" || time.Since(start) != 500*time.Millisecond {
			t.Fatalf("got %d %v after %v", status, body, time.Since(start))
		}
	})
}

func TestRequestWaitTimesOutAfterItsTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := realm.New(realm.WithClock(clock.NewManual(ctlStart)))
		api := New(r)
		for _, c := range []struct {
			query string
			want  time.Duration
		}{
			{"", defaultRequestWait * time.Second},
			{"timeout=60", 60 * time.Second},
			{"timeout=0", 0},
		} {
			start := time.Now()
			status, body := serveRec(t, api, httptest.NewRequest("GET", "/minizulip/requests/wait?path=/api/v1/users/me&"+c.query, nil))
			if status != http.StatusRequestTimeout || body["code"] != "TIMEOUT" || !strings.HasPrefix(body["msg"].(string), "No matching request") {
				t.Fatalf("%q: got %d %v", c.query, status, body)
			}
			if took := time.Since(start); took != c.want {
				t.Fatalf("%q: gave up after %v, want %v", c.query, took, c.want)
			}
		}
		// The client going away ends the wait at once.
		ctx, cancel := context.WithCancel(context.Background())
		req := httptest.NewRequest("GET", "/minizulip/requests/wait?timeout=60", nil).WithContext(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			serveRec(t, api, req)
		}()
		synctest.Wait()
		cancel()
		<-done
	})
}

func TestRequestWaitRefusesBadInput(t *testing.T) {
	e := newCtlEnv(t)
	for _, c := range []struct {
		query url.Values
		msg   string
	}{
		{url.Values{"timeout": {"61"}}, "timeout must be between 0 and 60 seconds"},
		{url.Values{"timeout": {"-1"}}, "timeout must be between 0 and 60 seconds"},
		{url.Values{"timeout": {"soon"}}, "timeout is not a number"},
		{url.Values{"timeout": {"NaN"}}, "timeout is not a number"},
		{url.Values{"status": {"200"}}, "Unknown parameter(s) of GET /minizulip/requests/wait: status (it takes: timeout, method, path, user, since_id)"},
		{url.Values{"user": {"nobody@zulip.com"}}, `No user with email "nobody@zulip.com"`},
		{url.Values{"since_id": {"1.5"}}, "since_id is not a request ID (a whole number, 0 or more)"},
	} {
		status, body := e.ctl("GET", "/minizulip/requests/wait", c.query)
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
	status, body := e.ctl("POST", "/minizulip/requests/wait", nil)
	if status != 405 || body["result"] != "error" {
		t.Fatalf("POST: %d %v", status, body)
	}
}

func TestRequestLogCutsLongValues(t *testing.T) {
	long := strings.Repeat("é", LoggedValueMax) // 2 bytes each
	p := &params{}
	p.set("content", long)
	p.set("short", "kept")
	for i := range 10 {
		p.set("extra"+strconv.Itoa(i), strings.Repeat("x", LoggedValueMax))
	}
	got := loggedParams(p)
	if !strings.HasPrefix(got["content"], strings.Repeat("é", LoggedValueMax/2)+"…[cut: ") || !utf8.ValidString(got["content"]) {
		t.Fatalf("content cut to %.40q… (%d bytes)", got["content"][len(got["content"])-40:], len(got["content"]))
	}
	if got["short"] != "kept" {
		t.Fatalf("short value %q", got["short"])
	}
	total := 0
	for k, v := range got {
		total += len(k) + len(v)
	}
	if total > LoggedParamsMax+12*100 {
		t.Fatalf("one entry keeps %d bytes of parameters", total)
	}
}
