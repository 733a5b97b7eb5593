package httpapi

import (
	"net/url"
	"slices"
	"testing"
)

// A system group mentioned out loud is refused with Zulip's error; a
// silent mention sends, shows the group's display name and flags nobody.
func TestHTTPSystemGroupMentions(t *testing.T) {
	e := newMsgEnv(t)
	status, body := e.do("iago@zulip.com", "POST", "/messages", url.Values{
		"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}, "content": {"@*role:everyone* look"},
	})
	e.wantError(status, body, 400, "BAD_REQUEST", "You are not allowed to mention user group 'role:everyone'.")
	if len(body) != 3 {
		t.Errorf("plain error carries exactly result, msg, code: %v", body)
	}
	id := e.sendTo("iago@zulip.com", "Denmark", "t", "@_*role:everyone* look")
	status, body = e.do("hamlet@zulip.com", "GET", "/messages", url.Values{
		"anchor": {"newest"}, "num_before": {"1"}, "num_after": {"0"},
	})
	e.wantSuccess(status, body)
	m := body["messages"].([]any)[0].(map[string]any)
	want := `<p><span class="user-group-mention silent" data-user-group-id="15">Everyone</span> look</p>`
	if int64(m["id"].(float64)) != id || m["content"] != want {
		t.Errorf("message %v: content %q, want %q", m["id"], m["content"], want)
	}
	if slices.Contains(e.flagsOf("hamlet@zulip.com", id), any("mentioned")) {
		t.Errorf("a silent group mention set mentioned")
	}
}
