package httpapi

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestHTTPEmailInvites(t *testing.T) {
	e := newMsgEnv(t)
	verona, _ := e.realm.As(11).ChannelID(t.Context(), "Verona")
	streams := "[" + strconv.Itoa(verona) + "]"
	qid, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["invites_changed"]`}})
	// Required parameters and their shapes.
	status, body := e.do("hamlet@zulip.com", "POST", "/invites", url.Values{"stream_ids": {streams}})
	e.fail(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'invitee_emails' argument")
	status, body = e.do("hamlet@zulip.com", "POST", "/invites", url.Values{"invitee_emails": {"a@zulip.com"}})
	e.fail(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'stream_ids' argument")
	for _, c := range []struct {
		field, value, msg string
	}{
		{"invite_as", "250", "Invalid invite_as"},
		{"invite_as", "x", "invite_as is not an integer"},
		{"invite_expires_in_minutes", "soon", "invite_expires_in_minutes is not an integer"},
		{"stream_ids", "null", "stream_ids is not a list"},
		{"group_ids", `["a"]`, "group_ids[0] is not an integer"},
		{"notify_referrer_on_join", "maybe", "notify_referrer_on_join is not a boolean"},
		{"stream_ids", "[999]", "Invalid channel ID 999. No invites were sent."},
		{"invitee_emails", "", "You must specify at least one email address."},
	} {
		f := url.Values{"invitee_emails": {"a@zulip.com"}, "stream_ids": {streams}}
		f.Set(c.field, c.value)
		status, body := e.do("hamlet@zulip.com", "POST", "/invites", f)
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
	status, body = e.do("polonius@zulip.com", "POST", "/invites", url.Values{"invitee_emails": {"a@zulip.com"}, "stream_ids": {"[]"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Not allowed for guest users")
	status, body = e.do("hamlet@zulip.com", "POST", "/invites", url.Values{"invitee_emails": {"a@zulip.com"}, "stream_ids": {"[]"}, "invite_as": {"200"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Must be an organization administrator")
	// Taken addresses: INVITATION_FAILED with Zulip's extra fields.
	status, body = e.do("hamlet@zulip.com", "POST", "/invites", url.Values{"invitee_emails": {"iago@zulip.com, new@zulip.com"}, "stream_ids": {streams}})
	e.fail(status, body, 400, "INVITATION_FAILED", "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!")
	if errs, _ := body["errors"].([]any); len(errs) != 1 || body["sent_invitations"] != true || body["daily_limit_reached"] != false ||
		body["license_limit_reached"] != false || errs[0].([]any)[1] != "Already has an account." {
		t.Fatalf("failure %v", body)
	}
	e.ok(e.do("hamlet@zulip.com", "POST", "/invites", url.Values{"invitee_emails": {"other@zulip.com"}, "stream_ids": {streams},
		"invite_expires_in_minutes": {"null"}, "notify_referrer_on_join": {"false"}}))
	body = e.ok(e.do("hamlet@zulip.com", "GET", "/invites", nil))
	invites := body["invites"].([]any)
	if len(invites) != 2 {
		t.Fatalf("invites %v", invites)
	}
	first, second := invites[0].(map[string]any), invites[1].(map[string]any)
	now := float64(e.clock.Now().Unix())
	if first["email"] != "new@zulip.com" || first["expiry_date"] != now+14400*60 || first["invited"] != now ||
		first["invited_by_user_id"] != float64(10) || first["invited_as"] != float64(400) || first["is_multiuse"] != false ||
		first["notify_referrer_on_join"] != true || first["id"] != float64(1) {
		t.Fatalf("first invite %v", first)
	}
	if second["email"] != "other@zulip.com" || second["expiry_date"] != nil || second["notify_referrer_on_join"] != false {
		t.Fatalf("second invite %v", second)
	}
	if _, ok := first["link_url"]; ok {
		t.Fatalf("an email invite has a link: %v", first)
	}
	// Othello may not act on hamlet's invitations; hamlet and iago may.
	for _, path := range []string{"/invites/1/resend", "/invites/1"} {
		method := map[bool]string{true: "POST", false: "DELETE"}[strings.HasSuffix(path, "resend")]
		status, body = e.do("othello@zulip.com", method, path, nil)
		e.fail(status, body, 400, "BAD_REQUEST", "Must be an organization administrator")
		status, body = e.do("hamlet@zulip.com", method, "/invites/99"+strings.TrimPrefix(path, "/invites/1"), nil)
		e.fail(status, body, 400, "BAD_REQUEST", "No such invitation")
	}
	e.ok(e.do("hamlet@zulip.com", "POST", "/invites/1/resend", nil))
	e.ok(e.do("iago@zulip.com", "DELETE", "/invites/1", nil))
	e.ok(e.do("hamlet@zulip.com", "DELETE", "/invites/2", nil))
	if body = e.ok(e.do("iago@zulip.com", "GET", "/invites", nil)); len(body["invites"].([]any)) != 0 {
		t.Fatalf("after revoking %v", body)
	}
	// Iago heard of the two sends and the two revokes, not the resend.
	evs := e.events("iago@zulip.com", qid, -1, false)
	if len(evs) != 4 {
		t.Fatalf("events %v", evs)
	}
	for _, ev := range evs {
		if m := ev.(map[string]any); m["type"] != "invites_changed" || len(m) != 2 {
			t.Fatalf("event %v", m)
		}
	}
}

func TestHTTPInviteLinks(t *testing.T) {
	e := newMsgEnv(t)
	status, body := e.do("hamlet@zulip.com", "POST", "/invites/multiuse", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "Insufficient permission")
	status, body = e.do("iago@zulip.com", "POST", "/invites/multiuse", url.Values{"invite_as": {"100"}})
	e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")
	status, body = e.do("iago@zulip.com", "POST", "/invites/multiuse", url.Values{"stream_ids": {"[999]"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid channel ID 999. No invites were sent.")
	// Every option at once; stream_ids and group_ids may be null.
	body = e.ok(e.do("iago@zulip.com", "POST", "/invites/multiuse", url.Values{"invite_expires_in_minutes": {"30"},
		"invite_as": {"600"}, "stream_ids": {"null"}, "group_ids": {"null"}, "include_realm_default_subscriptions": {"true"},
		"welcome_message_custom_text": {"Hello"}}))
	link, _ := body["invite_link"].(string)
	if !strings.HasPrefix(link, e.realm.URL()+"/join/") || !strings.HasSuffix(link, "/") {
		t.Fatalf("link %q", link)
	}
	body = e.ok(e.do("iago@zulip.com", "GET", "/invites", nil))
	invites := body["invites"].([]any)
	if len(invites) != 1 {
		t.Fatalf("invites %v", invites)
	}
	if inv := invites[0].(map[string]any); inv["link_url"] != link || inv["is_multiuse"] != true || inv["invited_as"] != float64(600) ||
		inv["expiry_date"] != float64(e.clock.Now().Unix()+1800) || inv["email"] != nil {
		t.Fatalf("invite %v", inv)
	}
	// Hamlet sees no links; after 31 minutes nobody does.
	if body = e.ok(e.do("hamlet@zulip.com", "GET", "/invites", nil)); len(body["invites"].([]any)) != 0 {
		t.Fatalf("hamlet sees %v", body)
	}
	e.clock.Advance(31 * time.Minute)
	if body = e.ok(e.do("iago@zulip.com", "GET", "/invites", nil)); len(body["invites"].([]any)) != 0 {
		t.Fatalf("expired link listed: %v", body)
	}
	e.ok(e.do("desdemona@zulip.com", "DELETE", "/invites/multiuse/1", nil))
	status, body = e.do("desdemona@zulip.com", "DELETE", "/invites/multiuse/1", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "Invitation has already been revoked")
	status, body = e.do("desdemona@zulip.com", "DELETE", "/invites/multiuse/7", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "No such invitation")
	// The permission is the realm's create_multiuse_invite_group.
	e.ok(e.patchRealm("desdemona@zulip.com", url.Values{"create_multiuse_invite_group": {`{"new": 14}`}}))
	e.ok(e.do("hamlet@zulip.com", "POST", "/invites/multiuse", nil))
	_, state := e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["realm","realm_user"]`}})
	if state["realm_create_multiuse_invite_group"] != float64(14) || state["realm_can_invite_users_group"] != float64(14) ||
		state["can_invite_others_to_realm"] != true {
		t.Fatalf("register: %v %v %v", state["realm_create_multiuse_invite_group"], state["realm_can_invite_users_group"],
			state["can_invite_others_to_realm"])
	}
	e.ok(e.patchRealm("desdemona@zulip.com", url.Values{"can_invite_users_group": {`{"new": 11}`}}))
	status, body = e.do("hamlet@zulip.com", "POST", "/invites", url.Values{"invitee_emails": {"a@zulip.com"}, "stream_ids": {"[]"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Insufficient permission")
	if _, state = e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["realm_user"]`}}); state["can_invite_others_to_realm"] != false {
		t.Fatalf("can_invite_others_to_realm %v", state["can_invite_others_to_realm"])
	}
}
