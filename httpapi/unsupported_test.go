package httpapi

import (
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUnsupportedEndpointsAndParametersAreRecorded(t *testing.T) {
	e := newCtlEnv(t)
	status, body := e.do("iago@zulip.com", "GET", "/nope", url.Values{"b": {"1"}, "a": {"2"}})
	e.fail(status, body, 404, "BAD_REQUEST", "Not Found")
	e.do("iago@zulip.com", "GET", "/nope", url.Values{"b": {"1"}, "a": {"2"}})
	status, body = e.do("iago@zulip.com", "PUT", "/users/me", nil) // a known path, another method
	if status != 405 {
		t.Fatalf("PUT /users/me: %d %v", status, body)
	}
	status, body = e.do("iago@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"},
		"content": {"x"}, "sparkle": {"1"}, "client": {"test suite"}})
	if ign := e.success(status, body)["ignored_parameters_unsupported"]; !cmp.Equal(ign, []any{"sparkle"}) {
		t.Fatalf("ignored parameters: %v", ign)
	}
	// Supported parameters only, and client alone: nothing recorded,
	// though the answer names client as Zulip's would.
	e.ok(e.do("iago@zulip.com", "GET", "/users/me", nil))
	status, body = e.do("iago@zulip.com", "GET", "/users/me", url.Values{"client": {"x"}})
	if ign := e.success(status, body)["ignored_parameters_unsupported"]; !cmp.Equal(ign, []any{"client"}) {
		t.Fatalf("ignored parameters: %v", ign)
	}
	want := []UnsupportedRequest{
		{Kind: "endpoint", Method: "GET", Path: "/api/v1/nope", Params: []string{"a", "b"}, Count: 2},
		{Kind: "endpoint", Method: "PUT", Path: "/api/v1/users/me", Params: []string{}, Count: 1},
		{Kind: "parameters", Method: "POST", Path: "/api/v1/messages", Params: []string{"sparkle"}, Count: 1},
	}
	if diff := cmp.Diff(want, e.api.Unsupported()); diff != "" {
		t.Fatalf("Unsupported (-want +got):\n%s", diff)
	}
	status, body = e.ctl("GET", "/minizulip/unsupported", nil)
	list := e.ok(status, body)["unsupported"].([]any)
	if len(list) != 3 || !cmp.Equal(list[2], map[string]any{"kind": "parameters", "method": "POST", "path": "/api/v1/messages",
		"params": []any{"sparkle"}, "count": float64(1)}) {
		t.Fatalf("GET /minizulip/unsupported: %v", list)
	}
	e.ok(e.ctl("DELETE", "/minizulip/unsupported", nil))
	if got := e.api.Unsupported(); len(got) != 0 {
		t.Fatalf("after clearing: %v", got)
	}
}

func TestStrictModeRefusesUnsupportedRequests(t *testing.T) {
	e := newCtlEnv(t, WithStrict(true))
	status, body := e.do("iago@zulip.com", "GET", "/nope", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "minizulip does not implement GET /api/v1/nope (strict mode)")
	status, body = e.do("iago@zulip.com", "PUT", "/users/me", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "minizulip does not implement PUT /api/v1/users/me (strict mode)")
	status, body = e.do("iago@zulip.com", "GET", "/users/me", url.Values{"sparkle": {"1"}, "glitter": {"2"}, "client": {"x"}})
	e.fail(status, body, 400, "BAD_REQUEST", `minizulip does not support the parameter(s) "glitter", "sparkle" of GET /api/v1/users/me (strict mode; the request was carried out without them)`)
	// What is supported still works, client included.
	e.ok(e.do("iago@zulip.com", "GET", "/users/me", nil))
	status, body = e.do("iago@zulip.com", "GET", "/users/me", url.Values{"client": {"x"}})
	e.success(status, body)
	// OPTIONS is not an unsupported method.
	resp, err := e.srv.Client().Do(e.req("iago@zulip.com", "OPTIONS", "/api/v1/users/me"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 204 {
		t.Fatalf("OPTIONS: %d", resp.StatusCode)
	}
	if n := len(e.api.Unsupported()); n != 3 {
		t.Fatalf("%d kinds recorded, want 3: %v", n, e.api.Unsupported())
	}
}

func TestUnsupportedRecordIsBounded(t *testing.T) {
	var l unsupportedLog
	for i := range maxUnsupportedKinds + 10 {
		l.note(UnsupportedEndpoint, "GET", "/api/v1/x"+string(rune('a'+i%26))+string(rune(i)), nil)
	}
	l.note(UnsupportedEndpoint, "GET", "/api/v1/xa"+string(rune(0)), nil)
	if len(l.entries) != maxUnsupportedKinds || l.entries[0].Count != 2 {
		t.Fatalf("%d entries, first counted %d", len(l.entries), l.entries[0].Count)
	}
}
