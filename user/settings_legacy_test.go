package user

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// jsonKeys are the JSON names of struct type t's fields.
func jsonKeys(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		out = append(out, strings.Split(t.Field(i).Tag.Get("json"), ",")[0])
	}
	return out
}

// The settings whose change sends a legacy event are exactly those of
// Zulip's display_settings_legacy and notification_settings_legacy
// (zerver/models/users.py), the keys register sends them under; the
// extra keys are the ones fetch_initial_state_data adds (zerver/lib/events.py).
func TestLegacySettingsMatchTheirEvents(t *testing.T) {
	extra := map[LegacyEvent][]string{
		LegacyDisplay:      {"dense_mode", "emojiset_choices", "timezone"}, // dense_mode: no setting from 364
		LegacyNotification: {"available_notification_sounds"},
	}
	for kind, typ := range map[LegacyEvent]reflect.Type{
		LegacyDisplay:      reflect.TypeFor[LegacyDisplaySettings](),
		LegacyNotification: reflect.TypeFor[LegacyNotificationSettings](),
	} {
		var fromDefs []string
		for _, d := range SettingDefs {
			if d.Legacy == kind {
				fromDefs = append(fromDefs, d.Name)
			}
		}
		var keys []string
		for _, k := range jsonKeys(typ) {
			if !slices.Contains(extra[kind], k) {
				keys = append(keys, k)
			}
		}
		slices.Sort(fromDefs)
		slices.Sort(keys)
		if !slices.Equal(fromDefs, keys) {
			t.Errorf("%s: settings with the legacy event %v, register keys %v", typ.Name(), fromDefs, keys)
		}
	}
	if len(jsonKeys(reflect.TypeFor[LegacyDisplaySettings]())) != 16 || len(jsonKeys(reflect.TypeFor[LegacyNotificationSettings]())) != 21 {
		t.Fatal("Zulip has 14 legacy display settings (with dense_mode) and 20 legacy notification settings")
	}
}

// Each legacy key holds the value of the same key of user_settings.
func TestLegacySettingsCopyTheView(t *testing.T) {
	s := DefaultSettings()
	s.EnterSends, s.NotificationSound, s.DesktopIconCountDisplay = true, "ding", 3
	v := s.View("Europe/Paris", EmailVisibilityEveryone, 400).WithDenseMode()
	all := map[string]any{}
	for n, part := range []any{v, v.LegacyDisplay(), v.LegacyNotification()} {
		rv := reflect.ValueOf(part)
		for i, k := range jsonKeys(rv.Type()) {
			prev, ok := all[k]
			if n > 0 && !ok {
				t.Errorf("legacy key %s is no key of user_settings", k)
			}
			if ok && !reflect.DeepEqual(prev, rv.Field(i).Interface()) {
				t.Errorf("%s: %v in user_settings, %v in the legacy keys", k, prev, rv.Field(i).Interface())
			}
			all[k] = rv.Field(i).Interface()
		}
	}
}
