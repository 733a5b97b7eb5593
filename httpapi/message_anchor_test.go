package httpapi

import (
	"net/url"
	"strconv"
	"testing"
)

// fetchIDs is GET /messages for email with form; it returns the body and
// the IDs of the messages it lists.
func (e *msgEnv) fetchIDs(email string, form url.Values) (map[string]any, []int64) {
	e.t.Helper()
	body := e.ok(e.do(email, "GET", "/messages", form))
	var out []int64
	for _, m := range body["messages"].([]any) {
		out = append(out, int64(m.(map[string]any)["id"].(float64)))
	}
	return body, out
}

// TestHTTPZulipTerminalFirstUnreadAnchor replays zulip-terminal's start:
// twelve messages of which the first eight are read, then GET /messages
// with use_first_unread_anchor=true beside anchor=0, then a live message.
func TestHTTPZulipTerminalFirstUnreadAnchor(t *testing.T) {
	e := newMsgEnv(t)
	var sent []int64
	for i := range 12 {
		sent = append(sent, e.sendTo("othello@zulip.com", "Verona", "chat", "message "+strconv.Itoa(i)))
	}
	e.ok(e.do("hamlet@zulip.com", "POST", "/messages/flags", url.Values{"messages": {idList(sent[:8]...)}, "op": {"add"}, "flag": {"read"}}))
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["message"]`}})

	form := url.Values{"anchor": {"0"}, "use_first_unread_anchor": {"true"}, "num_before": {"30"}, "num_after": {"10"},
		"apply_markdown": {"true"}, "narrow": {"[]"}}
	body, got := e.fetchIDs("hamlet@zulip.com", form)
	if body["anchor"] != float64(sent[8]) || body["found_anchor"] != true || body["found_newest"] != true ||
		body["found_oldest"] != true || body["history_limited"] != false {
		t.Fatalf("first unread answer %v", body)
	}
	if len(got) < 12 || got[len(got)-12] != sent[0] || got[len(got)-1] != sent[11] {
		t.Fatalf("ids %v; want every message up to %d", got, sent[11])
	}

	// Without the legacy flag the same anchor=0 reads from the oldest.
	body, _ = e.fetchIDs("hamlet@zulip.com", url.Values{"anchor": {"0"}, "num_before": {"30"}, "num_after": {"10"}})
	if body["anchor"] != float64(0) || body["found_oldest"] != true || body["found_newest"] != false || body["found_anchor"] != false {
		t.Fatalf("anchor=0 answer %v", body)
	}
	// The legacy flag alone (no anchor) and an anchor that would not
	// parse are both first_unread.
	for _, f := range []url.Values{
		{"use_first_unread_anchor": {"true"}, "num_before": {"1"}, "num_after": {"1"}},
		{"use_first_unread_anchor": {"true"}, "anchor": {"not-a-number"}, "num_before": {"1"}, "num_after": {"1"}},
	} {
		body, got = e.fetchIDs("hamlet@zulip.com", f)
		if body["anchor"] != float64(sent[8]) || len(got) != 3 || got[0] != sent[7] || got[2] != sent[9] ||
			body["found_oldest"] != false || body["found_newest"] != false {
			t.Fatalf("%v: %v ids %v", f, body, got)
		}
	}
	// use_first_unread_anchor=false leaves anchor in charge, and without
	// either the request is refused.
	body, _ = e.fetchIDs("hamlet@zulip.com", url.Values{"use_first_unread_anchor": {"false"}, "anchor": {"newest"}, "num_before": {"2"}, "num_after": {"0"}})
	if body["anchor"] != float64(10_000_000_000_000_000) || body["found_newest"] != true || body["found_anchor"] != false {
		t.Fatalf("newest answer %v", body)
	}
	status, errBody := e.do("hamlet@zulip.com", "GET", "/messages", url.Values{"use_first_unread_anchor": {"false"}, "num_before": {"2"}, "num_after": {"0"}})
	e.fail(status, errBody, 400, "BAD_REQUEST", "Missing 'anchor' argument.")
	status, errBody = e.do("hamlet@zulip.com", "GET", "/messages", url.Values{"use_first_unread_anchor": {"maybe"}, "num_before": {"2"}, "num_after": {"0"}})
	e.fail(status, errBody, 400, "BAD_REQUEST", "use_first_unread_anchor is not a boolean")

	// The client trusts found_newest and shows the live message.
	live := e.sendTo("othello@zulip.com", "Verona", "chat", "live")
	evs := e.events("hamlet@zulip.com", qid, -1, false)
	if len(evs) != 1 || evs[0].(map[string]any)["message"].(map[string]any)["id"] != float64(live) {
		t.Fatalf("live events %v", evs)
	}
	// Everything read: first_unread is newest.
	e.ok(e.do("hamlet@zulip.com", "POST", "/mark_all_as_read", nil))
	body, got = e.fetchIDs("hamlet@zulip.com", form)
	if body["anchor"] != float64(10_000_000_000_000_000) || body["found_newest"] != true || body["found_anchor"] != false ||
		len(got) == 0 || got[len(got)-1] != live {
		t.Fatalf("all read: %v", body)
	}
}
