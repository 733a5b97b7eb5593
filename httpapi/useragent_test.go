package httpapi

import (
	"net/http/httptest"
	"testing"
)

func TestUserAgentClient(t *testing.T) {
	for ua, want := range map[string]string{
		"ZulipInvalid":                    "ZulipInvalid",
		"ZulipInvalid/1.0":                "ZulipInvalid",
		"ZulipInvalid/1.0 (Linux)":        "ZulipInvalid",
		"ZulipInvalid (Linux)":            "ZulipInvalid",
		"ZulipInvalid Terminal":           "ZulipInvalid Terminal", // the name runs to the end
		"ZulipMobile/27.1 (Android 14)":   "ZulipMobile",
		"ZulipPython/0.9.0":               "ZulipPython",
		"":                                "",
		"Mozilla/5.0 (X11; Linux x86_64)": "Mozilla",
	} {
		if got := userAgentClient(ua); got != want {
			t.Errorf("%q: client %q, want %q", ua, got, want)
		}
	}
}

func TestClientName(t *testing.T) {
	for _, tc := range []struct {
		param, ua, path, want string
	}{
		{"", "ZulipMobile/27.1 (Android 14)", "/api/v1/messages", "ZulipMobile"},
		{" mybot ", "ZulipMobile/27.1", "/api/v1/messages", "mybot"},
		{"", "", "/api/v1/messages", "Unspecified"},
		{"", "Mozilla/5.0 (X11)", "/json/messages", "website"},
		{"", "ZulipDesktop/5.11 (Linux)", "/json/messages", "ZulipDesktop"},
		{"", "/1.0", "/api/v1/messages", "Unspecified"},
	} {
		req := httptest.NewRequest("POST", tc.path, nil)
		req.Header.Set("User-Agent", tc.ua)
		if got := clientName(tc.param, req); got != tc.want {
			t.Errorf("client=%q UA=%q on %s: %q, want %q", tc.param, tc.ua, tc.path, got, tc.want)
		}
	}
}

func TestServerSettingsIncompatibleFromUserAgent(t *testing.T) {
	ts := RunT(t)
	for ua, want := range map[string]bool{"ZulipInvalid/1.0 (Linux)": true, "ZulipInvalid Terminal": false, "ZulipMobile/27.1": false} {
		req := mustRequest("GET", ts.URL+"/api/v1/server_settings")
		req.Header.Set("User-Agent", ua)
		if _, body := rawDo(t, req); srvDecode(t, body)["is_incompatible"] != want {
			t.Errorf("%q: is_incompatible want %v: %s", ua, want, body)
		}
	}
}
