package httpapi

import (
	"net/url"
	"reflect"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
)

// Zulip's legacy settings keys (zerver/models/users.py
// display_settings_legacy and notification_settings_legacy; the extra
// keys from zerver/lib/events.py fetch_initial_state_data).
var (
	legacyDisplayKeys = []string{"color_scheme", "default_language", "web_home_view", "demote_inactive_streams",
		"emojiset", "enable_drafts_synchronization", "enter_sends", "fluid_layout_width", "high_contrast_mode",
		"left_side_userlist", "starred_message_counts", "translate_emoticons", "twenty_four_hour_time",
		"emojiset_choices", "timezone"}
	legacyNotificationKeys = []string{"desktop_icon_count_display", "email_notifications_batching_period_seconds",
		"enable_desktop_notifications", "enable_digest_emails", "enable_login_emails", "enable_marketing_emails",
		"enable_offline_email_notifications", "enable_offline_push_notifications", "enable_online_push_notifications",
		"enable_sounds", "enable_stream_audible_notifications", "enable_stream_desktop_notifications",
		"enable_stream_email_notifications", "enable_stream_push_notifications",
		"message_content_in_email_notifications", "notification_sound", "pm_content_in_desktop_notifications",
		"presence_enabled", "realm_name_in_email_notifications_policy", "wildcard_mentions_notify",
		"available_notification_sounds"}
)

const withSettingsObject = `{"notification_settings_null": true, "user_settings_object": true}`

// wantKeys checks that body has every key of keys (each equal to the
// same key of settings, when settings is given) or none of them.
func wantKeys(t *testing.T, what string, body map[string]any, keys []string, present bool, settings map[string]any) {
	t.Helper()
	for _, k := range keys {
		v, ok := body[k]
		switch {
		case ok != present:
			t.Errorf("%s: key %s present %v, want %v", what, k, ok, present)
		case ok && settings != nil && !reflect.DeepEqual(v, settings[k]):
			t.Errorf("%s: %s = %v, user_settings has %v", what, k, v, settings[k])
		}
	}
}

// Zulip's fetch_initial_state_data (zerver/lib/events.py) sends the
// legacy top-level settings keys when update_display_settings or
// update_global_notifications is fetched and the client did not declare
// user_settings_object.
func TestHTTPRegisterLegacySettingsKeys(t *testing.T) {
	e := newUsersEnv(t)
	e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"timezone": {"Europe/Paris"}, "enter_sends": {"true"},
		"enable_sounds": {"false"}, "web_home_view": {"all_messages"}, "desktop_icon_count_display": {"3"}}))

	_, body := e.register("hamlet@zulip.com", url.Values{"client_capabilities": {`{"notification_settings_null": true}`}})
	settings := body["user_settings"].(map[string]any)
	wantKeys(t, "old client", body, legacyDisplayKeys, true, settings)
	wantKeys(t, "old client", body, legacyNotificationKeys, true, settings)
	if body["timezone"] != "Europe/Paris" || body["enter_sends"] != true || body["enable_sounds"] != false ||
		body["web_home_view"] != "all_messages" || body["desktop_icon_count_display"] != 3.0 {
		t.Fatalf("legacy keys do not hold the stored settings: %v", body)
	}
	if _, ok := body["dense_mode"]; ok {
		t.Fatal("dense_mode sent at a level past 364")
	}

	_, body = e.register("hamlet@zulip.com", url.Values{"client_capabilities": {withSettingsObject}})
	wantKeys(t, "user_settings_object", body, legacyDisplayKeys, false, nil)
	wantKeys(t, "user_settings_object", body, legacyNotificationKeys, false, nil)
	if _, ok := body["user_settings"]; !ok {
		t.Fatal("user_settings missing")
	}

	// One legacy section without the other, and none without being asked.
	_, body = e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["update_display_settings"]`}})
	wantKeys(t, "display only", body, legacyDisplayKeys, true, nil)
	wantKeys(t, "display only", body, legacyNotificationKeys, false, nil)
	if _, ok := body["user_settings"]; ok {
		t.Fatal("user_settings sent though not fetched")
	}
	_, body = e.register("hamlet@zulip.com", url.Values{"event_types": {`["update_global_notifications"]`}})
	wantKeys(t, "notifications only", body, legacyNotificationKeys, true, nil)
	wantKeys(t, "notifications only", body, legacyDisplayKeys, false, nil)
	_, body = e.register("hamlet@zulip.com", url.Values{"event_types": {`["user_settings"]`}})
	wantKeys(t, "user_settings only", body, legacyDisplayKeys, false, nil)
	wantKeys(t, "user_settings only", body, legacyNotificationKeys, false, nil)
	_, body = e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["update_display_settings", "update_global_notifications"]`},
		"client_capabilities": {withSettingsObject}})
	wantKeys(t, "asked with user_settings_object", body, append(legacyDisplayKeys, legacyNotificationKeys...), false, nil)
}

