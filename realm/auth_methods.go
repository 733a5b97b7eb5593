package realm

import (
	"maps"
	"slices"

	"github.com/minizulip/minizulip/realm/fixture"
)

// The realm's login methods (realm_authentication_methods): the two
// minizulip serves, password login ("Email") and the dev server's login
// without a password ("Dev"). Organization owners turn them on and off
// with PATCH /realm, and a method turned off refuses its login as Zulip
// does.

// AuthenticationMethods says which of the realm's login methods are on.
type AuthenticationMethods struct {
	Email bool // password login, POST /fetch_api_key
	Dev   bool // the dev server's login, POST /dev_fetch_api_key
}

// defaultAuthenticationMethods are those of Zulip's dev realm: both on.
var defaultAuthenticationMethods = AuthenticationMethods{Email: true, Dev: true}

// dict is the methods by Zulip's backend names.
func (m AuthenticationMethods) dict() map[string]bool {
	return map[string]bool{"Dev": m.Dev, "Email": m.Email}
}

// switchOf is the named method's switch, or nil for a name the realm
// does not serve.
func (m *AuthenticationMethods) switchOf(name string) *bool {
	switch name {
	case "Dev":
		return &m.Dev
	case "Email":
		return &m.Email
	}
	return nil
}

// authMethodsValue is realm_authentication_methods as register and
// realm events send it: objects saying whether each method is enabled
// and available (always: the fake has no plans restricting one), or,
// from servers before the level asked for (states false), booleans.
func authMethodsValue(m AuthenticationMethods, states bool) any {
	if !states {
		return m.dict()
	}
	out := map[string]AuthenticationMethodState{}
	for name, on := range m.dict() {
		out[name] = AuthenticationMethodState{Enabled: on, Available: true}
	}
	return out
}

// checkAuthMethodsChange checks PATCH /realm's authentication_methods
// as Zulip does, in its order: owners only, known names, at least one
// method on in the request.
func checkAuthMethodsChange(isOwner bool, req map[string]bool) error {
	if !isOwner {
		return UnauthorizedPrincipal("Must be an organization owner")
	}
	var m AuthenticationMethods
	for _, name := range slices.Sorted(maps.Keys(req)) {
		if m.switchOf(name) == nil {
			return BadRequest("Invalid authentication method: %s. Valid methods are: ['Dev', 'Email']", name)
		}
	}
	if !slices.Contains(slices.Collect(maps.Values(req)), true) {
		return BadRequest("At least one authentication method must be enabled.")
	}
	return nil
}

// setAuthMethods applies a checked authentication_methods request to s.
// As Zulip, a request that differs from the realm's whole list (one
// naming only some methods) is answered with what it asked for.
func (s *Settings) setAuthMethods(req map[string]bool, changes RealmChanges) {
	if maps.Equal(s.AuthenticationMethods.dict(), req) {
		return
	}
	for name, on := range req {
		*s.AuthenticationMethods.switchOf(name) = on
	}
	changes["authentication_methods"] = maps.Clone(req)
}

// loadAuthMethods reads a fixture's authentication_methods (absent:
// the default) into c.
func loadAuthMethods(c *Settings, fs fixture.Settings, at string) error {
	c.AuthenticationMethods = defaultAuthenticationMethods
	if fs.AuthenticationMethods == nil {
		return nil
	}
	var m AuthenticationMethods
	for _, name := range slices.Sorted(maps.Keys(fs.AuthenticationMethods)) {
		sw := m.switchOf(name)
		if sw == nil {
			return badItem(at+".authentication_methods", "unknown method %q (Dev, Email)", name)
		}
		*sw = fs.AuthenticationMethods[name]
	}
	if !m.Dev && !m.Email {
		return badItem(at+".authentication_methods", "no method is on")
	}
	c.AuthenticationMethods = m
	return nil
}
