package httpapi

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHTTPMessagesMatchNarrow(t *testing.T) {
	e := newMsgEnv(t)
	castle := e.sendTo("iago@zulip.com", "Denmark", "castle <keep>", "the **moat**")
	other := e.sendTo("iago@zulip.com", "Denmark", "other", "elsewhere")
	status, body := e.do("iago@zulip.com", "POST", "/messages", url.Values{"type": {"private"}, "to": {`["hamlet@zulip.com"]`}, "content": {"private"}})
	private := int64(e.ok(status, body)["id"].(float64))

	matches := func(email, narrow string, ids ...int64) map[string]any {
		t.Helper()
		list := "["
		for i, id := range ids {
			if i > 0 {
				list += ","
			}
			list += fmt.Sprint(id)
		}
		status, body := e.do(email, "GET", "/messages/matches_narrow", url.Values{"msg_ids": {list + "]"}, "narrow": {narrow}})
		return e.ok(status, body)["messages"].(map[string]any)
	}
	got := matches("iago@zulip.com", `[{"operator":"channel","operand":"Denmark"},{"operator":"topic","operand":"castle <keep>"}]`, castle, other, private, 999999)
	want := map[string]any{fmt.Sprint(castle): map[string]any{
		"match_content": "<p>the <strong>moat</strong></p>", "match_subject": "castle &lt;keep&gt;"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("topic narrow (-want +got):\n%s", diff)
	}
	// Every message the user may read matches the empty narrow; another
	// user's direct message is left out like a non-match.
	if got := matches("iago@zulip.com", `[]`, castle, other, private); len(got) != 3 {
		t.Fatalf("empty narrow matched %v", got)
	}
	if got := matches("othello@zulip.com", `[]`, castle, private); len(got) != 1 || got[fmt.Sprint(castle)] == nil {
		t.Fatalf("othello matched %v", got)
	}
	if got := matches("iago@zulip.com", `[{"operator":"is","operand":"dm"}]`, castle, private); len(got) != 1 || got[fmt.Sprint(private)] == nil {
		t.Fatalf("is:dm matched %v", got)
	}

	status, body = e.do("iago@zulip.com", "GET", "/messages/matches_narrow", url.Values{"narrow": {"[]"}})
	e.wantError(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'msg_ids' argument")
	status, body = e.do("iago@zulip.com", "GET", "/messages/matches_narrow", url.Values{"msg_ids": {"[1]"}})
	e.wantError(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'narrow' argument")
	status, body = e.do("iago@zulip.com", "GET", "/messages/matches_narrow", url.Values{"msg_ids": {`["x"]`}, "narrow": {"[]"}})
	e.fail(status, body, 400, "BAD_REQUEST", "msg_ids[0] is not an integer")
	status, body = e.do("iago@zulip.com", "GET", "/messages/matches_narrow", url.Values{"msg_ids": {"[1]"}, "narrow": {`[{"operator":"channel","operand":"Atlantis"}]`}})
	e.wantError(status, body, 400, "BAD_NARROW", "")
}
