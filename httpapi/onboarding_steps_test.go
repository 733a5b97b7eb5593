package httpapi

import (
	"net/url"
	"reflect"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// POST /users/me/onboarding_steps from feature level 233, POST
// /users/me/hotspots below it (each answering as an unknown endpoint at
// the other's levels), with Zulip's errors: an unknown step, the
// parameter missing, a bot.
func TestOnboardingStepEndpointsAtTheirLevels(t *testing.T) {
	const hamlet = 10
	for _, c := range []struct {
		level        int
		path, old    string
		param, step  string
		bad, unknown string
	}{
		// Below 233 only the tutorial's hotspots are known; from 259 they
		// are not.
		{232, "/users/me/hotspots", "/users/me/onboarding_steps", "hotspot", "intro_streams", "visibility_policy_banner", "Unknown hotspot: visibility_policy_banner"},
		{233, "/users/me/onboarding_steps", "/users/me/hotspots", "onboarding_step", "intro_inbox_view_modal", "no_such_step", "Unknown onboarding_step: no_such_step"},
		{realm.DefaultFeatureLevel, "/users/me/onboarding_steps", "/users/me/hotspots", "onboarding_step", "intro_inbox_view_modal", "intro_streams", "Unknown onboarding_step: intro_streams"},
	} {
		e := newChanEnv(t, realm.WithFeatureLevel(c.level, ""))
		if err := e.realm.SetOnboardingStepsSeen(hamlet, nil); err != nil {
			t.Fatal(err)
		}
		_, unknownEndpoint := e.do("hamlet@zulip.com", "GET", "/no_such_endpoint", nil)
		if st, body := e.do("hamlet@zulip.com", "POST", c.old, url.Values{c.param: {c.step}}); st != 404 || !reflect.DeepEqual(body, unknownEndpoint) {
			t.Errorf("level %d: POST %s answered %d %v, want an unknown endpoint's 404", c.level, c.old, st, body)
		}
		if st, body := e.do("hamlet@zulip.com", "POST", c.path, url.Values{c.param: {c.step}}); st != 200 || body["result"] != "success" {
			t.Errorf("level %d: POST %s answered %d %v", c.level, c.path, st, body)
		}
		if st, body := e.do("hamlet@zulip.com", "POST", c.path, url.Values{c.param: {c.bad}}); st != 400 || body["code"] != "BAD_REQUEST" || body["msg"] != c.unknown {
			t.Errorf("level %d: an unknown step answered %d %v, want 400 %q", c.level, st, body, c.unknown)
		}
		if st, body := e.do("hamlet@zulip.com", "POST", c.path, nil); st != 400 || body["code"] != "REQUEST_VARIABLE_MISSING" || body["var_name"] != c.param {
			t.Errorf("level %d: no %s answered %d %v", c.level, c.param, st, body)
		}
		if st, body := e.do("default-bot@zulip.com", "POST", c.path, nil); st != 400 || body["msg"] != "This endpoint does not accept bot requests." {
			t.Errorf("level %d: a bot answered %d %v", c.level, st, body)
		}
	}
}
