package user

import "testing"

func TestSettingDefsReadAndWriteTheirField(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range SettingDefs {
		if seen[d.Name] {
			t.Fatalf("%s defined twice", d.Name)
		}
		seen[d.Name] = true
		s := DefaultSettings()
		before := s
		var v any
		switch d.Kind {
		case BoolSetting:
			v = !d.Get(&s).(bool)
		case IntSetting:
			v = 3
			if d.Get(&s).(int) == 3 {
				v = 2
			}
		case StringSetting:
			v = map[string]string{"default_language": "de", "web_home_view": "all_messages", "emojiset": "text",
				"web_animate_image_previews": "never", "notification_sound": "ding", "resolved_topic_notice_auto_read_policy": "never"}[d.Name]
		}
		if err := d.Check(v, 496); err != nil {
			t.Fatalf("%s: %v refused: %v", d.Name, v, err)
		}
		d.Set(&s, v)
		if d.Get(&s) != v || s == before {
			t.Fatalf("%s: set %v, read %v", d.Name, v, d.Get(&s))
		}
		// Exactly one field changed: no two settings share one.
		for _, other := range SettingDefs {
			if other.Name != d.Name && other.Get(&s) != other.Get(&before) {
				t.Fatalf("setting %s changed %s too", d.Name, other.Name)
			}
		}
	}
}

func TestSettingChecks(t *testing.T) {
	for _, c := range []struct {
		name  string
		value any
		level int
		msg   string // empty: accepted
	}{
		{"twenty_four_hour_time", 1, 496, "twenty_four_hour_time is not a boolean"},
		{"color_scheme", "1", 496, "color_scheme is not an integer"},
		{"emojiset", true, 496, "emojiset is not a string"},
		{"web_channel_default_view", 3, 382, "Invalid web_channel_default_view"},
		{"web_channel_default_view", 3, 383, ""},
		{"web_channel_default_view", 5, 496, "Invalid web_channel_default_view"},
		{"color_scheme", 0, 496, "Invalid color_scheme"},
		{"emojiset", "google-blob", 496, "Invalid emojiset"},
		{"web_home_view", "recent", 496, ""},
		{"web_home_view", "recent_topics", 496, ""},
		{"web_home_view", "home", 496, "Invalid web_home_view"},
		{"default_language", "xx", 496, "Invalid default_language"},
		{"notification_sound", "none", 496, ""},
		{"notification_sound", "boing", 496, "Invalid notification sound 'boing'"},
		{"email_notifications_batching_period_seconds", 0, 496, "Invalid email batching period: 0 seconds"},
		{"email_notifications_batching_period_seconds", 604800, 496, ""},
		{"email_notifications_batching_period_seconds", 604801, 496, "Invalid email batching period: 604801 seconds"},
		{"web_font_size_px", 0, 496, "Invalid web_font_size_px"},
		{"email_address_visibility", 6, 496, "Invalid email_address_visibility"},
	} {
		d, ok := LookupSetting(c.name)
		if !ok {
			t.Fatalf("no setting %s", c.name)
		}
		err := d.Check(c.value, c.level)
		if c.msg == "" && err != nil || c.msg != "" && (err == nil || err.Error() != c.msg) {
			t.Errorf("%s=%v at %d: got %v, want %q", c.name, c.value, c.level, err, c.msg)
		}
	}
	if _, ok := LookupSetting("dense_mode"); ok {
		t.Fatal("dense_mode is no setting any more")
	}
}

func TestWebHomeViewSpelling(t *testing.T) {
	d, _ := LookupSetting("web_home_view")
	s := DefaultSettings()
	d.Set(&s, "recent")
	if s.WebHomeView != "recent_topics" || WebHomeViewName(s.WebHomeView, 496) != "recent" ||
		WebHomeViewName(s.WebHomeView, 420) != "recent_topics" || WebHomeViewName("inbox", 496) != "inbox" {
		t.Fatalf("stored %q", s.WebHomeView)
	}
}

func TestValidTimezone(t *testing.T) {
	for name, want := range map[string]bool{"Europe/Paris": true, "UTC": true, "America/St_Johns": true,
		"": false, "Local": false, "Mars/Olympus": false, "../etc/passwd": false} {
		if ValidTimezone(name) != want {
			t.Errorf("%q: want %v", name, want)
		}
	}
}
