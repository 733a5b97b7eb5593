package httpapi

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/user"
)

// userAs is GET /users/{id} as viewer, with the query form.
func (e *apiEnv) userAs(viewer string, id int, form url.Values) map[string]any {
	e.t.Helper()
	body := e.ok(e.do(viewer, "GET", "/users/"+strconv.Itoa(id), form))
	return body["user"].(map[string]any)
}

func TestHTTPEmailVisibilityPerUser(t *testing.T) {
	e := newUsersEnv(t)
	viewers := []string{"desdemona@zulip.com", "iago@zulip.com", "shiva@zulip.com", "othello@zulip.com", "polonius@zulip.com"}
	for _, c := range []struct {
		policy string
		sees   []bool // by viewer: owner, admin, moderator, member, guest
	}{
		{"1", []bool{true, true, true, true, true}},
		{"2", []bool{true, true, true, true, false}},
		{"3", []bool{true, true, false, false, false}},
		{"4", []bool{false, false, false, false, false}},
		{"5", []bool{true, true, true, false, false}},
	} {
		e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"email_address_visibility": {c.policy}}))
		for i, v := range viewers {
			u := e.userAs(v, 10, nil)
			if got := u["delivery_email"] == "hamlet@zulip.com"; got != c.sees[i] || !got && u["delivery_email"] != nil {
				t.Errorf("policy %s, %s: delivery_email %v", c.policy, v, u["delivery_email"])
			}
			wantEmail := "user10@zulipdev.com"
			if c.policy == "1" {
				wantEmail = "hamlet@zulip.com"
			}
			if u["email"] != wantEmail {
				t.Errorf("policy %s, %s: email %v", c.policy, v, u["email"])
			}
		}
		// The user always sees their own address.
		if u := e.userAs("hamlet@zulip.com", 10, nil); u["delivery_email"] != "hamlet@zulip.com" {
			t.Errorf("policy %s: own address %v", c.policy, u["delivery_email"])
		}
	}
	// Others keep the realm's default (administrators only); bots show theirs.
	if u := e.userAs("othello@zulip.com", 11, nil); u["delivery_email"] != nil || u["email"] != "user11@zulipdev.com" {
		t.Fatalf("iago as othello sees him: %v %v", u["delivery_email"], u["email"])
	}
	if u := e.userAs("polonius@zulip.com", 16, nil); u["delivery_email"] != "default-bot@zulip.com" || u["email"] != "default-bot@zulip.com" {
		t.Fatalf("bot: %v %v", u["delivery_email"], u["email"])
	}
}

