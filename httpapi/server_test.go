package httpapi

import (
	"bytes"
	"encoding/base64"
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

func rawDo(t *testing.T, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

func mustRequest(method, target string) *http.Request {
	req, _ := http.NewRequest(method, target, nil)
	return req
}

// srvDecode decodes a JSON object body, failing the test otherwise.
func srvDecode(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatalf("body %q is not a JSON object: %v", body, err)
	}
	return out
}

// srvEchoServer is an API server with two extra routes on every method, so
// that the adapter can be tested without any endpoint's rules:
// /test/echo (authenticated) and /test/public (no login). Both read the
// parameters a (string), n (integer) and ids (list of integers) and answer
// them, with the caller's user_id on the authenticated one.
func srvEchoServer(t *testing.T) (*httptest.Server, *realm.Realm) {
	t.Helper()
	r := realm.New()
	s := New(r)
	routes := apiRoutes()
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
		routes = append(routes, route{method: m, path: "/test/echo", h: srvEcho},
			route{method: m, path: "/test/public", h: srvEcho, public: true})
	}
	s.routes = newRouter(routes)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts, r
}

func srvEcho(c *call) (any, error) {
	out := map[string]any{}
	if a, ok := c.p.str("a"); ok {
		out["a"] = a
	}
	if n, set, err := c.p.optInt("n"); err != nil {
		return nil, err
	} else if set {
		out["n"] = n
	}
	if ids, set, err := c.p.optIntList("ids"); err != nil {
		return nil, err
	} else if set {
		out["ids"] = ids
	}
	if c.actor != nil {
		out["user_id"] = c.actor.UserID()
	}
	return out, nil
}

