package httpapi

import (
	"net/url"
	"strconv"
	"testing"
)

// PATCH /realm's signup_announcements_stream_id (Zulip's update_realm):
// register's realm_signup_announcements_stream_id follows it; a bad ID or
// a non-integer is refused.
func TestHTTPSignupAnnouncementsStream(t *testing.T) {
	e := newChanEnv(t)
	verona := e.channelID("Verona")
	if v := e.realmSection("hamlet@zulip.com")["realm_signup_announcements_stream_id"]; v != float64(-1) {
		t.Fatalf("default %v", v)
	}
	status, body := e.patchRealm("iago@zulip.com", url.Values{"signup_announcements_stream_id": {"12345"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid channel ID")
	status, body = e.patchRealm("iago@zulip.com", url.Values{"signup_announcements_stream_id": {"verona"}})
	e.fail(status, body, 400, "BAD_REQUEST", "signup_announcements_stream_id is not an integer")
	e.ok(e.patchRealm("iago@zulip.com", url.Values{"signup_announcements_stream_id": {verona}}))
	if v := e.realmSection("hamlet@zulip.com")["realm_signup_announcements_stream_id"]; strconv.FormatFloat(v.(float64), 'f', -1, 64) != verona {
		t.Fatalf("after setting %v", v)
	}
}
