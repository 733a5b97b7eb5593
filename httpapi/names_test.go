package httpapi

import (
	"net/url"
	"testing"
)

// Names refuse NUL and the other characters Zulip refuses, with a clear
// message, and nothing is created (issue 14, item 3).
func TestNamesRefuseUnprintableCharacters(t *testing.T) {
	e := newMsgEnv(t)
	for _, c := range []struct {
		path string
		form url.Values
		msg  string
	}{
		{"/user_groups/create", url.Values{"name": {"crew\x00"}, "members": {"[10]"}}, "Invalid character in user group name, at position 5."},
		{"/saved_snippets", url.Values{"title": {"t\x01"}, "content": {"c"}}, "Invalid character in title, at position 2."},
		{"/saved_snippets", url.Values{"title": {"t"}, "content": {"c\x00"}}, "Content must not contain null bytes"},
		{"/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"bad\u0000name"}]`}}, "Invalid character in channel name, at position 4."},
		{"/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"a\x00"}, "content": {"x"}}, "Invalid character in topic, at position 2!"},
	} {
		st, body := e.do("hamlet@zulip.com", "POST", c.path, c.form)
		e.fail(st, body, 400, "BAD_REQUEST", c.msg)
	}
	_, groups := e.do("hamlet@zulip.com", "GET", "/user_groups", nil)
	for _, g := range groups["user_groups"].([]any) {
		if g.(map[string]any)["name"] == "crew\x00" {
			t.Fatal("a refused group was created")
		}
	}
	_, snippets := e.do("hamlet@zulip.com", "GET", "/saved_snippets", nil)
	if n := len(snippets["saved_snippets"].([]any)); n != 0 {
		t.Fatalf("%d snippets after refusals", n)
	}
	if e.realm.MessageCount() != 0 {
		t.Fatal("a refused message was stored")
	}
}
