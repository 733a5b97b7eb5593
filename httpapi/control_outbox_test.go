package httpapi

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// outbox lists GET /minizulip/outbox.
func (e *ctlEnv) outbox() []map[string]any {
	e.t.Helper()
	var out []map[string]any
	for _, m := range e.ok(e.ctl("GET", "/minizulip/outbox", nil))["outbox"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

func TestControlOutboxAndInvitationConfirmation(t *testing.T) {
	e := newCtlEnv(t)
	if got := e.ok(e.ctl("GET", "/minizulip/outbox", nil))["outbox"].([]any); len(got) != 0 {
		t.Fatalf("empty outbox listed as %v", got)
	}
	e.ok(e.do("iago@zulip.com", "POST", "/invites", url.Values{"invitee_emails": {"newbie@zulip.com"}, "stream_ids": {"[2]"},
		"invite_as": {"300"}}))
	out := e.outbox()
	if len(out) != 1 {
		t.Fatalf("outbox %v", out)
	}
	m := out[0]
	key, _ := m["confirmation_key"].(string)
	want := map[string]any{"to": "newbie@zulip.com", "template": "invitation", "user_id": float64(11), "old_email": "",
		"new_email": "", "confirmation_key": key, "sent": unixSeconds(ctlStart)}
	if len(key) != 24 || len(m) != len(want) {
		t.Fatalf("entry %v", m)
	}
	for k, v := range want {
		if m[k] != v {
			t.Fatalf("%s: %v, want %v", k, m[k], v)
		}
	}

	// Bad input: 400s that change nothing.
	users := len(e.ok(e.do("iago@zulip.com", "GET", "/users", nil))["members"].([]any))
	for _, c := range []struct {
		key  string
		form url.Values
		msg  string
	}{
		{"nope", url.Values{"full_name": {"Newbie"}}, "Whoops. We couldn't find your confirmation link in the system."},
		{key, url.Values{}, "Name too short!"},
		{key, url.Values{"full_name": {"Newbie"}, "email": {"other@zulip.com"}}, "This invitation is for newbie@zulip.com, not other@zulip.com"},
		{key, url.Values{"full_name": {"Newbie"}, "password": {strings.Repeat("p", 101)}}, "Ensure this value has at most 100 characters (it has 101)."},
	} {
		status, body := e.ctl("POST", "/minizulip/confirmations/"+c.key, c.form)
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
	status, body := e.ctl("POST", "/minizulip/confirmations/"+key, url.Values{"full_name": {"N"}, "sparkle": {"1"}})
	if status != 400 || !strings.Contains(body["msg"].(string), "Unknown parameter(s)") {
		t.Fatalf("unknown parameter: %d %v", status, body)
	}
	status, _ = e.ctl("GET", "/minizulip/confirmations/"+key, nil)
	if status != 405 {
		t.Fatalf("GET: %d", status)
	}
	if n := len(e.ok(e.do("iago@zulip.com", "GET", "/users", nil))["members"].([]any)); n != users {
		t.Fatalf("a refusal created an account: %d users, was %d", n, users)
	}

	// Accepting: the new account logs in with its key and password.
	ans := e.ok(e.ctlRaw("POST", "/minizulip/confirmations/"+key, "application/json",
		`{"full_name":"Newbie","password":"pw-123"}`))
	id := int(ans["user_id"].(float64))
	apiKey, _ := ans["api_key"].(string)
	if ans["kind"] != "invitation" || ans["email"] != "newbie@zulip.com" || len(apiKey) != 32 {
		t.Fatalf("answer %v", ans)
	}
	me := e.ok(e.do("newbie@zulip.com", "GET", "/users/me", nil))
	if int(me["user_id"].(float64)) != id || me["role"] != float64(300) || me["full_name"] != "Newbie" {
		t.Fatalf("users/me %v", me)
	}
	if _, k, _ := e.realm.APIKey("newbie@zulip.com"); k != apiKey {
		t.Fatal("api_key is not the account's")
	}
	if login, err := e.realm.FetchAPIKey("newbie@zulip.com", "pw-123"); err != nil || login.UserID != id {
		t.Fatalf("password login %v %v", login, err)
	}
	// The notice went to Iago.
	msgs := e.ok(e.do("iago@zulip.com", "GET", "/messages", url.Values{"anchor": {"newest"}, "num_before": {"1"}, "num_after": {"0"}}))["messages"].([]any)
	if c := msgs[0].(map[string]any)["content"]; !strings.Contains(c.(string), "accepted your invitation to join Zulip!") {
		t.Fatalf("last message %v", c)
	}
	// Used: a second try is refused.
	status, body = e.ctl("POST", "/minizulip/confirmations/"+key, url.Values{"full_name": {"Again"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Whoops. The confirmation link has expired or been deactivated.")

	// DELETE empties the outbox.
	e.ok(e.ctl("DELETE", "/minizulip/outbox", nil))
	if got := e.outbox(); len(got) != 0 {
		t.Fatalf("after DELETE %v", got)
	}
}

func TestControlConfirmInviteLinkAndEmailChange(t *testing.T) {
	e := newCtlEnv(t)
	link := e.ok(e.do("iago@zulip.com", "POST", "/invites/multiuse", url.Values{"invite_expires_in_minutes": {"10"}}))["invite_link"].(string)
	key := strings.TrimSuffix(link[strings.Index(link, "/join/")+len("/join/"):], "/")
	for i, email := range []string{"a@zulip.com", "b@zulip.com"} {
		ans := e.ok(e.ctl("POST", "/minizulip/confirmations/"+key, url.Values{"full_name": {"Linked " + strconv.Itoa(i)}, "email": {email}}))
		if ans["email"] != email || ans["kind"] != "invitation" {
			t.Fatalf("answer %v", ans)
		}
	}
	status, body := e.ctl("POST", "/minizulip/confirmations/"+key, url.Values{"full_name": {"Linked"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Enter a valid email address.")
	status, body = e.ctl("POST", "/minizulip/confirmations/"+key, url.Values{"full_name": {"Linked"}, "email": {"A@zulip.com"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Already has an account.")
	e.ok(e.ctl("POST", "/minizulip/clock", url.Values{"advance": {strconv.Itoa(int((11 * time.Minute).Seconds()))}}))
	status, body = e.ctl("POST", "/minizulip/confirmations/"+key, url.Values{"full_name": {"Late"}, "email": {"late@zulip.com"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Whoops. The confirmation link has expired or been deactivated.")

	// An email change's key confirms it.
	e.ok(e.do("hamlet@zulip.com", "PATCH", "/settings", url.Values{"email": {"prince@zulip.com"}}))
	out := e.outbox()
	change := out[len(out)-1]
	if change["template"] != "confirm_new_email" || change["old_email"] != "hamlet@zulip.com" || change["new_email"] != "prince@zulip.com" {
		t.Fatalf("entry %v", change)
	}
	ans := e.ok(e.ctl("POST", "/minizulip/confirmations/"+change["confirmation_key"].(string), nil))
	if ans["kind"] != "email_change" || ans["user_id"] != float64(10) || ans["email"] != "prince@zulip.com" || ans["api_key"] != nil {
		t.Fatalf("answer %v", ans)
	}
	if email, _ := e.realm.UserEmail(10); email != "prince@zulip.com" {
		t.Fatalf("email %q", email)
	}
	status, body = e.ctl("POST", "/minizulip/confirmations/"+change["confirmation_key"].(string), nil)
	e.fail(status, body, 400, "BAD_REQUEST", "Whoops. We couldn't find your confirmation link in the system.")
}
