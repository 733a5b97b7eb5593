package realm

import (
	"net/http"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/user"
)

func TestDevFetchAPIKeyKeepsSeededCase(t *testing.T) {
	r, _ := newTestRealm(t)
	for _, username := range []string{"AARON@zulip.com", "aaron@ZULIP.COM", "Aaron@Zulip.Com"} {
		got, err := r.DevFetchAPIKey(username)
		if err != nil {
			t.Fatalf("%s: %v", username, err)
		}
		_, key, _ := r.APIKey("AARON@zulip.com")
		if got.Email != "AARON@zulip.com" || got.UserID != idAaron || got.APIKey != key || len(key) != 32 {
			t.Fatalf("%s: %+v", username, got)
		}
	}
	again, _ := r.DevFetchAPIKey("iago@zulip.com")
	once, _ := r.DevFetchAPIKey("iago@zulip.com")
	if again.APIKey != once.APIKey || again.UserID != idIago {
		t.Fatal("the key must not change between dev logins")
	}
	// Bots of the realm may log in too.
	if bot, err := r.DevFetchAPIKey("default-bot@zulip.com"); err != nil || bot.UserID != idDefaultBot {
		t.Fatalf("bot login: %+v %v", bot, err)
	}
}

func TestDevFetchAPIKeyErrors(t *testing.T) {
	r, _ := newTestRealm(t)
	cases := []struct {
		username string
		code     Code
		status   int
		msg      string
	}{
		{"not an email", CodeBadRequest, 400, "Enter a valid email address."},
		{"", CodeBadRequest, 400, "Enter a valid email address."},
		{"a@b@c", CodeBadRequest, 400, "Enter a valid email address."},
		{"ghost@zulip.com", CodeAuthenticationFailed, 401, "Your username or password is incorrect"},
		// The API (fake) address is not a login name: Zulip matches the delivery email.
		{"user6@zulipdev.com", CodeAuthenticationFailed, 401, "Your username or password is incorrect"},
		// System bots belong to another realm.
		{"notification-bot@zulip.com", CodeNonexistentSubdomain, 404, "Invalid subdomain"},
	}
	for _, c := range cases {
		_, err := r.DevFetchAPIKey(c.username)
		e := wantCode(t, err, c.code, c.msg)
		if e.Status != c.status || e.Msg != c.msg {
			t.Errorf("%q: status %d msg %q", c.username, e.Status, e.Msg)
		}
	}
	r.users.byID[idHamlet].IsActive = false
	_, err := r.DevFetchAPIKey("hamlet@zulip.com")
	if e := wantCode(t, err, CodeUserDeactivated, "Account is deactivated"); e.Status != http.StatusUnauthorized {
		t.Fatalf("deactivated: status %d", e.Status)
	}
}

func devEmails(list []DevUser) string {
	var out []string
	for _, u := range list {
		out = append(out, u.Email)
	}
	return strings.Join(out, " ")
}

func TestDevListUsersOrderAndRoles(t *testing.T) {
	r, _ := newTestRealm(t)
	got := r.DevListUsers()
	// Ordered by the API email user<ID>@zulipdev.com, as text: user10 < user6.
	if s := devEmails(got.DirectAdmins); s != "iago@zulip.com desdemona@zulip.com" {
		t.Fatalf("admins: %s", s)
	}
	wantUsers := "hamlet@zulip.com othello@zulip.com polonius@zulip.com prospero@zulip.com shiva@zulip.com AARON@zulip.com ZOE@zulip.com cordelia@zulip.com"
	if s := devEmails(got.DirectUsers); s != wantUsers {
		t.Fatalf("users: %s", s)
	}
	if u := got.DirectUsers[0]; u.RealmURI != DefaultURL || u.RealmURL != DefaultURL {
		t.Fatalf("realm URLs %+v", u)
	}

	// With addresses visible to everyone, the email column is the real address.
	r.UpdateSettings(func(s *Settings) { s.EmailAddressVisibility = user.EmailVisibilityEveryone })
	r.users.byID[idOthello].IsActive = false
	got = r.DevListUsers()
	wantUsers = "AARON@zulip.com ZOE@zulip.com cordelia@zulip.com hamlet@zulip.com polonius@zulip.com prospero@zulip.com shiva@zulip.com"
	if s := devEmails(got.DirectUsers); s != wantUsers {
		t.Fatalf("deactivated users and bots must be left out; got %s", s)
	}
	if s := devEmails(got.DirectAdmins); s != "desdemona@zulip.com iago@zulip.com" {
		t.Fatalf("admins: %s", s)
	}
}

func TestDevListUsersOldFeatureLevel(t *testing.T) {
	r, _ := newTestRealm(t, WithFeatureLevel(218, "8.0-dev+git"), WithURL("http://127.0.0.1:1234"))
	got := r.DevListUsers()
	if u := got.DirectAdmins[0]; u.RealmURI != "http://127.0.0.1:1234" || u.RealmURL != "" {
		t.Fatalf("before feature level 257 only realm_uri is sent: %+v", u)
	}
}

