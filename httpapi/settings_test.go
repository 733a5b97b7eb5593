package httpapi

import (
	"net/url"
	"reflect"
	"strconv"
	"testing"

	"github.com/minizulip/minizulip/user"
)

// userSettings is the user_settings object of email's register answer.
func (e *apiEnv) userSettings(email string) map[string]any {
	e.t.Helper()
	_, body := e.register(email, url.Values{"fetch_event_types": {`["user_settings"]`}})
	return body["user_settings"].(map[string]any)
}

// patchSettings sends PATCH /settings as email.
func (e *apiEnv) patchSettings(email string, form url.Values) (int, map[string]any) {
	e.t.Helper()
	return e.do(email, "PATCH", "/settings", form)
}

// settingCase is one setting with a value it takes and one it refuses.
type settingCase struct {
	name    string
	valid   string // as sent
	stored  any    // as register's user_settings reports it afterwards
	invalid string
	msg     string // the refusal
}

// nonBoolSettingCases covers every setting that is not a boolean.
var nonBoolSettingCases = []settingCase{
	{"web_mark_read_on_scroll_policy", "3", 3.0, "4", "Invalid web_mark_read_on_scroll_policy"},
	{"web_channel_default_view", "4", 4.0, "5", "Invalid web_channel_default_view"},
	{"web_font_size_px", "20", 20.0, "0", "Invalid web_font_size_px"},
	{"web_line_height_percent", "122", 122.0, "-1", "Invalid web_line_height_percent"},
	{"color_scheme", "2", 2.0, "4", "Invalid color_scheme"},
	{"default_language", "de", "de", "xx", "Invalid default_language"},
	{"web_home_view", "all_messages", "all_messages", "home", "Invalid web_home_view"},
	{"emojiset", "text", "text", "apple", "Invalid emojiset"},
	{"demote_inactive_streams", "3", 3.0, "0", "Invalid demote_inactive_streams"},
	{"user_list_style", "3", 3.0, "4", "Invalid user_list_style"},
	{"web_animate_image_previews", "never", "never", "sometimes", "Invalid web_animate_image_previews"},
	{"web_stream_unreads_count_display_policy", "3", 3.0, "4", "Invalid web_stream_unreads_count_display_policy"},
	{"notification_sound", "ding", "ding", "boing", "Invalid notification sound 'boing'"},
	{"email_notifications_batching_period_seconds", "300", 300.0, "0", "Invalid email batching period: 0 seconds"},
	{"desktop_icon_count_display", "4", 4.0, "5", "Invalid desktop_icon_count_display"},
	{"realm_name_in_email_notifications_policy", "3", 3.0, "4", "Invalid realm_name_in_email_notifications_policy"},
	{"automatically_follow_topics_policy", "1", 1.0, "5", "Invalid automatically_follow_topics_policy"},
	{"automatically_unmute_topics_in_muted_streams_policy", "4", 4.0, "0", "Invalid automatically_unmute_topics_in_muted_streams_policy"},
	{"email_address_visibility", "1", 1.0, "6", "Invalid email_address_visibility"},
	{"resolved_topic_notice_auto_read_policy", "never", "never", "sometimes", "Invalid resolved_topic_notice_auto_read_policy"},
	{"timezone", "Europe/Paris", "Europe/Paris", "Mars/Olympus", "timezone is not a recognized time zone"},
}

// settingCases is every setting of PATCH /settings: the table above, and
// each boolean set to the opposite of its current value (before) or sent
// as something that is no boolean.
func settingCases(t *testing.T, before map[string]any) []settingCase {
	cases := append([]settingCase{}, nonBoolSettingCases...)
	covered := map[string]bool{"timezone": true}
	for _, c := range nonBoolSettingCases {
		covered[c.name] = true
	}
	for _, d := range user.SettingDefs {
		if d.Kind != user.BoolSetting {
			if !covered[d.Name] {
				t.Fatalf("setting %s has no test case", d.Name)
			}
			continue
		}
		cur, ok := before[d.Name].(bool)
		if !ok {
			t.Fatalf("register's user_settings lacks %s", d.Name)
		}
		cases = append(cases, settingCase{d.Name, strconv.FormatBool(!cur), !cur, "maybe", d.Name + " is not a boolean"})
	}
	return cases
}

func TestHTTPUpdateEverySetting(t *testing.T) {
	e := newUsersEnv(t)
	const me = "hamlet@zulip.com"
	before := e.userSettings(me)
	for _, c := range settingCases(t, before) {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			prev := e.userSettings(me)
			status, body := e.patchSettings(me, url.Values{c.name: {c.invalid}})
			e.fail(status, body, 400, "BAD_REQUEST", c.msg)
			if after := e.userSettings(me); !reflect.DeepEqual(prev, after) {
				t.Fatalf("a refused value changed the settings: %v", after)
			}
			e.ok(e.patchSettings(me, url.Values{c.name: {c.valid}}))
			if got := e.userSettings(me)[c.name]; got != c.stored {
				t.Fatalf("%s = %v after sending %s, want %v", c.name, got, c.valid, c.stored)
			}
		})
	}
}

