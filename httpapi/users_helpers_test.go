package httpapi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
)

// usersEnv is a dev realm behind an httptest server, for the users tests.
type usersEnv struct {
	t     *testing.T
	realm *realm.Realm
	clock *realm.ManualClock
	srv   *httptest.Server
}

func newUsersEnv(t *testing.T) *usersEnv {
	t.Helper()
	clock := realm.NewManualClock(time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC))
	r := realm.New(realm.WithClock(clock))
	srv := httptest.NewServer(New(r))
	t.Cleanup(srv.Close)
	return &usersEnv{t: t, realm: r, clock: clock, srv: srv}
}

// call sends a request as email (empty: no credentials) to path below
// /api/v1, which is used as given (already escaped); form goes in the
// query string for GET and in the body otherwise.
func (e *usersEnv) call(email, method, path string, form url.Values) (int, map[string]any) {
	e.t.Helper()
	target := e.srv.URL + APIPrefix + path
	var body io.Reader
	if method == http.MethodGet {
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

// ok asserts a success answer and returns its body.
func (e *usersEnv) ok(status int, body map[string]any) map[string]any {
	e.t.Helper()
	if status != http.StatusOK || body["result"] != "success" || body["msg"] != "" {
		e.t.Fatalf("got %d %v; want success", status, body)
	}
	return body
}

// fail asserts an error answer with the given status, code and msg.
func (e *usersEnv) fail(status int, body map[string]any, wantStatus int, code, msg string) {
	e.t.Helper()
	if status != wantStatus || body["result"] != "error" || body["code"] != code || body["msg"] != msg {
		e.t.Fatalf("got %d %v; want %d %s %q", status, body, wantStatus, code, msg)
	}
}

// memberCount is the number of users GET /users lists for iago.
func (e *usersEnv) memberCount() int {
	e.t.Helper()
	body := e.ok(e.call("iago@zulip.com", "GET", "/users", nil))
	return len(body["members"].([]any))
}

// usersKeySet returns the sorted keys of a JSON object.
func usersKeySet(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// usersExpectKeys asserts the exact key set of a JSON object.
func usersExpectKeys(t *testing.T, what string, m map[string]any, want ...string) {
	t.Helper()
	sort.Strings(want)
	if got := usersKeySet(m); !slices.Equal(got, want) {
		t.Errorf("%s keys\n got %v\nwant %v", what, got, want)
	}
}