func basicHeader(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

func TestAuthenticationFailures(t *testing.T) {
	ts, r := srvEchoServer(t)
	_, key, _ := r.APIKey("hamlet@zulip.com")
	const invalidHeader = "Invalid authorization header for basic auth"
	cases := []struct {
		name, header, msg string
	}{
		{"no credentials", "", "Not logged in: API authentication or user session required"},
		{"bad base64", "Basic %%%", invalidHeader},
		{"scheme only", "Basic", invalidHeader},
		{"three words", "Basic " + base64.StdEncoding.EncodeToString([]byte("hamlet@zulip.com:"+key)) + " x", invalidHeader},
		{"no colon", "Basic " + base64.StdEncoding.EncodeToString([]byte("hamlet@zulip.com")), invalidHeader},
		{"two colons", basicHeader("hamlet@zulip.com", key+":x"), invalidHeader},
		{"not UTF-8", "Basic " + base64.StdEncoding.EncodeToString([]byte("\xff:"+key)), invalidHeader},
		{"wrong key", basicHeader("hamlet@zulip.com", strings.Repeat("a", 32)), "Invalid API key"},
		{"malformed key", basicHeader("hamlet@zulip.com", "short"), "Malformed API key"},
		{"key with symbols", basicHeader("hamlet@zulip.com", strings.Repeat("-", 32)), "Malformed API key"},
		{"unknown email", basicHeader("ghost@zulip.com", key), "Invalid API key"},
		{"another user's key", basicHeader("iago@zulip.com", key), "Invalid API key"},
	}
	for _, c := range cases {
		// A POST that would change nothing anyway; the handler must not run.
		req, _ := http.NewRequest("POST", ts.URL+"/api/v1/test/echo", strings.NewReader("a=1"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if c.header != "" {
			req.Header.Set("Authorization", c.header)
		}
		resp, body := rawDo(t, req)
		out := srvDecode(t, body)
		if resp.StatusCode != 401 || out["code"] != "UNAUTHORIZED" || out["msg"] != c.msg || out["result"] != "error" ||
			len(out) != 3 || resp.Header.Get("WWW-Authenticate") != `Basic realm="zulip"` {
			t.Errorf("%s: %d %v %q", c.name, resp.StatusCode, out, resp.Header.Get("WWW-Authenticate"))
		}
	}

	// Another scheme is a plain 400, as in Zulip, without a challenge.
	req := mustRequest("GET", ts.URL+"/api/v1/test/echo")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, body := rawDo(t, req)
	out := srvDecode(t, body)
	if resp.StatusCode != 400 || out["code"] != "BAD_REQUEST" || out["msg"] != "This endpoint requires HTTP basic authentication." ||
		resp.Header.Get("WWW-Authenticate") != "" {
		t.Fatalf("bearer: %d %v", resp.StatusCode, out)
	}

	// Accepted forms: any case of the address and of the scheme, the API
	// address, blanks around the parts.
	for _, header := range []string{
		basicHeader("HAMLET@zulip.com", key),
		basicHeader("user10@zulipdev.com", key),
		"basic " + base64.StdEncoding.EncodeToString([]byte("hamlet@zulip.com:"+key)),
		basicHeader(" hamlet@zulip.com ", " "+key+" "),
	} {
		req := mustRequest("GET", ts.URL+"/api/v1/test/echo")
		req.Header.Set("Authorization", header)
		resp, body := rawDo(t, req)
		if out := srvDecode(t, body); resp.StatusCode != 200 || out["user_id"] != float64(10) {
			t.Errorf("%q: %d %s", header, resp.StatusCode, body)
		}
	}
}

// A rejected login changes nothing: the endpoint is never reached.
func TestUnauthorizedCallChangesNothing(t *testing.T) {
	ts := RunT(t)
	before := ts.Realm.MessageCount()
	req := ts.NewRequest("", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}, "content": {"x"}})
	req.SetBasicAuth("iago@zulip.com", strings.Repeat("b", 32))
	if resp, body := rawDo(t, req); resp.StatusCode != 401 || ts.Realm.MessageCount() != before {
		t.Fatalf("%d %s; %d messages", resp.StatusCode, body, ts.Realm.MessageCount())
	}
}

func TestRoutingErrors(t *testing.T) {
	ts := RunT(t)
	// Unknown route: 404 before authentication, JSON.
	for _, email := range []string{"iago@zulip.com", ""} {
		resp, body := rawDo(t, ts.NewRequest(email, "GET", "/no/such/route", nil))
		out := srvDecode(t, body)
		if resp.StatusCode != 404 || out["result"] != "error" || out["msg"] != "Not Found" || resp.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("unknown route (%q): %d %s", email, resp.StatusCode, body)
		}
	}
	if resp, _ := rawDo(t, mustRequest("GET", ts.URL+"/api/v2/server_settings")); resp.StatusCode != 404 {
		t.Fatalf("outside /api/v1: %d", resp.StatusCode)
	}

	// Known route, other method: 405 before authentication, no code.
	for _, email := range []string{"iago@zulip.com", ""} {
		resp, body := rawDo(t, ts.NewRequest(email, "PUT", "/messages", nil))
		out := srvDecode(t, body)
		var allowed []string
		for _, m := range out["allowed_methods"].([]any) {
			allowed = append(allowed, m.(string))
		}
		if resp.StatusCode != 405 || out["msg"] != "Method Not Allowed" || out["result"] != "error" ||
			strings.Join(allowed, ",") != "GET,HEAD,POST" || resp.Header.Get("Allow") != "GET, HEAD, POST" {
			t.Fatalf("405 (%q): %d %s %q", email, resp.StatusCode, body, resp.Header.Get("Allow"))
		}
		if _, ok := out["code"]; ok {
			t.Fatal("a 405 carries no code")
		}
	}
	for path, allow := range map[string]string{
		"/server_settings":   "GET, HEAD",
		"/dev_fetch_api_key": "POST",
		"/users/me":          "DELETE, GET, HEAD",
	} {
		resp, _ := rawDo(t, mustRequest("PATCH", ts.URL+APIPrefix+path))
		if resp.StatusCode != 405 || resp.Header.Get("Allow") != allow {
			t.Errorf("PATCH %s: %d %q", path, resp.StatusCode, resp.Header.Get("Allow"))
		}
		resp, body := rawDo(t, mustRequest("OPTIONS", ts.URL+APIPrefix+path))
		if resp.StatusCode != 204 || resp.Header.Get("Allow") != allow || len(body) != 0 {
			t.Errorf("OPTIONS %s: %d %q %q", path, resp.StatusCode, resp.Header.Get("Allow"), body)
		}
	}

	// HEAD wherever GET exists: same status, no body.
	resp, body := rawDo(t, ts.NewRequest("iago@zulip.com", "HEAD", "/users/me", nil))
	if resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("HEAD: %d %q", resp.StatusCode, body)
	}
	resp, _ = rawDo(t, mustRequest("HEAD", ts.URL+"/api/v1/server_settings"))
	if resp.StatusCode != 200 {
		t.Fatalf("HEAD server_settings: %d", resp.StatusCode)
	}
	resp, _ = rawDo(t, mustRequest("HEAD", ts.URL+"/api/v1/users/me"))
	if resp.StatusCode != 401 {
		t.Fatalf("HEAD without login: %d", resp.StatusCode)
	}
}

