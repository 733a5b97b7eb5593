package httpapi

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// usersUserKeys are the keys of every user object.
var usersUserKeys = []string{"user_id", "delivery_email", "email", "full_name", "date_joined", "is_active", "is_owner",
	"is_admin", "is_guest", "is_bot", "bot_type", "bot_owner_id", "role", "timezone", "avatar_url",
	"avatar_version", "is_imported_stub"}

func TestUsersHTTPOwnUser(t *testing.T) {
	e := newUsersEnv(t)
	body := e.ok(e.do("hamlet@zulip.com", "GET", "/users/me", nil))
	usersExpectKeys(t, "own user", body, "result", "msg", "avatar_url", "avatar_version", "email", "full_name", "is_admin",
		"is_owner", "role", "is_guest", "is_bot", "is_active", "is_imported_stub", "timezone",
		"date_joined", "max_message_id", "user_id", "delivery_email", "profile_data")
	for k, v := range map[string]any{"user_id": float64(10), "email": "user10@zulipdev.com", "delivery_email": "hamlet@zulip.com",
		"full_name": "King Hamlet", "role": float64(400), "is_admin": false, "is_owner": false, "is_guest": false,
		"is_bot": false, "is_active": true, "max_message_id": float64(-1), "timezone": "", "avatar_version": float64(1),
		"date_joined": "2026-05-06T07:08+00:00"} {
		if body[k] != v {
			t.Errorf("%s = %#v, want %#v", k, body[k], v)
		}
	}
	if url, _ := body["avatar_url"].(string); !strings.HasPrefix(url, "https://secure.gravatar.com/avatar/") {
		t.Errorf("avatar_url %v", body["avatar_url"])
	}
	if pd, _ := body["profile_data"].(map[string]any); len(pd) != 9 {
		t.Errorf("profile_data %v", body["profile_data"])
	}

	bot := e.ok(e.do("default-bot@zulip.com", "GET", "/users/me", nil))
	if bot["bot_type"] != float64(1) || bot["bot_owner_id"] != float64(9) || bot["is_bot"] != true {
		t.Errorf("bot's own user %v", bot)
	}
	if _, ok := bot["profile_data"]; ok {
		t.Error("a bot has no profile_data")
	}
	status, body := e.do("", "GET", "/users/me", nil)
	e.fail(status, body, 401, "UNAUTHORIZED", "Not logged in: API authentication or user session required")
}

