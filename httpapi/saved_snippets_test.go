package httpapi

import (
	"net/url"
	"testing"
)

func TestHTTPSavedSnippets(t *testing.T) {
	e := newMsgEnv(t)
	status, body := e.do("hamlet@zulip.com", "POST", "/saved_snippets", url.Values{"title": {"Hi"}, "content": {"Hello"}})
	e.wantSuccess(status, body)
	id := jsonNumber(body["saved_snippet_id"])
	status, body = e.do("hamlet@zulip.com", "PATCH", "/saved_snippets/"+id, url.Values{"content": {"Hello again"}})
	e.wantSuccess(status, body)
	_, body = e.do("hamlet@zulip.com", "GET", "/saved_snippets", nil)
	list := body["saved_snippets"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["content"] != "Hello again" || list[0].(map[string]any)["title"] != "Hi" {
		t.Fatalf("list %v", body)
	}
	status, body = e.do("iago@zulip.com", "PATCH", "/saved_snippets/"+id, url.Values{"title": {"mine"}})
	e.wantError(status, body, 404, "BAD_REQUEST", "Saved snippet does not exist.")
	status, body = e.do("hamlet@zulip.com", "POST", "/saved_snippets", url.Values{"title": {"x"}})
	e.wantError(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'content' argument")
	status, body = e.do("hamlet@zulip.com", "DELETE", "/saved_snippets/"+id, nil)
	e.wantSuccess(status, body)
	status, body = e.do("hamlet@zulip.com", "DELETE", "/saved_snippets/"+id, nil)
	e.wantError(status, body, 404, "BAD_REQUEST", "Saved snippet does not exist.")
}
