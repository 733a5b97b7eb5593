package httpapi

import (
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/user"
)

// canLogIn reports whether password logs email in with POST /fetch_api_key.
func (e *apiEnv) canLogIn(email, password string) bool {
	e.t.Helper()
	status, _ := e.do("", "POST", "/fetch_api_key", url.Values{"username": {email}, "password": {password}})
	return status == 200
}

func TestHTTPSettingsPassword(t *testing.T) {
	e := newUsersEnv(t)
	const me = "hamlet@zulip.com"
	for _, c := range []struct {
		form url.Values
		msg  string
	}{
		{url.Values{"new_password": {"n3w"}}, "Wrong password!"},
		{url.Values{"old_password": {"wrong"}, "new_password": {"n3w"}}, "Wrong password!"},
		{url.Values{"old_password": {user.DevPassword}, "new_password": {""}}, "New password is too weak!"},
	} {
		status, body := e.patchSettings(me, c.form)
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
		if !e.canLogIn(me, user.DevPassword) || e.canLogIn(me, "n3w") {
			t.Fatalf("%v changed the password", c.form)
		}
	}
	// A wrong old password also keeps every other change from happening.
	status, body := e.patchSettings(me, url.Values{"old_password": {"wrong"}, "new_password": {"n3w"}, "enter_sends": {"true"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Wrong password!")
	if e.userSettings(me)["enter_sends"] != false {
		t.Fatal("enter_sends changed by a refused request")
	}
	e.ok(e.patchSettings(me, url.Values{"old_password": {user.DevPassword}, "new_password": {"n3w"}}))
	if e.canLogIn(me, user.DevPassword) || !e.canLogIn(me, "n3w") {
		t.Fatal("password not changed")
	}
	// old_password alone changes nothing and is no unknown parameter.
	e.ok(e.patchSettings(me, url.Values{"old_password": {"n3w"}}))
	if !e.canLogIn(me, "n3w") {
		t.Fatal("old_password alone changed the password")
	}
}

func TestHTTPSettingsFullName(t *testing.T) {
	e := newUsersEnv(t)
	qid, _ := e.register("othello@zulip.com", url.Values{"event_types": {`["realm_user"]`}})
	for _, c := range []struct{ name, msg string }{
		{"x", "Name too short!"}, {"Bad*name", "Invalid characters in name!"},
	} {
		status, body := e.patchSettings("hamlet@zulip.com", url.Values{"full_name": {c.name}})
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
	e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"full_name": {"  Prince Hamlet "}}))
	if _, body := e.do("hamlet@zulip.com", "GET", "/users/me", nil); body["full_name"] != "Prince Hamlet" {
		t.Fatalf("full_name %v", body["full_name"])
	}
	evs := e.events("othello@zulip.com", qid, -1, false)
	if len(evs) != 1 {
		t.Fatalf("events %v", evs)
	}
	person := evs[0].(map[string]any)["person"].(map[string]any)
	if person["user_id"] != 10.0 || person["full_name"] != "Prince Hamlet" || len(person) != 2 {
		t.Fatalf("event %v", evs[0])
	}
	// The same name again is no change: no event.
	e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"full_name": {"Prince Hamlet"}}))
	if evs := e.events("othello@zulip.com", qid, 0, false); len(evs) != 0 {
		t.Fatalf("unchanged name sent %v", evs)
	}
}

func TestHTTPSettingsEmailChangeWaitsForConfirmation(t *testing.T) {
	e := newUsersEnv(t)
	const me = "hamlet@zulip.com"
	for _, c := range []struct{ email, msg string }{
		{"not an address", "Invalid address."},
		{"IAGO@zulip.com", "Already has an account."},
	} {
		status, body := e.patchSettings(me, url.Values{"email": {c.email}})
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
	if _, err := e.realm.AddUser(realm.NewUser{Email: "gone@zulip.com", FullName: "Gone"}); err != nil {
		t.Fatal(err)
	}
	gone, _ := e.realm.UserIDByEmail("gone@zulip.com")
	e.ok(e.do("iago@zulip.com", "DELETE", "/users/"+strconv.Itoa(gone), nil))
	status, body := e.patchSettings(me, url.Values{"email": {"gone@zulip.com"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Account has been deactivated.")
	if len(e.realm.Outbox()) != 0 {
		t.Fatalf("refused changes sent mail: %v", e.realm.Outbox())
	}
	// The own address (after trimming) is no change.
	e.ok(e.patchSettings(me, url.Values{"email": {" hamlet@zulip.com "}}))
	if len(e.realm.Outbox()) != 0 {
		t.Fatal("mail for an unchanged address")
	}

	qid, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["realm_user"]`}})
	e.ok(e.patchSettings(me, url.Values{"email": {" prince@denmark.example "}}))
	out := e.realm.Outbox()
	if len(out) != 1 || out[0].To != "prince@denmark.example" || out[0].Template != "confirm_new_email" || out[0].UserID != 10 ||
		out[0].OldEmail != me || out[0].ConfirmationKey == "" || !out[0].Sent.Equal(e.clock.Now()) {
		t.Fatalf("outbox %+v", out)
	}
	// Until confirmed, the address is the old one.
	if _, body := e.do(me, "GET", "/users/me", nil); body["delivery_email"] != me {
		t.Fatalf("delivery_email %v before confirmation", body["delivery_email"])
	}
	if err := e.realm.ConfirmEmailChange("nope"); err == nil {
		t.Fatal("an unknown key confirmed a change")
	}
	if err := e.realm.ConfirmEmailChange(out[0].ConfirmationKey); err != nil {
		t.Fatal(err)
	}
	if _, body := e.do("iago@zulip.com", "GET", "/users/10", nil); body["user"].(map[string]any)["delivery_email"] != "prince@denmark.example" {
		t.Fatalf("after confirmation %v", body)
	}
	if err := e.realm.ConfirmEmailChange(out[0].ConfirmationKey); err == nil {
		t.Fatal("a key confirmed twice")
	}
	// The administrator, who sees real addresses, hears of the new one;
	// the API address (user10@…) did not change.
	var got []string
	for _, ev := range e.events("iago@zulip.com", qid, -1, false) {
		p := ev.(map[string]any)["person"].(map[string]any)
		for k := range p {
			if k != "user_id" {
				got = append(got, k)
			}
		}
		if v, ok := p["delivery_email"]; ok && v != "prince@denmark.example" {
			t.Fatalf("delivery_email event %v", p)
		}
	}
	if len(got) != 5 || !slices.Contains(got, "delivery_email") || !slices.Contains(got, "avatar_url") || slices.Contains(got, "new_email") {
		t.Fatalf("event fields %v", got)
	}
	if last := e.realm.Outbox(); len(last) != 2 || last[1].To != me || last[1].Template != "notify_change_in_email" {
		t.Fatalf("notice to the old address: %+v", last)
	}
}