func TestUsersHTTPGetByID(t *testing.T) {
	e := newUsersEnv(t)
	body := e.ok(e.do("iago@zulip.com", "GET", "/users/10",
		url.Values{"client_gravatar": {"false"}, "include_custom_profile_fields": {"true"}}))
	usersExpectKeys(t, "answer", body, "result", "msg", "user")
	u := body["user"].(map[string]any)
	usersExpectKeys(t, "user", u, append(usersUserKeys, "profile_data")...)
	if u["delivery_email"] != "hamlet@zulip.com" || u["email"] != "user10@zulipdev.com" || u["bot_type"] != nil ||
		u["bot_owner_id"] != nil || u["avatar_url"] == nil || u["user_id"] != float64(10) {
		t.Fatalf("iago's view of hamlet %v", u)
	}
	bio := u["profile_data"].(map[string]any)["2"].(map[string]any)
	if !strings.HasPrefix(bio["value"].(string), "I am:") || !strings.HasPrefix(bio["rendered_value"].(string), "<p>I am:</p>") {
		t.Fatalf("biography %v", bio)
	}

	// client_gravatar defaults to true: null where the caller sees the
	// real address, the URL otherwise.
	u = e.ok(e.do("iago@zulip.com", "GET", "/users/10", nil))["user"].(map[string]any)
	usersExpectKeys(t, "user", u, usersUserKeys...)
	if u["avatar_url"] != nil {
		t.Fatalf("admin with client_gravatar: %v", u["avatar_url"])
	}
	u = e.ok(e.do("hamlet@zulip.com", "GET", "/users/11", nil))["user"].(map[string]any)
	if u["delivery_email"] != nil || u["avatar_url"] == nil || u["is_admin"] != true || u["role"] != float64(200) {
		t.Fatalf("member's view of iago %v", u)
	}

	u = e.ok(e.do("hamlet@zulip.com", "GET", "/users/17", url.Values{"include_custom_profile_fields": {"true"}}))["user"].(map[string]any)
	usersExpectKeys(t, "bot", u, usersUserKeys...)
	if u["bot_type"] != float64(2) || u["bot_owner_id"] != float64(7) || u["delivery_email"] != "webhook-bot@zulip.com" {
		t.Fatalf("webhook bot %v", u)
	}
	u = e.ok(e.do("hamlet@zulip.com", "GET", "/users/13", nil))["user"].(map[string]any)
	if u["is_guest"] != true || u["role"] != float64(600) {
		t.Fatalf("guest %v", u)
	}

	for _, path := range []string{"/users/4242", "/users/4", "/users/0", "/users/99999999999999999999999"} {
		status, body := e.do("hamlet@zulip.com", "GET", path, nil)
		e.fail(status, body, 400, "BAD_REQUEST", "No such user")
	}
	status, body := e.do("hamlet@zulip.com", "GET", "/users/10", url.Values{"client_gravatar": {"perhaps"}})
	e.fail(status, body, 400, "BAD_REQUEST", "client_gravatar is not a boolean")
	status, body = e.do("hamlet@zulip.com", "GET", "/users/10", url.Values{"include_custom_profile_fields": {"2"}})
	e.fail(status, body, 400, "BAD_REQUEST", "include_custom_profile_fields is not a boolean")

	body = e.success(e.do("hamlet@zulip.com", "GET", "/users/10", url.Values{"client_gravatar": {"true"}, "shiny": {"1"}}))
	if ig, _ := body["ignored_parameters_unsupported"].([]any); len(ig) != 1 || ig[0] != "shiny" {
		t.Fatalf("ignored parameters %v", body["ignored_parameters_unsupported"])
	}
	status, body = e.do("", "GET", "/users/10", nil)
	e.fail(status, body, 401, "UNAUTHORIZED", "Not logged in: API authentication or user session required")
}

func TestUsersHTTPGetByEmail(t *testing.T) {
	e := newUsersEnv(t)
	for _, c := range []struct {
		caller, path string
		want         float64
	}{
		{"hamlet@zulip.com", "/users/user11@zulipdev.com", 11},
		{"hamlet@zulip.com", "/users/USER11%40zulipdev.com", 11},
		{"iago@zulip.com", "/users/Hamlet%40Zulip.com", 10},
		{"hamlet@zulip.com", "/users/hamlet@zulip.com", 10},
		{"polonius@zulip.com", "/users/default-bot@zulip.com", 16},
		{"hamlet@zulip.com", "/users/user16@zulipdev.com", 16},
	} {
		body := e.ok(e.do(c.caller, "GET", c.path, url.Values{"include_custom_profile_fields": {"true"}}))
		u := body["user"].(map[string]any)
		if u["user_id"] != c.want {
			t.Errorf("%s GET %s: user %v, want %v", c.caller, c.path, u["user_id"], c.want)
		}
		if _, has := u["profile_data"]; has == (u["is_bot"] == true) {
			t.Errorf("%s: profile_data presence wrong for %v", c.path, u)
		}
	}
	for _, path := range []string{"/users/iago@zulip.com", "/users/ghost@zulip.com", "/users/-5", "/users/+10",
		"/users/10x", "/users/welcome-bot@zulip.com", "/users/user4@zulipdev.com"} {
		status, body := e.do("hamlet@zulip.com", "GET", path, nil)
		e.fail(status, body, 400, "BAD_REQUEST", "No such user")
	}
}

