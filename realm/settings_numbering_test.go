package realm

import (
	"encoding/json"
	"testing"
)

// desktopIconCount is desktop_icon_count_display as uid's register
// answer reports it: in user_settings, in realm_user_settings_defaults
// and as the legacy top-level key.
func desktopIconCount(t *testing.T, r *Realm, uid int) (own, defaults, legacy float64) {
	t.Helper()
	state, err := r.As(uid).Register(bg, RegisterRequest{FetchEventTypes: []string{"user_settings", "realm_user_settings_defaults", "update_global_notifications"}})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(r.WireAnswer("POST", "/register", state))
	var m struct {
		UserSettings map[string]any `json:"user_settings"`
		Defaults     map[string]any `json:"realm_user_settings_defaults"`
		Legacy       float64        `json:"desktop_icon_count_display"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	own, _ = m.UserSettings["desktop_icon_count_display"].(float64)
	defaults, _ = m.Defaults["desktop_icon_count_display"].(float64)
	return own, defaults, m.Legacy
}

// desktop_icon_count_display follows the renumbering of Zulip 8.0
// (feature level 227): below it, requests and answers use the old
// numbering (1 all, 2 DMs and mentions, 3 none), and the new option's
// 4 is refused as Zulip refused it.
func TestDesktopIconCountNumberingFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeDesktopIconCountFollowed, func(t *testing.T, r *Realm, has bool) {
		q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"user_settings", "realm_user_settings_defaults"}})
		set := func(v int) error {
			return r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Settings: map[string]any{"desktop_icon_count_display": v}})
		}
		setDefault := func(v int) error {
			return r.As(idIago).UpdateUserSettingsDefaults(bg, map[string]any{"desktop_icon_count_display": v})
		}
		if !has {
			wantCode(t, set(4), CodeBadRequest, "Invalid desktop_icon_count_display")
			wantCode(t, setDefault(4), CodeBadRequest, "Invalid desktop_icon_count_display")
		}
		// 2 is "DMs and mentions" below, "DMs, mentions, and followed
		// topics" at the level; either way it reads back as sent.
		must(t, set(2))
		must(t, setDefault(3))
		own, defaults, legacy := desktopIconCount(t, r, idHamlet)
		if own != 2 || legacy != 2 || defaults != 3 {
			t.Fatalf("register: own %v, legacy %v, default %v; want 2, 2, 3", own, legacy, defaults)
		}
		stored := r.users.byID[idHamlet].Settings.DesktopIconCountDisplay
		storedDefault := r.settingsDefaults.values.DesktopIconCountDisplay
		if want, wantDefault := map[bool]int{false: 3, true: 2}[has], map[bool]int{false: 4, true: 3}[has]; stored != want || storedDefault != wantDefault {
			t.Fatalf("stored %d and default %d, want %d and %d (today's numbering)", stored, storedDefault, want, wantDefault)
		}
		var values []any
		for _, ev := range pending(t, r, idHamlet, q, -1) {
			j := eventJSON(t, ev)
			if j["property"] == "desktop_icon_count_display" {
				values = append(values, j["value"])
			}
		}
		if len(values) != 2 || values[0] != 2.0 || values[1] != 3.0 {
			t.Fatalf("events' values %v, want [2 3]", values)
		}
	})
}
