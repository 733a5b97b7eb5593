package realm

import (
	"encoding/json"
	"testing"

	"github.com/minizulip/minizulip/user"
)

func TestRealmUserSettingsDefaults(t *testing.T) {
	r, _ := newTestRealm(t)
	_ = r.SetCanCreateUsers(idIago, true)
	hq := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm_user_settings_defaults"}})
	wantCode(t, r.As(idHamlet).UpdateUserSettingsDefaults(bg, map[string]any{"enter_sends": true}), CodeUnauthorizedPrincipal,
		"Must be an organization administrator")
	// One bad value refuses the whole request.
	wantCode(t, r.As(idIago).UpdateUserSettingsDefaults(bg, map[string]any{"enter_sends": true, "color_scheme": 42}), CodeBadRequest, "")
	wantCode(t, r.As(idIago).UpdateUserSettingsDefaults(bg, map[string]any{"no_such_setting": true}), CodeBadRequest, "Invalid setting: no_such_setting")
	if r.settingsDefaults.values.EnterSends {
		t.Fatal("a refused update changed the defaults")
	}
	err := r.As(idIago).UpdateUserSettingsDefaults(bg, map[string]any{"enter_sends": true, "email_address_visibility": 5,
		"twenty_four_hour_time": false /* unchanged: no event */})
	if err != nil {
		t.Fatal(err)
	}
	var props []string
	for _, ev := range eventsOfType(t, r, idHamlet, hq, "realm_user_settings_defaults") {
		props = append(props, ev["property"].(string))
		if ev["op"] != "update" || (ev["property"] == "enter_sends" && ev["value"] != true) {
			t.Fatalf("event %v", ev)
		}
	}
	if len(props) != 2 || props[0] != "enter_sends" || props[1] != "email_address_visibility" {
		t.Fatalf("events for %v", props)
	}
	// Existing users keep their settings; new ones start from the defaults.
	if r.users.byID[idHamlet].Settings.EnterSends {
		t.Fatal("an existing user's setting changed")
	}
	id, err := r.As(idIago).CreateUser(bg, NewCreateUserRequest("new@zulip.com", "pw", "New Person"))
	if err != nil {
		t.Fatal(err)
	}
	if s := r.users.byID[id].Settings; !s.EnterSends || s.EmailAddressVisibility != user.EmailVisibility(5) {
		t.Fatalf("new user's settings %+v", s)
	}
	// Register shows the defaults, with no time zone.
	res, err := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm_user_settings_defaults"}})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res.UserSettingsDefaults)
	var got map[string]any
	_ = json.Unmarshal(raw, &got)
	if got["enter_sends"] != true || got["email_address_visibility"] != float64(5) || got["emojiset"] != "google" {
		t.Fatalf("defaults %v", got)
	}
	if _, ok := got["timezone"]; ok {
		t.Fatal("the defaults carry a time zone")
	}
}
