package realm

import (
	"encoding/json"
	"testing"
)

// Below feature level 219 web_home_view and
// web_escape_navigates_to_home_view are default_view and
// escape_navigates_to_default_view wherever a server of that level sent
// them: user_settings, realm_user_settings_defaults, the legacy
// top-level key, and the settings events (legacy ones too).
func TestHomeViewNamesFollowFeatureLevel(t *testing.T) {
	for _, level := range []int{218, 219} {
		t.Run(itoa(level), func(t *testing.T) {
			r, _ := newTestRealm(t, WithFeatureLevel(level, "test"))
			home, escape := "web_home_view", "web_escape_navigates_to_home_view"
			if level < 219 {
				home, escape = "default_view", "escape_navigates_to_default_view"
			}
			state, err := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"user_settings", "realm_user_settings_defaults", "update_display_settings"}})
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(r.WireAnswer("POST", "/register", state))
			var m struct {
				UserSettings map[string]any `json:"user_settings"`
				Defaults     map[string]any `json:"realm_user_settings_defaults"`
			}
			var top map[string]any
			if json.Unmarshal(raw, &m) != nil || json.Unmarshal(raw, &top) != nil {
				t.Fatal("bad JSON")
			}
			for where, obj := range map[string]map[string]any{"user_settings": m.UserSettings, "realm_user_settings_defaults": m.Defaults} {
				if obj[home] != "inbox" || obj[escape] != true {
					t.Errorf("%s: %s=%v %s=%v", where, home, obj[home], escape, obj[escape])
				}
				for _, name := range []string{"web_home_view", "default_view", "web_escape_navigates_to_home_view", "escape_navigates_to_default_view"} {
					if _, ok := obj[name]; ok && name != home && name != escape {
						t.Errorf("%s has %s at level %d", where, name, level)
					}
				}
			}
			if top[home] != "inbox" || top[map[bool]string{true: "default_view", false: "web_home_view"}[level >= 219]] != nil {
				t.Errorf("legacy keys: %s=%v", home, top[home])
			}

			q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"user_settings", "update_display_settings", "realm_user_settings_defaults"}})
			must(t, r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Settings: map[string]any{"web_home_view": "all_messages", "web_escape_navigates_to_home_view": false}}))
			must(t, r.As(idIago).UpdateUserSettingsDefaults(bg, map[string]any{"web_home_view": "all_messages"}))
			var names []string
			for _, ev := range pending(t, r, idHamlet, q, -1) {
				j := eventJSON(t, ev)
				names = append(names, j["type"].(string)+" "+stringOr(j["property"], j["setting_name"]))
			}
			want := []string{"user_settings " + home, "update_display_settings " + home, "user_settings " + escape, "realm_user_settings_defaults " + home}
			if len(names) != len(want) {
				t.Fatalf("events %v, want %v", names, want)
			}
			for i := range want {
				if names[i] != want[i] {
					t.Fatalf("events %v, want %v", names, want)
				}
			}
		})
	}
}

func stringOr(vs ...any) string {
	for _, v := range vs {
		if s, ok := v.(string); ok {
			return s
		}
	}
	return ""
}