func TestEnvelopeShape(t *testing.T) {
	ts, r := srvEchoServer(t)
	_, key, _ := r.APIKey("iago@zulip.com")
	get := func(q string) (*http.Response, []byte) {
		req := mustRequest("GET", ts.URL+"/api/v1/test/echo"+q)
		req.SetBasicAuth("iago@zulip.com", key)
		return rawDo(t, req)
	}
	// Body names arrive before query names; the list is sorted anyway.
	req, _ := http.NewRequest("POST", ts.URL+"/api/v1/test/echo?alpha=2&Beta=3", strings.NewReader("zeta=1&a=x"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth("iago@zulip.com", key)
	resp, body := rawDo(t, req)
	if resp.Header.Get("Content-Type") != "application/json" || !bytes.HasSuffix(body, []byte("}\n")) {
		t.Fatalf("headers %v body %q", resp.Header, body)
	}
	out := srvDecode(t, body)
	var ignored []string
	for _, v := range out["ignored_parameters_unsupported"].([]any) {
		ignored = append(ignored, v.(string))
	}
	// Sorted, as Zulip sorts them; the supported parameter is not listed.
	if out["result"] != "success" || out["msg"] != "" || out["a"] != "x" || !slices.Equal(ignored, []string{"Beta", "alpha", "zeta"}) {
		t.Fatalf("envelope %s", body)
	}
	_, body = get("?a=x")
	if bytes.Contains(body, []byte("ignored_parameters_unsupported")) {
		t.Fatal("no unsupported parameter was sent")
	}
	// Errors never list ignored parameters, and carry exactly result, msg, code.
	resp, body = get("?n=x&bogus=1")
	out = srvDecode(t, body)
	if resp.StatusCode != 400 || out["msg"] != "n is not an integer" || out["code"] != "BAD_REQUEST" || len(out) != 3 ||
		!bytes.HasSuffix(body, []byte("}\n")) || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("error envelope: %d %s", resp.StatusCode, body)
	}
	// Missing parameters carry var_name.
	resp, body = rawDo(t, mustRequest("POST", ts.URL+"/api/v1/dev_fetch_api_key"))
	out = srvDecode(t, body)
	if resp.StatusCode != 400 || out["code"] != "REQUEST_VARIABLE_MISSING" || out["var_name"] != "username" || out["msg"] != "Missing 'username' argument" {
		t.Fatalf("missing: %d %s", resp.StatusCode, body)
	}
}

// Parameters arrive in the query string or the body for every method,
// DELETE included, urlencoded or multipart.
func TestParametersFromEveryEncoding(t *testing.T) {
	ts, r := srvEchoServer(t)
	_, key, _ := r.APIKey("othello@zulip.com")
	send := func(method, ctype string, body io.Reader, query string) map[string]any {
		t.Helper()
		req, _ := http.NewRequest(method, ts.URL+"/api/v1/test/echo"+query, body)
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		req.SetBasicAuth("othello@zulip.com", key)
		resp, out := rawDo(t, req)
		if resp.StatusCode != 200 {
			t.Fatalf("%s %s: %d %s", method, ctype, resp.StatusCode, out)
		}
		return srvDecode(t, out)
	}
	const form = "application/x-www-form-urlencoded"
	want := func(got map[string]any, what string) {
		t.Helper()
		ids, _ := got["ids"].([]any)
		if got["a"] != "é &x" || got["n"] != float64(5) || len(ids) != 2 || ids[1] != float64(3) || got["user_id"] != float64(12) {
			t.Errorf("%s: %v", what, got)
		}
	}
	vals := url.Values{"a": {"é &x"}, "n": {"5"}, "ids": {"[2,3]"}}
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
		want(send(m, "", nil, "?"+vals.Encode()), m+" query")
		if m == "GET" {
			continue // Zulip reads no GET body
		}
		want(send(m, form, strings.NewReader(vals.Encode()), ""), m+" urlencoded")
		want(send(m, form+"; charset=utf-8", strings.NewReader(vals.Encode()), ""), m+" urlencoded with charset")
		var mp bytes.Buffer
		ctype := newMultipart(&mp, map[string]string{"a": "é &x", "n": "5", "ids": "[2,3]"})
		want(send(m, ctype, &mp, ""), m+" multipart")
		// A body without a Content-Type is read as a form (curl -d sets it;
		// some clients do not).
		want(send(m, "", strings.NewReader(vals.Encode()), ""), m+" untyped body")
	}
	// Body and query merge; the body wins a name sent twice; within one
	// source the last value wins (Django's QueryDict).
	got := send("POST", form, strings.NewReader("a=body&n=1&n=7"), "?a=query&ids=[1,1]")
	if got["a"] != "body" || got["n"] != float64(7) || len(got["ids"].([]any)) != 2 {
		t.Fatalf("merge: %v", got)
	}
	// A JSON body is not a form: its fields are not parameters.
	got = send("POST", "application/json", strings.NewReader(`{"a":"x"}`), "")
	if _, ok := got["a"]; ok {
		t.Fatalf("json body read as parameters: %v", got)
	}
}

