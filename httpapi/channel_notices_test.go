package httpapi

import (
	"net/url"
	"slices"
	"testing"
)

// channelEventsNotices are the messages of a channel's "channel events"
// topic as email gets them, oldest first.
func (e *chanEnv) channelEventsNotices(email, channel string) []map[string]any {
	e.t.Helper()
	narrow := `[{"operator":"channel","operand":"` + channel + `"},{"operator":"topic","operand":"channel events"}]`
	body := e.ok(e.do(email, "GET", "/messages", url.Values{"anchor": {"newest"}, "num_before": {"10"},
		"num_after": {"0"}, "narrow": {narrow}, "apply_markdown": {"false"}}))
	var out []map[string]any
	for _, m := range body["messages"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

// Archiving, unarchiving and renaming over HTTP: the Notification Bot's
// notices, read (archive) or unread (the others), and nothing for a
// refused request.
func TestHTTPChannelNotices(t *testing.T) {
	e := newChanEnv(t)
	status, body := e.do("hamlet@zulip.com", "DELETE", "/streams/2", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "You do not have permission to administer this channel.")
	if got := e.channelEventsNotices("othello@zulip.com", "Denmark"); len(got) != 0 {
		t.Fatalf("a refused archive posted %v", got)
	}
	e.ok(e.do("iago@zulip.com", "DELETE", "/streams/2", nil))
	e.ok(e.do("iago@zulip.com", "PATCH", "/streams/2", url.Values{"is_archived": {"false"}, "new_name": {"Danmark"}}))
	status, body = e.do("iago@zulip.com", "PATCH", "/streams/2", url.Values{"description": {"x"}, "new_name": {"Verona"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Channel name 'Verona' is already taken.")
	got := e.channelEventsNotices("othello@zulip.com", "Danmark")
	want := []struct {
		content string
		read    bool
	}{
		{"Channel #**Denmark** has been archived.", true},
		{"Channel #**Denmark** has been unarchived.", false},
		{"@_**Iago|11** renamed channel **Denmark** to **Danmark**.", false},
	}
	if len(got) != len(want) {
		t.Fatalf("notices %v", got)
	}
	for i, w := range want {
		m := got[i]
		flags := m["flags"].([]any)
		if m["content"] != w.content || m["sender_email"] != "notification-bot@zulip.com" || m["subject"] != "channel events" ||
			m["display_recipient"] != "Danmark" || slices.Contains(flags, any("read")) != w.read {
			t.Errorf("notice %d: %v", i, m)
		}
	}
}
