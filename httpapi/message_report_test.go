package httpapi

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// POST /messages/{message_id}/report: the Notification Bot posts the
// report to the dev realm's moderation request channel ("core team"),
// which iago reads; refusals post nothing.
func TestHTTPReportMessage(t *testing.T) {
	e := newMsgEnv(t)
	qid, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["message"]`}})
	id := e.sendTo("othello@zulip.com", "Verona", "civil talk", "the middle of the tube")
	secret := e.sendTo("hamlet@zulip.com", "core team", "plans", "secret")
	last := len(e.events("iago@zulip.com", qid, -1, false)) - 1
	path := "/messages/" + strconv.FormatInt(id, 10) + "/report"
	for _, c := range []struct {
		path      string
		form      url.Values
		code, msg string
	}{
		{path, url.Values{"description": {"x"}}, "REQUEST_VARIABLE_MISSING", "Missing 'report_type' argument"},
		{path, url.Values{"report_type": {"rude"}}, "BAD_REQUEST", "Invalid report_type"},
		{path, url.Values{"report_type": {"other"}}, "BAD_REQUEST", "An explanation is required."},
		{path, url.Values{"report_type": {"spam"}, "description": {strings.Repeat("x", 1001)}}, "BAD_REQUEST", "description is too long (limit: 1000 characters)"},
		{"/messages/99999999/report", url.Values{"report_type": {"spam"}}, "BAD_REQUEST", "Invalid message(s)"},
	} {
		status, body := e.do("hamlet@zulip.com", "POST", c.path, c.form)
		e.fail(status, body, 400, c.code, c.msg)
	}
	status, body := e.do("othello@zulip.com", "POST", "/messages/"+strconv.FormatInt(secret, 10)+"/report", url.Values{"report_type": {"spam"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid message(s)")
	if evs := e.events("iago@zulip.com", qid, last, false); len(evs) != 0 {
		t.Fatalf("refused reports posted %v", evs)
	}

	e.ok(e.do("hamlet@zulip.com", "POST", path, url.Values{"report_type": {"spam"}, "description": {"Buys ads."}}))
	evs := e.events("iago@zulip.com", qid, last, false)
	if len(evs) != 1 {
		t.Fatalf("events %v", evs)
	}
	m := evs[0].(map[string]any)["message"].(map[string]any)
	if m["sender_email"] != "notification-bot@zulip.com" || m["display_recipient"] != "core team" ||
		m["subject"] != "Othello, the Moor of Venice moderation" {
		t.Fatalf("notice %v", m)
	}
	status, body = e.do("iago@zulip.com", "GET", "/messages/"+jsonNumber(m["id"]), url.Values{"apply_markdown": {"false"}})
	raw := e.ok(status, body)["message"].(map[string]any)["content"].(string)
	for _, part := range []string{"reported a message sent by", "```quote\n**Spam**. Buys ads.\n```",
		"``` spoiler Original message at #**Verona>civil talk@" + strconv.FormatInt(id, 10) + "**\nthe middle of the tube\n```"} {
		if !strings.Contains(raw, part) {
			t.Fatalf("content %q lacks %q", raw, part)
		}
	}

	// With reporting turned off, reports are refused.
	e.ok(e.patchRealm("iago@zulip.com", url.Values{"moderation_request_channel_id": {"-1"}}))
	status, body = e.do("hamlet@zulip.com", "POST", path, url.Values{"report_type": {"spam"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Message reporting is not enabled in this organization.")
}

// PATCH /realm's moderation_request_channel_id: the answer, register's
// realm_moderation_request_channel_id and the realm update event.
func TestHTTPModerationRequestChannelSetting(t *testing.T) {
	e := newChanEnv(t)
	coreTeam := e.channelID("core team")
	if got := e.realmSection("hamlet@zulip.com")["realm_moderation_request_channel_id"]; got != mustFloat(t, coreTeam) {
		t.Fatalf("dev realm: %v", got)
	}
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["realm"]`}})
	status, body := e.patchRealm("hamlet@zulip.com", url.Values{"moderation_request_channel_id": {"-1"}})
	e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	status, body = e.patchRealm("iago@zulip.com", url.Values{"moderation_request_channel_id": {e.channelID("Verona")}})
	e.fail(status, body, 400, "BAD_REQUEST", "Moderation request channel must be private.")
	status, body = e.patchRealm("iago@zulip.com", url.Values{"moderation_request_channel_id": {"999"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid channel ID")
	status, body = e.patchRealm("iago@zulip.com", url.Values{"moderation_request_channel_id": {"core"}})
	e.fail(status, body, 400, "BAD_REQUEST", "moderation_request_channel_id is not an integer")
	if evs := e.realmEvents("hamlet@zulip.com", qid, -1); len(evs) != 0 {
		t.Fatalf("refused changes sent %v", evs)
	}

	got := e.ok(e.patchRealm("iago@zulip.com", url.Values{"moderation_request_channel_id": {"-1"}}))
	if diff := cmp.Diff(map[string]any{"result": "success", "msg": "", "moderation_request_channel_id": float64(-1)}, got); diff != "" {
		t.Fatalf("answer (-want +got):\n%s", diff)
	}
	evs := e.realmEvents("hamlet@zulip.com", qid, -1)
	if len(evs) != 1 || evs[0]["op"] != "update" || evs[0]["property"] != "moderation_request_channel_id" || evs[0]["value"] != float64(-1) {
		t.Fatalf("events %v", evs)
	}
	if got := e.realmSection("hamlet@zulip.com")["realm_moderation_request_channel_id"]; got != float64(-1) {
		t.Fatalf("after turning off: %v", got)
	}
	got = e.ok(e.patchRealm("iago@zulip.com", url.Values{"moderation_request_channel_id": {coreTeam}}))
	if got["moderation_request_channel_id"] != mustFloat(t, coreTeam) {
		t.Fatalf("answer %v", got)
	}
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
