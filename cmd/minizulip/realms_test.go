package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// postForm sends a form and decodes the JSON answer.
func postForm(t *testing.T, method, target string, form url.Values) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, target, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return mainGetJSON(t, req)
}

func TestRealmsServeOnTheirOwnLoopbackPorts(t *testing.T) {
	base, stop, _ := mainStart(t, "-api-key-seed", "fixed", "-messages", "3", "-feature-level", "277", "-zulip-version", "9.0")
	status, created := postForm(t, "POST", base+"/minizulip/realms", url.Values{"seed": {"empty"}})
	if status != 200 || created["realm_id"] != float64(1) {
		t.Fatalf("create: %d %v", status, created)
	}
	child := created["url"].(string)
	if !strings.HasPrefix(child, "http://127.0.0.1:") || child == base {
		t.Fatalf("realm URL %q", child)
	}
	// The command line's settings carry over where the spec says nothing:
	// the API key seed, the feature level.
	status, key := postForm(t, "POST", child+"/api/v1/dev_fetch_api_key", url.Values{"username": {"owner@zulip.com"}})
	if status != 200 {
		t.Fatalf("the empty realm's owner: %d %v", status, key)
	}
	// A reset goes back to the realm as created: its owner, same key.
	if status, body := postForm(t, "POST", child+"/minizulip/reset", nil); status != 200 {
		t.Fatalf("reset: %d %v", status, body)
	}
	if status, again := postForm(t, "POST", child+"/api/v1/dev_fetch_api_key", url.Values{"username": {"owner@zulip.com"}}); status != 200 || again["api_key"] != key["api_key"] {
		t.Fatalf("the owner after a reset: %d %v, want key %v", status, again, key["api_key"])
	}
	status, mainKey := postForm(t, "POST", base+"/api/v1/dev_fetch_api_key", url.Values{"username": {"iago@zulip.com"}})
	if status != 200 || mainKey["api_key"] == "" {
		t.Fatalf("main: %d %v", status, mainKey)
	}
	req, _ := http.NewRequest("GET", child+"/api/v1/server_settings", nil)
	if _, s := mainGetJSON(t, req); s["zulip_feature_level"] != float64(277) || s["realm_url"] != child {
		t.Fatalf("realm settings %v", s)
	}
	// A dev realm with the command line's -messages, another level.
	status, dev := postForm(t, "POST", base+"/minizulip/realms", url.Values{"feature_level": {"400"}})
	if status != 200 {
		t.Fatalf("create: %d %v", status, dev)
	}
	req, _ = http.NewRequest("GET", dev["url"].(string)+"/api/v1/server_settings", nil)
	if _, s := mainGetJSON(t, req); s["zulip_feature_level"] != float64(400) {
		t.Fatalf("second realm %v", s)
	}
	// Stopping the server closes them.
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{child, dev["url"].(string)} {
		if resp, err := http.Get(u + "/api/v1/server_settings"); err == nil {
			resp.Body.Close()
			t.Fatalf("%s still answers after the server stopped", u)
		}
	}
}

func TestMaxRealmsFlag(t *testing.T) {
	base, _, _ := mainStart(t, "-max-realms", "1")
	if status, body := postForm(t, "POST", base+"/minizulip/realms", nil); status != 200 {
		t.Fatalf("first: %d %v", status, body)
	}
	if status, body := postForm(t, "POST", base+"/minizulip/realms", nil); status != 429 || body["code"] != "TOO_MANY_REALMS" {
		t.Fatalf("past the limit: %d %v", status, body)
	}
	off, _, _ := mainStart(t, "-max-realms", "0")
	if status, body := postForm(t, "POST", off+"/minizulip/realms", nil); status != 400 || !strings.Contains(body["msg"].(string), "creates no realms") {
		t.Fatalf("-max-realms 0: %d %v", status, body)
	}
	if _, err := parseFlags([]string{"-max-realms", "-1"}, &strings.Builder{}); err == nil {
		t.Fatal("a negative -max-realms was taken")
	}
}