func TestHTTPEmailVisibilityEvents(t *testing.T) {
	e := newUsersEnv(t)
	admin, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["realm_user"]`}})
	member, _ := e.register("othello@zulip.com", url.Values{"event_types": {`["realm_user"]`}})
	e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"email_address_visibility": {"1"}}))
	keys := func(evs []map[string]any) []string {
		var out []string
		for _, ev := range evs {
			for k := range ev["person"].(map[string]any) {
				if k != "user_id" {
					out = append(out, k)
				}
			}
		}
		return out
	}
	// The administrator saw the address already: only the API address
	// and avatar change for them; othello now sees the address too.
	got := keys(e.eventsOf("iago@zulip.com", admin, -1))
	slices.Sort(got)
	if strings.Join(got, ",") != "avatar_source,avatar_url,avatar_url_medium,avatar_version,new_email" {
		t.Fatalf("admin events %v", got)
	}
	evs := e.eventsOf("othello@zulip.com", member, -1)
	if len(evs) != 3 || evs[0]["person"].(map[string]any)["delivery_email"] != "hamlet@zulip.com" ||
		evs[1]["person"].(map[string]any)["new_email"] != "hamlet@zulip.com" {
		t.Fatalf("member events %v", evs)
	}
	// Back to nobody: othello loses it (null), the API address is fake again.
	e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"email_address_visibility": {"4"}}))
	evs = e.eventsOf("othello@zulip.com", member, 2)
	if len(evs) != 3 || evs[0]["person"].(map[string]any)["delivery_email"] != nil ||
		evs[1]["person"].(map[string]any)["new_email"] != "user10@zulipdev.com" {
		t.Fatalf("member events %v", evs)
	}
}

func TestHTTPFakeEmailUsesTheRealmHost(t *testing.T) {
	e := newAPIEnv(t, time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC), realm.WithURL("http://zulip.testserver"))
	if u := e.userAs("othello@zulip.com", 10, nil); u["email"] != "user10@zulip.testserver" {
		t.Fatalf("email %v", u["email"])
	}
	// The fake address finds its user.
	if u := e.ok(e.do("othello@zulip.com", "GET", "/users/user10@zulip.testserver", nil)); u["user"].(map[string]any)["user_id"] != 10.0 {
		t.Fatalf("lookup %v", u)
	}
}

func TestHTTPClientGravatar(t *testing.T) {
	e := newUsersEnv(t)
	// Null only where the caller may see the real address (and the avatar is Gravatar's).
	if u := e.userAs("iago@zulip.com", 10, url.Values{"client_gravatar": {"true"}}); u["avatar_url"] != nil {
		t.Fatalf("admin, client_gravatar: %v", u["avatar_url"])
	}
	if u := e.userAs("othello@zulip.com", 10, url.Values{"client_gravatar": {"true"}}); u["avatar_url"] != user.GravatarURL("hamlet@zulip.com", 1) {
		t.Fatalf("member, hidden address: %v", u["avatar_url"])
	}
	if u := e.userAs("iago@zulip.com", 10, url.Values{"client_gravatar": {"false"}}); u["avatar_url"] != user.GravatarURL("hamlet@zulip.com", 1) {
		t.Fatalf("client_gravatar false: %v", u["avatar_url"])
	}
	if u := e.userAs("othello@zulip.com", 10, nil); u["avatar_url"] != user.GravatarURL("hamlet@zulip.com", 1) || u["avatar_version"] != 1.0 {
		t.Fatalf("default (true), hidden address: %v", u)
	}
	e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"email_address_visibility": {"1"}}))
	if u := e.userAs("othello@zulip.com", 10, nil); u["avatar_url"] != nil {
		t.Fatalf("visible address, default client_gravatar: %v", u["avatar_url"])
	}
}

func TestHTTPUserObjectFlags(t *testing.T) {
	e := newUsersEnv(t)
	u := e.userAs("othello@zulip.com", 10, nil)
	if u["is_imported_stub"] != false {
		t.Fatalf("is_imported_stub %v", u["is_imported_stub"])
	}
	if _, ok := u["is_deleted"]; ok {
		t.Fatal("is_deleted sent while false")
	}
	if _, ok := u["profile_data"]; ok {
		t.Fatal("profile_data sent without include_custom_profile_fields")
	}
	if u := e.userAs("othello@zulip.com", 10, url.Values{"include_custom_profile_fields": {"true"}}); u["profile_data"] == nil {
		t.Fatal("profile_data missing")
	}
	if u := e.userAs("othello@zulip.com", 16, url.Values{"include_custom_profile_fields": {"true"}}); u["profile_data"] != nil {
		t.Fatal("a bot has profile_data")
	}
	if _, body := e.do("default-bot@zulip.com", "GET", "/users/me", nil); body["profile_data"] != nil {
		t.Fatal("a bot's own user has profile_data")
	}
	if _, body := e.do("hamlet@zulip.com", "GET", "/users/me", nil); body["profile_data"] == nil {
		t.Fatal("own profile_data missing")
	}
}

func TestHTTPDateJoinedOfAPICreatedUsers(t *testing.T) {
	e := newUsersEnv(t)
	created := e.clock.Now()
	body := e.ok(e.do("iago@zulip.com", "POST", "/users", url.Values{"email": {"new@zulip.com"}, "password": {"pw"}, "full_name": {"New Person"}}))
	id := int(body["user_id"].(float64))
	// date_joined is to the minute at the default level (Zulip 9.2 on).
	iso := func(t time.Time) string { return t.UTC().Format("2006-01-02T15:04") + "+00:00" }
	if u := e.userAs("iago@zulip.com", id, nil); u["date_joined"] != iso(created) {
		t.Fatalf("before login %v", u["date_joined"])
	}
	e.clock.Advance(time.Hour)
	loggedIn := e.clock.Now()
	if !e.canLogIn("new@zulip.com", "pw") {
		t.Fatal("login failed")
	}
	e.clock.Advance(time.Hour)
	e.canLogIn("new@zulip.com", "pw")
	if u := e.userAs("iago@zulip.com", id, nil); u["date_joined"] != iso(loggedIn) {
		t.Fatalf("after logins %v, want first login %s", u["date_joined"], iso(loggedIn))
	}
	// Seeded users keep theirs.
	before := e.userAs("iago@zulip.com", 10, nil)["date_joined"]
	e.canLogIn("hamlet@zulip.com", user.DevPassword)
	if e.userAs("iago@zulip.com", 10, nil)["date_joined"] != before {
		t.Fatal("a seeded user's date_joined moved")
	}
}
