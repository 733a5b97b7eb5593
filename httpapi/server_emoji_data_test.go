package httpapi

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The URL register advertises as server_emoji_data_url serves Zulip's
// code_to_names to anyone (zulip-flutter fetches it, unauthenticated, for
// its emoji picker and autocomplete): codes without fe0f, the canonical
// name first, then the aliases.
func TestHTTPServerEmojiData(t *testing.T) {
	e := newMsgEnv(t)
	_, reg := e.register("hamlet@zulip.com", nil)
	u, _ := reg["server_emoji_data_url"].(string)
	parsed, err := url.Parse(u)
	if err != nil || !strings.HasPrefix(u, "http") || parsed.Path != "/static/generated/emoji/emoji_api.json" {
		t.Fatalf("server_emoji_data_url %q", u)
	}
	path := parsed.Path
	status, ctype, body := e.fetchPath(path)
	if status != 200 || ctype != "application/json" {
		t.Fatalf("GET %s: %d %q %s", path, status, ctype, body)
	}
	var got struct {
		CodeToNames map[string][]string `json:"code_to_names"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	for code, want := range map[string][]string{
		"1f642":           {"smile"},
		"1f604":           {"big_smile"},
		"2764":            {"heart", "love", "love_you"},
		"1f3cb-200d-2640": {"woman_lifting_weights"},
		"2764-200d-1f525": {"heart_on_fire", "burn", "lust", "sacred_heart"},
	} {
		if diff := cmp.Diff(want, got.CodeToNames[code]); diff != "" {
			t.Errorf("code_to_names[%s] (-want +got):\n%s", code, diff)
		}
	}
	for code := range got.CodeToNames {
		if strings.Contains(code, "fe0f") {
			t.Errorf("code %s keeps the presentation selector", code)
		}
	}
	if len(got.CodeToNames) < 1500 {
		t.Errorf("only %d emoji", len(got.CodeToNames))
	}
}