func TestHTTPSettingsTypeErrors(t *testing.T) {
	e := newUsersEnv(t)
	for _, c := range []struct{ name, value, msg string }{
		{"color_scheme", "dark", "color_scheme is not an integer"},
		{"web_font_size_px", "1.5", "web_font_size_px is not an integer"},
		{"enter_sends", "yes", "enter_sends is not a boolean"},
		{"target_users", "[1]", "target_users is not a dict"},
		{"target_users", "{", `Argument "target_users" is not valid JSON.`},
		{"target_users", `{"user_ids": [1, "x"]}`, `target_users["user_ids"] is not a list of integers`},
		{"target_users", `{"group_ids": null}`, `target_users["group_ids"] is not a list of integers`},
		{"target_users", `{"user_ids": [10], "skip_if_already_edited": 1}`, `target_users["skip_if_already_edited"] is not a boolean`},
		{"target_users", `{"user_ids": [10], "everyone": true}`, "Unexpected arguments: everyone"},
	} {
		status, body := e.patchSettings("iago@zulip.com", url.Values{c.name: {c.value}})
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
}

func TestHTTPSettingsSpellings(t *testing.T) {
	e := newUsersEnv(t)
	// A JSON-quoted string is read as the string.
	e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"emojiset": {`"twitter"`}}))
	if got := e.userSettings("hamlet@zulip.com")["emojiset"]; got != "twitter" {
		t.Fatalf("emojiset %v", got)
	}
	// Both names of the recent conversations view are taken; the spec's
	// is reported at this feature level.
	for _, v := range []string{"recent_topics", "recent"} {
		e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"web_home_view": {v}}))
		if got := e.userSettings("hamlet@zulip.com")["web_home_view"]; got != "recent" {
			t.Fatalf("web_home_view %v after %s", got, v)
		}
	}
	// Topic lists as the channel view exist from feature level 383.
	e.ok(e.patchSettings("hamlet@zulip.com", url.Values{"web_channel_default_view": {"3"}}))
	old := newAPIEnv(t, e.clock.Now(), realmFeatureLevel(382, "10.0"))
	status, body := old.patchSettings("hamlet@zulip.com", url.Values{"web_channel_default_view": {"3"}})
	old.fail(status, body, 400, "BAD_REQUEST", "Invalid web_channel_default_view")
	old.ok(old.patchSettings("hamlet@zulip.com", url.Values{"web_home_view": {"recent"}}))
	if got := old.userSettings("hamlet@zulip.com")["web_home_view"]; got != "recent_topics" {
		t.Fatalf("web_home_view below the spec's level: %v", got)
	}
}

func TestHTTPSettingsUnknownParametersAreIgnored(t *testing.T) {
	e := newUsersEnv(t)
	status, body := e.patchSettings("hamlet@zulip.com", url.Values{"dense_mode": {"false"}, "enter_sends": {"true"}, "bogus": {"1"}})
	body = e.success(status, body)
	if !reflect.DeepEqual(body["ignored_parameters_unsupported"], []any{"bogus", "dense_mode"}) {
		t.Fatalf("ignored %v", body["ignored_parameters_unsupported"])
	}
	if e.userSettings("hamlet@zulip.com")["enter_sends"] != true {
		t.Fatal("enter_sends not stored")
	}
	// The deprecated aliases are the same endpoint.
	e.ok(e.do("hamlet@zulip.com", "PATCH", "/settings/display", url.Values{"color_scheme": {"3"}}))
	e.ok(e.do("hamlet@zulip.com", "PATCH", "/settings/notifications", url.Values{"enable_sounds": {"false"}}))
	s := e.userSettings("hamlet@zulip.com")
	if s["color_scheme"] != 3.0 || s["enable_sounds"] != false {
		t.Fatalf("aliases: %v %v", s["color_scheme"], s["enable_sounds"])
	}
}

func TestHTTPSettingsRefuseBots(t *testing.T) {
	e := newUsersEnv(t)
	status, body := e.patchSettings("default-bot@zulip.com", url.Values{"enter_sends": {"true"}})
	e.fail(status, body, 400, "BAD_REQUEST", "This endpoint does not accept bot requests.")
}

func TestHTTPSettingsRejectedRequestChangesNothing(t *testing.T) {
	e := newUsersEnv(t)
	before := e.userSettings("hamlet@zulip.com")
	_, own := e.do("hamlet@zulip.com", "GET", "/users/me", nil)
	// Valid settings next to one bad value: none of them is applied.
	status, body := e.patchSettings("hamlet@zulip.com", url.Values{
		"full_name": {"Prince Hamlet"}, "enter_sends": {"true"}, "color_scheme": {"2"}, "timezone": {"Europe/Paris"},
		"emojiset": {"apple"},
	})
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid emojiset")
	if after := e.userSettings("hamlet@zulip.com"); !reflect.DeepEqual(before, after) {
		t.Fatalf("settings changed: %v", after)
	}
	if _, now := e.do("hamlet@zulip.com", "GET", "/users/me", nil); now["full_name"] != own["full_name"] || now["timezone"] != own["timezone"] {
		t.Fatalf("user changed: %v", now)
	}
}
