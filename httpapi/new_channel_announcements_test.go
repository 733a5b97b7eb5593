package httpapi

import (
	"net/url"
	"strconv"
	"testing"
)

// PATCH /realm's new_stream_announcements_stream_id (Zulip's
// update_realm): register's realm_new_stream_announcements_stream_id
// follows it, a bad ID or a non-integer is refused; a subscribe request
// with announce then has Notification Bot announce the new channel in its
// "new channels" topic (Zulip's send_messages_for_new_subscribers).
func TestHTTPNewChannelAnnouncements(t *testing.T) {
	e := newChanEnv(t)
	verona := e.channelID("Verona")
	if v := e.realmSection("hamlet@zulip.com")["realm_new_stream_announcements_stream_id"]; v != float64(-1) {
		t.Fatalf("default %v", v)
	}
	status, body := e.patchRealm("iago@zulip.com", url.Values{"new_stream_announcements_stream_id": {"12345"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid channel ID")
	status, body = e.patchRealm("iago@zulip.com", url.Values{"new_stream_announcements_stream_id": {"verona"}})
	e.fail(status, body, 400, "BAD_REQUEST", "new_stream_announcements_stream_id is not an integer")
	e.ok(e.patchRealm("iago@zulip.com", url.Values{"new_stream_announcements_stream_id": {verona}}))
	if v := e.realmSection("hamlet@zulip.com")["realm_new_stream_announcements_stream_id"]; strconv.FormatFloat(v.(float64), 'f', -1, 64) != verona {
		t.Fatalf("after setting %v", v)
	}
	e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{
		"subscriptions": {`[{"name":"Elsinore"}]`}, "announce": {"true"}}))
	narrow := `[{"operator":"channel","operand":"Verona"},{"operator":"topic","operand":"new channels"}]`
	got := e.ok(e.do("othello@zulip.com", "GET", "/messages", url.Values{"anchor": {"newest"}, "num_before": {"5"},
		"num_after": {"0"}, "narrow": {narrow}, "apply_markdown": {"false"}}))["messages"].([]any)
	if len(got) != 1 || got[0].(map[string]any)["content"] != "@_**King Hamlet|10** created a new channel #**Elsinore**." ||
		got[0].(map[string]any)["sender_email"] != "notification-bot@zulip.com" {
		t.Fatalf("announcement %v", got)
	}
}