func TestUsersHTTPList(t *testing.T) {
	e := newUsersEnv(t)
	body := e.ok(e.do("hamlet@zulip.com", "GET", "/users", nil))
	usersExpectKeys(t, "answer", body, "result", "msg", "members")
	members := body["members"].([]any)
	if len(members) != 16 {
		t.Fatalf("%d members", len(members))
	}
	bots := 0
	for i, raw := range members {
		m := raw.(map[string]any)
		if m["user_id"] != float64(6+i) {
			t.Errorf("member %d is user %v", i, m["user_id"])
		}
		usersExpectKeys(t, "member", m, usersUserKeys...)
		if m["is_bot"] == true {
			bots++
			if m["bot_type"] == nil || m["avatar_url"] != nil {
				t.Errorf("bot %v", m)
			}
		} else if m["user_id"] != float64(10) && (m["delivery_email"] != nil || m["avatar_url"] == nil) {
			t.Errorf("hamlet sees %v", m)
		}
	}
	if bots != 6 {
		t.Fatalf("%d bots listed", bots)
	}

	body = e.ok(e.do("iago@zulip.com", "GET", "/users", url.Values{"include_custom_profile_fields": {"true"}, "client_gravatar": {"false"}}))
	for _, raw := range body["members"].([]any) {
		m := raw.(map[string]any)
		_, has := m["profile_data"]
		if has == (m["is_bot"] == true) || m["delivery_email"] == nil || m["avatar_url"] == nil {
			t.Errorf("iago sees %v", m)
		}
	}

	body = e.ok(e.do("hamlet@zulip.com", "GET", "/users", url.Values{"user_ids": {"[11, 16, 999, 4]"}}))
	got := body["members"].([]any)
	if len(got) != 2 || got[0].(map[string]any)["user_id"] != float64(11) || got[1].(map[string]any)["user_id"] != float64(16) {
		t.Fatalf("user_ids filter %v", got)
	}
	body = e.ok(e.do("hamlet@zulip.com", "GET", "/users", url.Values{"user_ids": {"[]"}}))
	if got, ok := body["members"].([]any); !ok || len(got) != 0 {
		t.Fatalf("empty user_ids %v", body)
	}
	status, body := e.do("hamlet@zulip.com", "GET", "/users", url.Values{"user_ids": {"11"}})
	e.fail(status, body, 400, "BAD_REQUEST", "user_ids is not a list")
	status, body = e.do("hamlet@zulip.com", "GET", "/users", url.Values{"user_ids": {"[11"}})
	e.fail(status, body, 400, "BAD_REQUEST", `Argument "user_ids" is not valid JSON.`)
	status, body = e.do("hamlet@zulip.com", "GET", "/users", url.Values{"user_ids": {`["x"]`}})
	e.fail(status, body, 400, "BAD_REQUEST", "user_ids[0] is not an integer")
}

func TestUsersHTTPCreatePermissions(t *testing.T) {
	e := newUsersEnv(t)
	form := url.Values{"email": {"new@zulip.com"}, "password": {"secret"}, "full_name": {"New Person"}}
	before := e.memberCount()
	for _, who := range []string{"hamlet@zulip.com", "shiva@zulip.com", "polonius@zulip.com", "default-bot@zulip.com"} {
		status, body := e.do(who, "POST", "/users", form)
		e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	}
	// The role is checked before the parameters, as Zulip's decorator does.
	status, body := e.do("hamlet@zulip.com", "POST", "/users", nil)
	e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	for _, who := range []string{"desdemona@zulip.com"} {
		status, body := e.do(who, "POST", "/users", form)
		e.fail(status, body, 400, "BAD_REQUEST", "User not authorized to create users")
	}
	if n := e.memberCount(); n != before {
		t.Fatalf("refused creations changed the member count: %d -> %d", before, n)
	}
	if err := e.realm.SetCanCreateUsers(11, true); err != nil {
		t.Fatal(err)
	}
	body = e.ok(e.do("iago@zulip.com", "POST", "/users", form))
	usersExpectKeys(t, "answer", body, "result", "msg", "user_id")
	if body["user_id"] != float64(22) || e.memberCount() != before+1 {
		t.Fatalf("created %v", body)
	}
}

