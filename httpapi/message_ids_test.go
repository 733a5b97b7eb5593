package httpapi

import (
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// GET /messages with message_ids (feature level 300): the messages, with
// found_* false and no anchor; refused beside a range; below level 300
// the parameter is unknown, ignored, and a range is needed.
func TestHTTPFetchByMessageIDs(t *testing.T) {
	e := newMsgEnv(t)
	a := e.sendTo("othello@zulip.com", "Verona", "chat", "one")
	b := e.sendTo("othello@zulip.com", "Verona", "chat", "two")
	body, got := e.fetchIDs("hamlet@zulip.com", url.Values{"message_ids": {idList(b, a, 987654)}, "num_before": {"0"}})
	if !cmp.Equal(got, []int64{a, b}) {
		t.Fatalf("ids %v", got)
	}
	if _, ok := body["anchor"]; ok || body["found_anchor"] != false || body["found_oldest"] != false ||
		body["found_newest"] != false || body["history_limited"] != false || body["ignored_parameters_unsupported"] != nil {
		t.Fatalf("answer %v", body)
	}
	// null is no list: a range is needed.
	status, resp := e.do("hamlet@zulip.com", "GET", "/messages", url.Values{"message_ids": {"null"}})
	e.fail(status, resp, 400, "BAD_REQUEST", "Missing 'anchor' argument.")
	const combo = "num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor"
	for _, f := range []url.Values{
		{"message_ids": {idList(a)}, "anchor": {"newest"}},
		{"message_ids": {idList(a)}, "anchor": {"not-an-anchor"}},
		{"message_ids": {idList(a)}, "use_first_unread_anchor": {"true"}},
		{"message_ids": {idList(a)}, "num_after": {"3"}},
	} {
		status, resp := e.do("hamlet@zulip.com", "GET", "/messages", f)
		e.fail(status, resp, 400, "BAD_REQUEST", "Unsupported parameter combination: "+combo)
		if resp["parameters"] != combo {
			t.Errorf("%v: parameters %v", f, resp["parameters"])
		}
	}
	for _, c := range []struct{ raw, msg string }{
		{`[1, -2]`, "message_ids[1] is too small"},
		{`[1, "x"]`, "message_ids[1] is not an integer"},
		{`{"a": 1}`, "message_ids is not a list"},
		{`[1,`, `Argument "message_ids" is not valid JSON.`},
	} {
		status, resp := e.do("hamlet@zulip.com", "GET", "/messages", url.Values{"message_ids": {c.raw}})
		e.fail(status, resp, 400, "BAD_REQUEST", c.msg)
	}

	old := newChanEnv(t, realmFeatureLevel(299, "9.0"))
	status, resp = old.do("hamlet@zulip.com", "GET", "/messages", url.Values{"message_ids": {"[1]"}})
	old.fail(status, resp, 400, "BAD_REQUEST", "Missing 'anchor' argument.")
	body = old.success(old.do("hamlet@zulip.com", "GET", "/messages", url.Values{"message_ids": {"[1]"}, "anchor": {"newest"}, "num_before": {"1"}, "num_after": {"0"}}))
	if _, ok := body["anchor"]; !ok || !cmp.Equal(body["ignored_parameters_unsupported"], []any{"message_ids"}) {
		t.Fatalf("level 299: %v", body)
	}
}
