package httpapi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// chanEnv is a dev realm behind an httptest server, for the channel tests.
type chanEnv struct {
	t     *testing.T
	realm *realm.Realm
	srv   *httptest.Server
}

func newChanEnv(t *testing.T, opts ...realm.Option) *chanEnv {
	t.Helper()
	r := realm.New(opts...)
	srv := httptest.NewServer(New(r))
	t.Cleanup(srv.Close)
	return &chanEnv{t: t, realm: r, srv: srv}
}

// call sends form as the query string (GET, or when inQuery) or as a
// urlencoded body, authenticated as email, and decodes the JSON answer.
func (e *chanEnv) call(email, method, path string, form url.Values, inQuery bool) (int, map[string]any) {
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
	_, key, ok := e.realm.APIKey(email)
	if !ok {
		e.t.Fatalf("no such user %s", email)
	}
	req.SetBasicAuth(email, key)
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

// do is call with the form in the body for non-GET methods.
func (e *chanEnv) do(email, method, path string, form url.Values) (int, map[string]any) {
	e.t.Helper()
	return e.call(email, method, path, form, false)
}

// ok asserts a success answer without ignored parameters and returns it.
func (e *chanEnv) ok(status int, body map[string]any) map[string]any {
	e.t.Helper()
	if status != http.StatusOK || body["result"] != "success" || body["msg"] != "" {
		e.t.Fatalf("got %d %v; want success", status, body)
	}
	if ign, ok := body["ignored_parameters_unsupported"]; ok {
		e.t.Fatalf("supported parameters reported as ignored: %v", ign)
	}
	return body
}

// fail asserts an error answer with exactly the given status, code and msg.
func (e *chanEnv) fail(status int, body map[string]any, wantStatus int, code, msg string) {
	e.t.Helper()
	if status != wantStatus || body["result"] != "error" || body["code"] != code || body["msg"] != msg {
		e.t.Fatalf("got %d %v; want %d %s %q", status, body, wantStatus, code, msg)
	}
}

// streamNames lists the names of GET /streams for email with query form.
func (e *chanEnv) streamNames(email string, form url.Values) []string {
	e.t.Helper()
	body := e.ok(e.do(email, "GET", "/streams", form))
	out := []string{}
	for _, s := range body["streams"].([]any) {
		out = append(out, s.(map[string]any)["name"].(string))
	}
	return out
}

// subscriptionNames lists the names of GET /users/me/subscriptions.
func (e *chanEnv) subscriptionNames(email string) []string {
	e.t.Helper()
	body := e.ok(e.do(email, "GET", "/users/me/subscriptions", nil))
	out := []string{}
	for _, s := range body["subscriptions"].([]any) {
		out = append(out, s.(map[string]any)["name"].(string))
	}
	return out
}

// snapshot records every channel iago can see with include_all, and the
// subscription names of a few users, to assert rejected calls change nothing.
func (e *chanEnv) snapshot() []string {
	e.t.Helper()
	out := e.streamNames("iago@zulip.com", url.Values{"include_all": {"true"}, "exclude_archived": {"false"}})
	for _, u := range []string{"hamlet@zulip.com", "othello@zulip.com", "cordelia@zulip.com", "iago@zulip.com"} {
		out = append(out, "|"+u)
		out = append(out, e.subscriptionNames(u)...)
	}
	return out
}

func (e *chanEnv) unchanged(before []string) {
	e.t.Helper()
	if after := e.snapshot(); !slices.Equal(before, after) {
		e.t.Fatalf("state changed:\n%v\n%v", before, after)
	}
}