func TestServerSettingsValues(t *testing.T) {
	r, _ := newTestRealm(t, WithURL("http://127.0.0.1:4321"))
	s := r.ServerSettings(ServerSettingsRequest{ClientName: "ZulipMobile", DevLogin: true})
	if s.ZulipFeatureLevel != DefaultFeatureLevel || s.ZulipVersion != "12.0-dev+minizulip" || s.ZulipMergeBase != "12.0-dev" {
		t.Fatalf("version facts %+v", s)
	}
	if s.RealmURI != "http://127.0.0.1:4321" || s.RealmURL != s.RealmURI || s.RealmName != "Zulip Dev" {
		t.Fatalf("realm facts %+v", s)
	}
	wantDesc := "<p>The Zulip development environment default organization.  It's great for testing!</p>"
	if s.RealmDescription != wantDesc {
		t.Fatalf("description %q", s.RealmDescription)
	}
	// md5("zulip"): the realm's string ID, as Zulip hashes it for Gravatar.
	if s.RealmIcon != "https://secure.gravatar.com/avatar/62429d594b6ffc712f54aee976a18b44?d=identicon" {
		t.Fatalf("icon %q", s.RealmIcon)
	}
	if !s.RealmWebPublicAccessEnabled || s.IsIncompatible || s.PushNotificationsEnabled || !s.EmailAuthEnabled || !s.RequireEmailFormatUsernames {
		t.Fatalf("flags %+v", s)
	}
	if !s.AuthenticationMethods["dev"] || !s.AuthenticationMethods["password"] || s.AuthenticationMethods["github"] || len(s.AuthenticationMethods) != 12 {
		t.Fatalf("auth methods %v", s.AuthenticationMethods)
	}
	if s.ExternalAuthenticationMethods == nil {
		t.Fatal("external_authentication_methods must be [] not null")
	}

	// Web-public access needs spectator access on and a live web-public channel (Rome).
	r.UpdateSettings(func(s *Settings) { s.EnableSpectatorAccess = false })
	if r.ServerSettings(ServerSettingsRequest{DevLogin: true}).RealmWebPublicAccessEnabled {
		t.Fatal("spectator access is off")
	}
	r.UpdateSettings(func(s *Settings) { s.EnableSpectatorAccess = true })
	r.channels.byName["rome"].IsArchived = true
	if r.ServerSettings(ServerSettingsRequest{DevLogin: true}).RealmWebPublicAccessEnabled {
		t.Fatal("the only web-public channel is archived")
	}
}

func TestServerSettingsOldFeatureLevel(t *testing.T) {
	r, _ := newTestRealm(t, WithFeatureLevel(218, "8.0-dev+git"))
	s := r.ServerSettings(ServerSettingsRequest{DevLogin: true})
	if s.ZulipFeatureLevel != 218 || s.ZulipVersion != "8.0-dev+git" || s.RealmURL != "" || s.RealmURI != DefaultURL {
		t.Fatalf("%+v", s)
	}
}

func TestIncompatibleClient(t *testing.T) {
	r, _ := newTestRealm(t)
	for name, want := range map[string]bool{"ZulipInvalid": true, "ZulipMobile": false, "": false, "zulipinvalid": false} {
		if got := r.ServerSettings(ServerSettingsRequest{ClientName: name}).IsIncompatible; got != want {
			t.Errorf("%q: is_incompatible %v, want %v", name, got, want)
		}
	}
}

// Password login: the dev realm's humans have user.DevPassword; bots,
// wrong passwords and unknown users get Zulip's one answer; SetPassword
// and CreateUser set passwords (issue 14, item 8).
func TestFetchAPIKey(t *testing.T) {
	r, _ := newTestRealm(t)
	login, err := r.FetchAPIKey("IAGO@zulip.com", user.DevPassword)
	if _, key, _ := r.APIKey("iago@zulip.com"); err != nil || login.APIKey != key || login.Email != "iago@zulip.com" || login.UserID != idIago {
		t.Fatalf("login %+v %v", login, err)
	}
	for _, c := range []struct{ username, password string }{
		{"iago@zulip.com", "wrong"}, {"nobody@zulip.com", user.DevPassword}, {"default-bot@zulip.com", user.DevPassword},
		{"iago@zulip.com", ""},
	} {
		_, err := r.FetchAPIKey(c.username, c.password)
		e := wantCode(t, err, CodeAuthenticationFailed, "Your username or password is incorrect")
		if e.Status != 401 {
			t.Errorf("%s: status %d", c.username, e.Status)
		}
	}
	if err := r.SetPassword(idIago, "new one"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.FetchAPIKey("iago@zulip.com", user.DevPassword); err == nil {
		t.Fatal("the old password still works")
	}
	if _, err := r.FetchAPIKey("iago@zulip.com", "new one"); err != nil {
		t.Fatalf("the new password: %v", err)
	}
	r.SetCanCreateUsers(idIago, true)
	id, err := r.As(idIago).CreateUser(bg, NewCreateUserRequest("newbie@zulip.com", "pw123", "New Bie"))
	if err != nil {
		t.Fatal(err)
	}
	if l, err := r.FetchAPIKey("newbie@zulip.com", "pw123"); err != nil || l.UserID != id {
		t.Fatalf("a created user's password: %+v %v", l, err)
	}
	r.users.byID[idHamlet].IsActive = false
	_, err = r.FetchAPIKey("hamlet@zulip.com", user.DevPassword)
	wantCode(t, err, CodeUserDeactivated, "Account is deactivated")
}

// A version given with the feature level is a real Zulip release's: it is
// both zulip_version and zulip_merge_base, as such a server sends them.
func TestGivenVersionIsAlsoTheMergeBase(t *testing.T) {
	r, _ := newTestRealm(t, WithFeatureLevel(237, "8.0"))
	s := r.ServerSettings(ServerSettingsRequest{})
	if s.ZulipFeatureLevel != 237 || s.ZulipVersion != "8.0" || s.ZulipMergeBase != "8.0" {
		t.Fatalf("version facts %d %q %q", s.ZulipFeatureLevel, s.ZulipVersion, s.ZulipMergeBase)
	}
}