func TestUsersHTTPCreateValidation(t *testing.T) {
	e := newUsersEnv(t)
	_ = e.realm.SetCanCreateUsers(11, true)
	before := e.memberCount()
	for _, c := range []struct {
		form url.Values
		msg  string
	}{
		{url.Values{"email": {"bad"}, "password": {"p"}, "full_name": {"A"}}, "Name too short!"},
		{url.Values{"email": {"a@zulip.com"}, "password": {"p"}, "full_name": {strings.Repeat("n", 101)}}, "Name too long!"},
		{url.Values{"email": {"a@zulip.com"}, "password": {"p"}, "full_name": {"Ann *"}}, "Invalid characters in name!"},
		{url.Values{"email": {"a@zulip.com"}, "password": {"p"}, "full_name": {"Ann|12"}}, "Invalid format!"},
		{url.Values{"email": {"not-an-email"}, "password": {"p"}, "full_name": {"Ann"}}, "Bad name or username"},
		{url.Values{"email": {"hamlet@ZULIP.com"}, "password": {"p"}, "full_name": {"Dup"}}, "Email 'hamlet@ZULIP.com' already in use"},
		{url.Values{"email": {"Outgoing-Webhook@zulip.com"}, "password": {"p"}, "full_name": {"Dup"}}, "Email 'Outgoing-Webhook@zulip.com' already in use"},
	} {
		status, body := e.do("iago@zulip.com", "POST", "/users", c.form)
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
	for _, c := range []struct {
		form url.Values
		name string
	}{
		{url.Values{}, "email"},
		{url.Values{"email": {"x@zulip.com"}}, "password"},
		{url.Values{"email": {"x@zulip.com"}, "password": {""}}, "full_name"},
		{url.Values{"password": {"p"}, "full_name": {"Ann"}}, "email"},
	} {
		status, body := e.do("iago@zulip.com", "POST", "/users", c.form)
		e.fail(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing '"+c.name+"' argument")
		if body["var_name"] != c.name {
			t.Fatalf("var_name %v, want %s", body["var_name"], c.name)
		}
	}
	if n := e.memberCount(); n != before {
		t.Fatalf("rejected creations changed the member count: %d -> %d", before, n)
	}

	body := e.success(e.do("iago@zulip.com", "POST", "/users", url.Values{"email": {"Romeo@zulip.com"}, "password": {"xxxx"},
		"full_name": {" Romeo Montague "}, "short_name": {"DEPRECATED"}}))
	if ig, _ := body["ignored_parameters_unsupported"].([]any); len(ig) != 1 || ig[0] != "short_name" {
		t.Fatalf("ignored parameters %v", body)
	}
	id := body["user_id"].(float64)
	path := "/users/" + strconv.Itoa(int(id))
	u := e.ok(e.do("iago@zulip.com", "GET", path, nil))["user"].(map[string]any)
	if u["full_name"] != "Romeo Montague" || u["role"] != float64(400) || u["delivery_email"] != "Romeo@zulip.com" ||
		u["email"] != "user"+strconv.Itoa(int(id))+"@zulipdev.com" || u["date_joined"] != "2026-05-06T07:08+00:00" {
		t.Fatalf("created user %v", u)
	}
	if u := e.ok(e.do("iago@zulip.com", "GET", "/users/romeo@zulip.com", nil))["user"].(map[string]any); u["user_id"] != id {
		t.Fatalf("by email %v", u)
	}
	if e.memberCount() != before+1 {
		t.Fatal("new user missing from GET /users")
	}
	// The new account works with its API key.
	if me := e.ok(e.do("romeo@zulip.com", "GET", "/users/me", nil)); me["user_id"] != id || me["delivery_email"] != "Romeo@zulip.com" {
		t.Fatalf("new user's own view %v", me)
	}
}
