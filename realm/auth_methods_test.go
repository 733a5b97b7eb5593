package realm

import (
	"reflect"
	"testing"

	"github.com/minizulip/minizulip/user"
)

// An owner turns password login off: PATCH /realm answers with what was
// asked, every user hears of it, register and server_settings say so,
// and password login is refused as Zulip refuses it while the dev login
// goes on; turning the dev login off refuses that one too.
func TestAuthenticationMethodsTurnLoginsOff(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idHamlet, QueueOptions{})
	changes, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{AuthenticationMethods: map[string]bool{"Email": false, "Dev": true}})
	if err != nil {
		t.Fatal(err)
	}
	if got := changes["authentication_methods"]; !reflect.DeepEqual(got, map[string]bool{"Email": false, "Dev": true}) {
		t.Errorf("answer authentication_methods = %v", got)
	}
	evs := eventsOf(t, r, idHamlet, q, "realm")
	want := map[string]any{"op": "update_dict", "property": "default", "data": map[string]any{"authentication_methods": map[string]any{
		"Email": map[string]any{"enabled": false, "available": true}, "Dev": map[string]any{"enabled": true, "available": true}}}}
	if len(evs) != 1 || !reflect.DeepEqual(withoutIDAndType(evs[0]), want) {
		t.Errorf("realm events %v, want %v", evs, want)
	}
	state := realmState(t, r, idHamlet)
	if got := state.RealmAuthenticationMethods; !reflect.DeepEqual(got, map[string]AuthenticationMethodState{
		"Email": {Enabled: false, Available: true}, "Dev": {Enabled: true, Available: true}}) {
		t.Errorf("register realm_authentication_methods = %v", got)
	}
	if state.RealmEmailAuthEnabled || state.RealmPasswordAuthEnabled {
		t.Errorf("register realm_email_auth_enabled %v, realm_password_auth_enabled %v, want false", state.RealmEmailAuthEnabled, state.RealmPasswordAuthEnabled)
	}
	s := r.ServerSettings(ServerSettingsRequest{DevLogin: true})
	if s.EmailAuthEnabled || s.AuthenticationMethods["password"] || s.AuthenticationMethods["email"] || !s.AuthenticationMethods["dev"] {
		t.Errorf("server_settings: email_auth_enabled %v, authentication_methods %v", s.EmailAuthEnabled, s.AuthenticationMethods)
	}
	_, err = r.FetchAPIKey("hamlet@zulip.com", user.DevPassword)
	if e := wantCode(t, err, CodePasswordAuthDisabled, "Password authentication is disabled in this organization"); e != nil && e.Status != 401 {
		t.Errorf("status %d, want 401", e.Status)
	}
	if _, err := r.FetchAPIKey("nobody@zulip.com", "x"); err == nil || err.(*Error).Code != CodePasswordAuthDisabled {
		t.Errorf("an unknown account's password login = %v, want PASSWORD_AUTH_DISABLED before the lookup", err)
	}
	if login, err := r.DevFetchAPIKey("hamlet@zulip.com"); err != nil || login.UserID != idHamlet {
		t.Errorf("dev login = %+v, %v", login, err)
	}

	if _, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{AuthenticationMethods: map[string]bool{"Email": true, "Dev": false}}); err != nil {
		t.Fatal(err)
	}
	_, err = r.DevFetchAPIKey("hamlet@zulip.com")
	wantCode(t, err, CodeAuthenticationFailed, "Your username or password is incorrect")
	if login, err := r.FetchAPIKey("hamlet@zulip.com", user.DevPassword); err != nil || login.UserID != idHamlet {
		t.Errorf("password login = %+v, %v", login, err)
	}
	if s := r.ServerSettings(ServerSettingsRequest{DevLogin: true}); s.AuthenticationMethods["dev"] || !s.AuthenticationMethods["password"] {
		t.Errorf("server_settings authentication_methods %v", s.AuthenticationMethods)
	}
}

// withoutIDAndType drops an event's id and type.
func withoutIDAndType(ev map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range ev {
		if k != "id" && k != "type" {
			out[k] = v
		}
	}
	return out
}