func TestMalformedBodies(t *testing.T) {
	ts, _ := srvEchoServer(t)
	for _, c := range []struct{ ctype, body, msg string }{
		{"multipart/form-data", "x", "Malformed multipart body"},
		{"multipart/form-data; boundary=zz", "not multipart", "Malformed multipart body"},
		{"application/x-www-form-urlencoded", "a=%zz", "Malformed form body"},
	} {
		req, _ := http.NewRequest("POST", ts.URL+"/api/v1/test/public", strings.NewReader(c.body))
		req.Header.Set("Content-Type", c.ctype)
		resp, body := rawDo(t, req)
		out := srvDecode(t, body)
		if resp.StatusCode != 400 || out["code"] != "BAD_REQUEST" || out["msg"] != c.msg {
			t.Errorf("%s %q: %d %s", c.ctype, c.body, resp.StatusCode, body)
		}
	}
	resp, body := rawDo(t, mustRequest("GET", ts.URL+"/api/v1/test/public?a=%zz"))
	if out := srvDecode(t, body); resp.StatusCode != 400 || out["msg"] != "Malformed query string" {
		t.Fatalf("bad query: %d %s", resp.StatusCode, body)
	}
}

// Public routes ignore credentials entirely, even broken ones.
func TestPublicRoutesIgnoreCredentials(t *testing.T) {
	ts, _ := srvEchoServer(t)
	for _, header := range []string{"", "Basic %%%", "Bearer x", basicHeader("iago@zulip.com", "wrong")} {
		req := mustRequest("GET", ts.URL+"/api/v1/test/public?a=1")
		if header != "" {
			req.Header.Set("Authorization", header)
		}
		resp, body := rawDo(t, req)
		out := srvDecode(t, body)
		if _, hasUser := out["user_id"]; resp.StatusCode != 200 || out["a"] != "1" || hasUser {
			t.Errorf("%q: %d %s", header, resp.StatusCode, body)
		}
	}
}

// Id wildcards match only digits, as Zulip's routes do: a path such as
// /messages/starred is not /messages/{message_id}, so another method there
// is a 404, not a 405.
func TestIDWildcardsMatchOnlyDigits(t *testing.T) {
	ts := RunT(t)
	for path, want := range map[string]int{
		"/messages/starred": 404,
		"/messages/12":      405,
		"/messages/12a":     404,
		"/messages/%20":     404,
	} {
		resp, body := rawDo(t, ts.NewRequest("iago@zulip.com", "POST", path, nil))
		if resp.StatusCode != want {
			t.Errorf("POST %s: %d %s, want %d", path, resp.StatusCode, body, want)
		}
		if want == 404 && srvDecode(t, body)["code"] != "BAD_REQUEST" {
			t.Errorf("POST %s: %s", path, body)
		}
	}
	if got := idWildcards("/user_groups/{group_id}/members/{user_id}"); strings.Join(got, ",") != "group_id,user_id" {
		t.Fatalf("wildcards %v", got)
	}
}
