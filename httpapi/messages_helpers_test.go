package httpapi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
)

// msgEnv is a dev realm behind an httptest server, for the message tests.
type msgEnv struct {
	t     *testing.T
	realm *realm.Realm
	clock *realm.ManualClock
	srv   *httptest.Server
}

func newMsgEnv(t *testing.T) *msgEnv {
	t.Helper()
	clock := realm.NewManualClock(time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC))
	r := realm.New(realm.WithClock(clock))
	srv := httptest.NewServer(New(r))
	t.Cleanup(srv.Close)
	return &msgEnv{t: t, realm: r, clock: clock, srv: srv}
}

// do sends a request as email (empty: unauthenticated) with form values in
// the body (or the query string for GET) and decodes the JSON answer.
func (e *msgEnv) do(email, method, path string, form url.Values) (int, map[string]any) {
	e.t.Helper()
	target := e.srv.URL + "/api/v1" + path
	var body io.Reader
	if method == http.MethodGet {
		if len(form) > 0 {
			target += "?" + form.Encode()
		}
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, target, body)
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if email != "" {
		_, key, ok := e.realm.APIKey(email)
		if !ok {
			e.t.Fatalf("no such user %s", email)
		}
		req.SetBasicAuth(email, key)
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		e.t.Fatalf("%s %s: body is not JSON: %v", method, path, err)
	}
	return resp.StatusCode, out
}

// wantError asserts an error answer with the given status, code and msg.
func (e *msgEnv) wantError(status int, body map[string]any, wantStatus int, code, msg string) {
	e.t.Helper()
	if status != wantStatus || body["result"] != "error" || body["code"] != code || (msg != "" && body["msg"] != msg) {
		e.t.Fatalf("got %d %v; want %d %s %q", status, body, wantStatus, code, msg)
	}
}

func (e *msgEnv) wantSuccess(status int, body map[string]any) {
	e.t.Helper()
	if status != http.StatusOK || body["result"] != "success" || body["msg"] != "" {
		e.t.Fatalf("got %d %v; want success", status, body)
	}
}

func (e *msgEnv) count(email string) int {
	e.t.Helper()
	status, body := e.do(email, "GET", "/messages", url.Values{"anchor": {"newest"}, "num_before": {"5000"}, "num_after": {"0"}})
	e.wantSuccess(status, body)
	return len(body["messages"].([]any))
}
