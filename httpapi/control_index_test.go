package httpapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestControlIndexListsEveryEndpoint(t *testing.T) {
	e := newCtlEnv(t)
	list := e.ok(e.ctl("GET", "/minizulip/", nil))["endpoints"].([]any)
	routes := controlRoutes()
	if len(list) != len(routes) {
		t.Fatalf("%d endpoints listed, %d routes", len(list), len(routes))
	}
	seen := map[string]map[string]any{}
	for _, ep := range list {
		ep := ep.(map[string]any)
		seen[ep["method"].(string)+" "+ep["path"].(string)] = ep
	}
	for _, want := range []string{"GET /minizulip/", "GET /minizulip/requests/wait", "POST /minizulip/faults",
		"DELETE /minizulip/snapshots/{snapshot_id}", "GET /minizulip/queues"} {
		if seen[want] == nil {
			t.Errorf("index lacks %s: %v", want, list)
		}
	}
	if p := seen["GET /minizulip/requests/wait"]["params"].([]any); len(p) != 5 || p[0] != "timeout" {
		t.Fatalf("wait params %v", p)
	}
	if p := seen["GET /minizulip/clock"]["params"].([]any); len(p) != 0 {
		t.Fatalf("clock params %v", p)
	}
	// Every listed endpoint is served: its method is not a 405, its path not a 404.
	for key, ep := range seen {
		req := httptest.NewRequest("OPTIONS", ep["path"].(string), nil)
		rec := httptest.NewRecorder()
		e.api.ServeHTTP(rec, req)
		if rec.Code != http.StatusMethodNotAllowed {
			t.Errorf("%s: OPTIONS answered %d, want 405 from a served path", key, rec.Code)
		}
	}
	status, body := e.ctl("GET", "/minizulip/", map[string][]string{"x": {"1"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Unknown parameter(s) of GET /minizulip/: x (it takes: none)")
	status, body = e.ctl("GET", "/minizulip/nothing", nil)
	if status != 404 {
		t.Fatalf("unknown control path: %d %v", status, body)
	}
}

func TestControlPageGoesToBrowsersOnly(t *testing.T) {
	page := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, "<!doctype html><title>inspector</title>")
	})
	e := newCtlEnv(t, WithControlPage(page))
	for _, c := range []struct {
		accept string
		html   bool
	}{
		{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", true}, // a browser
		{"text/*", true},
		{"", false},
		{"*/*", false},
		{"application/json", false},
		{"application/json, text/html;q=0.5", false},
		{"*/*, application/json;q=0.1", true},
		{"text/html;q=0", false},
	} {
		req, _ := http.NewRequest("GET", e.srv.URL+"/minizulip/", nil)
		if c.accept != "" {
			req.Header.Set("Accept", c.accept)
		}
		resp, err := e.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		gotHTML := resp.Header.Get("Content-Type") == "text/html"
		if gotHTML != c.html || resp.StatusCode != 200 {
			t.Errorf("Accept %q: %d %s %q", c.accept, resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
	}
	// Without the option a browser gets the JSON index.
	plain := newCtlEnv(t)
	req, _ := http.NewRequest("GET", plain.srv.URL+"/minizulip/", nil)
	req.Header.Set("Accept", "text/html")
	status, body := plain.doJSON(req)
	if status != 200 || body["endpoints"] == nil {
		t.Fatalf("%d %v", status, body)
	}
}
