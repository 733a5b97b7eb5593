package httpapi

import (
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Storage over HTTP as python-zulip-api's bots use it: PUT a JSON dict,
// GET with keys in the query string or none, DELETE with keys in the
// body (or the query string) or none; each user sees only its own.
func TestHTTPBotStorage(t *testing.T) {
	e := newUsersEnv(t)
	const bot = "default-bot@zulip.com"
	e.ok(e.do(bot, "PUT", "/bot_storage", url.Values{"storage": {`{"entry 1": "value 1", "entry 2": "value 2", "entry 3": "value 3"}`}}))
	body := e.ok(e.do(bot, "GET", "/bot_storage", url.Values{"keys": {`["entry 1", "entry 3"]`}}))
	if diff := cmp.Diff(map[string]any{"entry 1": "value 1", "entry 3": "value 3"}, body["storage"]); diff != "" {
		t.Fatalf("GET some keys (-want +got):\n%s", diff)
	}
	e.ok(e.do(bot, "DELETE", "/bot_storage", url.Values{"keys": {`["entry 2"]`}}))
	e.ok(e.call(bot, "DELETE", "/bot_storage", url.Values{"keys": {`["entry 3"]`}}, true))
	body = e.ok(e.do(bot, "GET", "/bot_storage", nil))
	if diff := cmp.Diff(map[string]any{"entry 1": "value 1"}, body["storage"]); diff != "" {
		t.Fatalf("GET all after removing (-want +got):\n%s", diff)
	}
	if body := e.ok(e.do("hamlet@zulip.com", "GET", "/bot_storage", nil)); !cmp.Equal(body["storage"], map[string]any{}) {
		t.Fatalf("hamlet sees %v", body["storage"])
	}
	e.ok(e.do(bot, "DELETE", "/bot_storage", nil))
	if body := e.ok(e.do(bot, "GET", "/bot_storage", nil)); !cmp.Equal(body["storage"], map[string]any{}) {
		t.Fatalf("after removing everything: %v", body["storage"])
	}
}

// Bad storage requests get Zulip's errors and change nothing.
func TestHTTPBotStorageRefusals(t *testing.T) {
	e := newUsersEnv(t)
	const me = "hamlet@zulip.com"
	e.ok(e.do(me, "PUT", "/bot_storage", url.Values{"storage": {`{"k": "v"}`}}))
	for _, c := range []struct {
		method string
		form   url.Values
		msg    string
	}{
		{"PUT", url.Values{"storage": {`["k"]`}}, "storage is not a dict"},
		{"PUT", url.Values{"storage": {`null`}}, "storage is not a dict"},
		{"PUT", url.Values{"storage": {`{"k": "new", "n": 1}`}}, "storage contains a value that is not a string"},
		{"PUT", url.Values{"storage": {`{"k": "new", "z": null}`}}, "storage contains a value that is not a string"},
		{"PUT", url.Values{"storage": {`{`}}, `Argument "storage" is not valid JSON.`},
		{"GET", url.Values{"keys": {`"k"`}}, "keys is not a list"},
		{"GET", url.Values{"keys": {`["k", 2]`}}, "keys[1] is not a string"},
		{"GET", url.Values{"keys": {`["k", "nope"]`}}, "Key does not exist."},
		{"DELETE", url.Values{"keys": {`["k", "nope"]`}}, "Key does not exist."},
		{"DELETE", url.Values{"keys": {`{}`}}, "keys is not a list"},
	} {
		status, body := e.do(me, c.method, "/bot_storage", c.form)
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
	status, body := e.do(me, "PUT", "/bot_storage", nil)
	e.fail(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'storage' argument")
	body = e.ok(e.do(me, "GET", "/bot_storage", nil))
	if !cmp.Equal(body["storage"], map[string]any{"k": "v"}) {
		t.Fatalf("refused requests changed the storage: %v", body["storage"])
	}
}