// Below feature level 364 dense_mode is still a setting, and one of
// display_settings_legacy.
func TestHTTPRegisterLegacyDenseMode(t *testing.T) {
	e := newAPIEnv(t, time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC), realm.WithFeatureLevel(363, ""))
	_, body := e.register("hamlet@zulip.com", nil)
	if body["dense_mode"] != true || body["user_settings"].(map[string]any)["dense_mode"] != true {
		t.Fatalf("dense_mode at 363: %v", body["dense_mode"])
	}
}

// Zulip's do_change_user_setting (zerver/actions/user_settings.py) sends
// user_settings, then update_global_notifications for a setting of
// notification_settings_legacy or update_display_settings for one of
// display_settings_legacy and timezone; the event queue
// (zerver/tornado/event_queue.py) drops the legacy ones for clients with
// user_settings_object.
func TestHTTPLegacySettingsEventsByQueue(t *testing.T) {
	e := newUsersEnv(t)
	modern, _ := e.register("hamlet@zulip.com", url.Values{"client_capabilities": {withSettingsObject}})
	legacy, _ := e.register("hamlet@zulip.com", nil)
	notifyOnly, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["user_settings", "update_global_notifications"]`}})
	displayOnly, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["update_display_settings"]`}})
	e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"high_contrast_mode": {"true"}}))
	e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"web_home_view": {"all_messages"}}))
	e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"timezone": {"Asia/Kolkata"}}))
	e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"wildcard_mentions_notify": {"false"}}))
	e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"user_list_style": {"1"}})) // no legacy form

	modernEvents := []map[string]any{
		{"type": "user_settings", "op": "update", "property": "high_contrast_mode", "value": true},
		{"type": "user_settings", "op": "update", "property": "web_home_view", "value": "all_messages"},
		{"type": "user_settings", "op": "update", "property": "timezone", "value": "Asia/Kolkata"},
		{"type": "user_settings", "op": "update", "property": "wildcard_mentions_notify", "value": false},
		{"type": "user_settings", "op": "update", "property": "user_list_style", "value": 1.0},
	}
	display := []map[string]any{
		{"type": "update_display_settings", "user": "user10@zulipdev.com", "setting_name": "high_contrast_mode", "setting": true},
		{"type": "update_display_settings", "user": "user10@zulipdev.com", "setting_name": "web_home_view", "setting": "all_messages"},
		{"type": "update_display_settings", "user": "user10@zulipdev.com", "setting_name": "timezone", "setting": "Asia/Kolkata"},
	}
	notification := map[string]any{"type": "update_global_notifications", "user": "user10@zulipdev.com",
		"notification_name": "wildcard_mentions_notify", "setting": false}

	for _, c := range []struct {
		name, queue string
		want        []map[string]any
	}{
		{"user_settings_object", modern, modernEvents},
		{"legacy", legacy, []map[string]any{modernEvents[0], display[0], modernEvents[1], display[1],
			modernEvents[2], display[2], modernEvents[3], notification, modernEvents[4]}},
		{"event_types user_settings and update_global_notifications", notifyOnly,
			[]map[string]any{modernEvents[0], modernEvents[1], modernEvents[2], modernEvents[3], notification, modernEvents[4]}},
		{"event_types update_display_settings", displayOnly, display},
	} {
		var got []map[string]any
		for _, ev := range e.eventsOf("hamlet@zulip.com", c.queue, -1) {
			if ev["type"] != "realm_user" { // the time zone's realm_user update
				got = append(got, ev)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s queue:\n got %v\nwant %v", c.name, got, c.want)
		}
	}
}
