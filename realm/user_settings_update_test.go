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
