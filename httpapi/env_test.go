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
	"github.com/minizulip/minizulip/realm/clock"
)

// apiEnv is a dev realm on a manual clock behind an httptest server: the
// fixture of the HTTP-level tests.
type apiEnv struct {
	t     *testing.T
	realm *realm.Realm
	clock *clock.Manual
	srv   *httptest.Server
}

// The test files of each API area name the fixture after their area.
type (
	msgEnv   = apiEnv
	usersEnv = apiEnv
	chanEnv  = apiEnv
)

func newAPIEnv(t *testing.T, start time.Time, opts ...realm.Option) *apiEnv {
	t.Helper()
	clock := clock.NewManual(start)
	r := newCheckedRealm(t, append([]realm.Option{realm.WithClock(clock)}, opts...)...)
	srv := httptest.NewServer(New(r))
	t.Cleanup(srv.Close)
	return &apiEnv{t: t, realm: r, clock: clock, srv: srv}
}

func newMsgEnv(t *testing.T) *apiEnv {
	return newAPIEnv(t, time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC))
}

func newUsersEnv(t *testing.T) *apiEnv {
	return newAPIEnv(t, time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC))
}

func newChanEnv(t *testing.T, opts ...realm.Option) *apiEnv {
	return newAPIEnv(t, time.Date(2026, 7, 8, 9, 10, 11, 0, time.UTC), opts...)
}

// call sends a request as email (empty: no credentials) to path below
// /api/v1; form goes in the query string for GET or when inQuery, else
// in a urlencoded body. It decodes the JSON answer.
func (e *apiEnv) call(email, method, path string, form url.Values, inQuery bool) (int, map[string]any) {
	e.t.Helper()
	target := e.srv.URL + APIPrefix + path
	var body io.Reader
	if method == http.MethodGet || inQuery {
		if len(form) > 0 {
			target += "?" + form.Encode()
		}
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	e.auth(req, email)
	return e.doJSON(req)
}

// auth sets email's Basic credentials on req (none for "").
func (e *apiEnv) auth(req *http.Request, email string) {
	e.t.Helper()
	if email == "" {
		return
	}
	_, key, ok := e.realm.APIKey(email)
	if !ok {
		e.t.Fatalf("no such user %s", email)
	}
	req.SetBasicAuth(email, key)
}

// doJSON sends req to the test server and decodes its JSON answer.
func (e *apiEnv) doJSON(req *http.Request) (int, map[string]any) {
	e.t.Helper()
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		e.t.Fatalf("%s %s: body is not JSON: %v", req.Method, req.URL.Path, err)
	}
	return resp.StatusCode, out
}

// do is call with the form in the body for methods other than GET.
func (e *apiEnv) do(email, method, path string, form url.Values) (int, map[string]any) {
	e.t.Helper()
	return e.call(email, method, path, form, false)
}

// ok asserts a success answer that reports no ignored parameter, and
// returns its body.
func (e *apiEnv) ok(status int, body map[string]any) map[string]any {
	e.t.Helper()
	e.wantSuccess(status, body)
	if ign, ok := body["ignored_parameters_unsupported"]; ok {
		e.t.Fatalf("supported parameters reported as ignored: %v", ign)
	}
	return body
}

// wantSuccess asserts a success answer.
func (e *apiEnv) wantSuccess(status int, body map[string]any) {
	e.t.Helper()
	if status != http.StatusOK || body["result"] != "success" || body["msg"] != "" {
		e.t.Fatalf("got %d %v; want success", status, body)
	}
}

// fail asserts an error answer with exactly the given status, code and msg.
func (e *apiEnv) fail(status int, body map[string]any, wantStatus int, code, msg string) {
	e.t.Helper()
	if status != wantStatus || body["result"] != "error" || body["code"] != code || body["msg"] != msg {
		e.t.Fatalf("got %d %v; want %d %s %q", status, body, wantStatus, code, msg)
	}
}

// wantError is fail where an empty msg matches any message.
func (e *apiEnv) wantError(status int, body map[string]any, wantStatus int, code, msg string) {
	e.t.Helper()
	if status != wantStatus || body["result"] != "error" || body["code"] != code || (msg != "" && body["msg"] != msg) {
		e.t.Fatalf("got %d %v; want %d %s %q", status, body, wantStatus, code, msg)
	}
}

// success asserts a success answer and returns its body, ignored
// parameters allowed.
func (e *apiEnv) success(status int, body map[string]any) map[string]any {
	e.t.Helper()
	e.wantSuccess(status, body)
	return body
}
