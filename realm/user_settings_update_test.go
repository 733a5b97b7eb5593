package realm

import (
	"testing"
)

func TestUpdateSettingsGoAPI(t *testing.T) {
	r := New()
	err := r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Settings: map[string]any{"dense_mode": true}})
	wantCode(t, err, CodeBadRequest, "Invalid setting: dense_mode")
	// Go values must be of the setting's kind.
	err = r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Settings: map[string]any{"color_scheme": "2"}})
	wantCode(t, err, CodeBadRequest, "color_scheme is not an integer")
	tz := "Asia/Tokyo"
	if err := r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Timezone: &tz,
		Settings: map[string]any{"color_scheme": 2, "translate_emoticons": true, "web_home_view": "recent"}}); err != nil {
		t.Fatal(err)
	}
	u := r.users.byID[idHamlet]
	if u.Settings.ColorScheme != 2 || !u.Settings.TranslateEmoticons || u.Settings.WebHomeView != "recent_topics" || u.Timezone != tz ||
		!u.EditedSettings["color_scheme"] || u.EditedSettings["emojiset"] {
		t.Fatalf("stored %+v %v", u.Settings, u.EditedSettings)
	}
	// A bot may not.
	err = r.As(r.users.byEmail["default-bot@zulip.com"].ID).UpdateSettings(bg, SettingsUpdate{})
	wantCode(t, err, CodeBadRequest, "This endpoint does not accept bot requests.")
}

// A time zone alias is stored as the zone it names, as Zulip sends it
// (zerver/lib/timezone.py canonicalize_timezone, from tzdata.zi's Link
// lines); a canonical name and an unknown one are as given or refused.
func TestUpdateSettingsCanonicalTimezone(t *testing.T) {
	r := New()
	for give, want := range map[string]string{"US/Pacific": "America/Los_Angeles", "Asia/Calcutta": "Asia/Kolkata",
		"UTC": "Etc/UTC", "Europe/Kiev": "Europe/Kyiv", "Europe/Paris": "Europe/Paris"} {
		tz := give
		if err := r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Timezone: &tz}); err != nil {
			t.Fatal(err)
		}
		if got := r.users.byID[idHamlet].Timezone; got != want {
			t.Errorf("timezone %q stored as %q, want %q", give, got, want)
		}
	}
	before := r.users.byID[idHamlet].Timezone
	bad := "Gondor/Minas_Tirith"
	wantCode(t, r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Timezone: &bad}), CodeBadRequest, "timezone is not a recognized time zone")
	if got := r.users.byID[idHamlet].Timezone; got != before {
		t.Errorf("a refused time zone left %q", got)
	}
}
