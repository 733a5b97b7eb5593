package httpapi

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestCrossOriginBrowserRequestsAreRefused(t *testing.T) {
	e := newCtlEnv(t)
	host := strings.TrimPrefix(e.srv.URL, "http://")
	type headers map[string]string
	refused := []headers{
		{"Sec-Fetch-Site": "cross-site"},
		{"Sec-Fetch-Site": "same-site"}, // another port of localhost is the same site
		{"Origin": "http://evil.example"},
		{"Origin": "http://" + strings.Replace(host, "127.0.0.1", "localhost", 1)},
		{"Origin": "null"},
		{"Sec-Fetch-Site": "cross-site", "Origin": e.srv.URL},
	}
	passed := []headers{
		{},
		{"Sec-Fetch-Site": "same-origin"},
		{"Sec-Fetch-Site": "none"},
		{"Origin": e.srv.URL},
	}
	do := func(method, path string, form url.Values, h headers) (int, map[string]any, http.Header) {
		t.Helper()
		req, _ := http.NewRequest(method, e.srv.URL+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range h {
			req.Header.Set(k, v)
		}
		resp, err := e.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body, resp.Header
	}
	endpoints := []struct {
		method, path string
		form         url.Values
	}{
		{"POST", "/minizulip/clock", url.Values{"advance": {"60"}}},
		{"POST", "/minizulip/faults", url.Values{"path": {"/api/v1/users/me"}, "status": {"500"}}},
		{"POST", "/api/v1/dev_fetch_api_key", url.Values{"username": {"iago@zulip.com"}}},
		{"POST", "/api/v1/fetch_api_key", url.Values{"username": {"iago@zulip.com"}, "password": {"zulip"}}},
		{"POST", "/api/v1/dev_list_users", nil},
	}
	for _, ep := range endpoints {
		for _, h := range refused {
			clockBefore := e.realm.Now()
			status, body, header := do(ep.method, ep.path, ep.form, h)
			if status != http.StatusForbidden || body["result"] != "error" || body["code"] != "CSRF_FAILED" ||
				!strings.HasPrefix(body["msg"].(string), "Cross-origin request refused") {
				t.Errorf("%s %s with %v: %d %v", ep.method, ep.path, h, status, body)
			}
			if header.Get("Set-Cookie") != "" || !e.realm.Now().Equal(clockBefore) || len(e.api.Faults()) != 0 {
				t.Fatalf("%s %s with %v changed something", ep.method, ep.path, h)
			}
		}
	}
	for _, ep := range endpoints {
		for _, h := range passed {
			if status, body, _ := do(ep.method, ep.path, ep.form, h); status != 200 {
				t.Errorf("%s %s with %v: %d %v", ep.method, ep.path, h, status, body)
			}
		}
	}
	// Safe methods change nothing and pass: a link from another site to
	// the index still opens it.
	if status, body, _ := do("GET", "/minizulip/", nil, headers{"Sec-Fetch-Site": "cross-site"}); status != 200 {
		t.Fatalf("cross-site GET: %d %v", status, body)
	}
	// The Zulip API itself is left to its own checks (API keys, /json's
	// CSRF token).
	if status, body, _ := do("GET", "/api/v1/server_settings", nil, headers{"Sec-Fetch-Site": "cross-site"}); status != 200 {
		t.Fatalf("server_settings: %d %v", status, body)
	}
}
