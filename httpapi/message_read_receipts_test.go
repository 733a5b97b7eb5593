package httpapi

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHTTPReadReceipts(t *testing.T) {
	e := newMsgEnv(t)
	id := e.sendTo("iago@zulip.com", "Denmark", "receipts", "did you read this?")
	markRead := func(email string) {
		t.Helper()
		e.ok(e.do(email, "POST", "/messages/flags", url.Values{"messages": {fmt.Sprintf("[%d]", id)}, "op": {"add"}, "flag": {"read"}}))
	}
	receipts := func(email string) []any {
		t.Helper()
		status, body := e.do(email, "GET", fmt.Sprintf("/messages/%d/read_receipts", id), nil)
		return e.ok(status, body)["user_ids"].([]any)
	}
	if got := receipts("hamlet@zulip.com"); len(got) != 0 {
		t.Fatalf("before anyone read it: %v", got)
	}
	markRead("hamlet@zulip.com")
	markRead("othello@zulip.com")
	// cordelia reads it but does not share read receipts.
	e.ok(e.do("cordelia@zulip.com", "PATCH", "/settings", url.Values{"send_read_receipts": {"false"}}))
	markRead("cordelia@zulip.com")
	// The sender's copy is read, but the sender is never listed.
	if diff := cmp.Diff([]any{float64(10), float64(12)}, receipts("hamlet@zulip.com")); diff != "" {
		t.Fatalf("receipts (-want +got):\n%s", diff)
	}
	// Marked unread again: no longer listed.
	e.ok(e.do("othello@zulip.com", "POST", "/messages/flags", url.Values{"messages": {fmt.Sprintf("[%d]", id)}, "op": {"remove"}, "flag": {"read"}}))
	if diff := cmp.Diff([]any{float64(10)}, receipts("iago@zulip.com")); diff != "" {
		t.Fatalf("after othello marked it unread (-want +got):\n%s", diff)
	}

	status, body := e.do("iago@zulip.com", "GET", "/messages/999999/read_receipts", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid message(s)")
	status, body = e.do("iago@zulip.com", "POST", "/messages", url.Values{"type": {"private"}, "to": {`["hamlet@zulip.com"]`}, "content": {"secret"}})
	dm := int64(e.ok(status, body)["id"].(float64))
	status, body = e.do("othello@zulip.com", "GET", fmt.Sprintf("/messages/%d/read_receipts", dm), nil)
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid message(s)")

	e.ok(e.do("iago@zulip.com", "PATCH", "/realm", url.Values{"enable_read_receipts": {"false"}}))
	status, body = e.do("hamlet@zulip.com", "GET", fmt.Sprintf("/messages/%d/read_receipts", id), nil)
	e.fail(status, body, 400, "BAD_REQUEST", "Read receipts are disabled in this organization.")
}