// Zulip's checks, in its order: owners only, known names, at least one
// method on in the request. A refused change changes nothing.
func TestAuthenticationMethodsChangeIsChecked(t *testing.T) {
	r, _ := newTestRealm(t)
	before := r.Settings().AuthenticationMethods
	for _, c := range []struct {
		who  int
		req  map[string]bool
		code Code
		msg  string
	}{
		{idIago, map[string]bool{"Email": false, "Dev": true}, CodeUnauthorizedPrincipal, "Must be an organization owner"},
		{idIago, map[string]bool{"LDAP": true}, CodeUnauthorizedPrincipal, "Must be an organization owner"},
		{idDesdemona, map[string]bool{"LDAP": true, "Email": true}, CodeBadRequest, "Invalid authentication method: LDAP. Valid methods are: ['Dev', 'Email']"},
		{idDesdemona, map[string]bool{"Email": false, "Dev": false}, CodeBadRequest, "At least one authentication method must be enabled."},
		{idDesdemona, map[string]bool{}, CodeBadRequest, "At least one authentication method must be enabled."},
	} {
		_, err := r.As(c.who).UpdateRealm(bg, RealmUpdate{AuthenticationMethods: c.req})
		wantCode(t, err, c.code, c.msg)
	}
	if got := r.Settings().AuthenticationMethods; got != before {
		t.Errorf("refused changes left %+v, want %+v", got, before)
	}
	// A request naming the methods as they are changes nothing and is
	// not announced; one naming only some is answered (as Zulip does).
	q := mustQueue(t, r, idHamlet, QueueOptions{})
	changes, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{AuthenticationMethods: map[string]bool{"Email": true, "Dev": true}})
	if err != nil || len(changes) != 0 {
		t.Errorf("an unchanged request answered %v, %v", changes, err)
	}
	changes, err = r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{AuthenticationMethods: map[string]bool{"Email": true}})
	if err != nil || !reflect.DeepEqual(changes["authentication_methods"], map[string]bool{"Email": true}) {
		t.Errorf("a partial request answered %v, %v", changes, err)
	}
	if evs := eventsOf(t, r, idHamlet, q, "realm"); len(evs) != 0 {
		t.Errorf("requests that changed nothing sent %v", evs)
	}
}

// Rows 241 (register) and 243 (update_dict events): below each level the
// methods are booleans.
func TestAuthenticationMethodsFormFollowsLevel(t *testing.T) {
	levels := []int{changeAuthMethodsStates.Level() - 1, changeAuthMethodsStates.Level(),
		changeAuthMethodsEventStates.Level() - 1, changeAuthMethodsEventStates.Level()}
	atLevels(t, levels, func(t *testing.T, r *Realm, level int) {
		q := mustQueue(t, r, idHamlet, QueueOptions{})
		if _, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{AuthenticationMethods: map[string]bool{"Dev": false, "Email": true}}); err != nil {
			t.Fatal(err)
		}
		var wantRegister any = map[string]bool{"Dev": false, "Email": true}
		if level >= changeAuthMethodsStates.Level() {
			wantRegister = map[string]AuthenticationMethodState{"Dev": {Enabled: false, Available: true}, "Email": {Enabled: true, Available: true}}
		}
		if got := realmState(t, r, idHamlet).RealmAuthenticationMethods; !reflect.DeepEqual(got, wantRegister) {
			t.Errorf("level %d: register %#v, want %#v", level, got, wantRegister)
		}
		var wantEvent any = map[string]any{"Dev": false, "Email": true}
		if level >= changeAuthMethodsEventStates.Level() {
			wantEvent = map[string]any{"Dev": map[string]any{"enabled": false, "available": true}, "Email": map[string]any{"enabled": true, "available": true}}
		}
		evs := eventsOf(t, r, idHamlet, q, "realm")
		if len(evs) != 1 || !reflect.DeepEqual(evs[0]["data"], map[string]any{"authentication_methods": wantEvent}) {
			t.Errorf("level %d: events %v, want data %v", level, evs, wantEvent)
		}
	})
}

// The methods survive a fixture dump and load; a fixture without them
// has both on, and one with an unknown method or none on is refused.
func TestAuthenticationMethodsFixture(t *testing.T) {
	r, _ := newTestRealm(t)
	if _, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{AuthenticationMethods: map[string]bool{"Dev": false, "Email": true}}); err != nil {
		t.Fatal(err)
	}
	doc := dumpDocument(t, r)
	if !reflect.DeepEqual(doc.Settings.AuthenticationMethods, map[string]bool{"Dev": false, "Email": true}) {
		t.Errorf("dumped %v", doc.Settings.AuthenticationMethods)
	}
	fresh, _ := newTestRealm(t)
	if err := fresh.LoadFixture(encodeDocument(t, doc)); err != nil {
		t.Fatal(err)
	}
	if got := fresh.Settings().AuthenticationMethods; got != (AuthenticationMethods{Email: true}) {
		t.Errorf("loaded %+v", got)
	}
	doc.Settings.AuthenticationMethods = nil
	if err := fresh.LoadFixture(encodeDocument(t, doc)); err != nil {
		t.Fatal(err)
	}
	if got := fresh.Settings().AuthenticationMethods; got != defaultAuthenticationMethods {
		t.Errorf("a fixture without methods loaded %+v", got)
	}
	for _, bad := range []map[string]bool{{"SAML": true}, {"Dev": false, "Email": false}} {
		d := dumpDocument(t, r)
		d.Settings.AuthenticationMethods = bad
		if err := fresh.LoadFixture(encodeDocument(t, d)); err == nil {
			t.Errorf("a fixture with methods %v loaded", bad)
		}
	}
}
