package httpapi

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
)

// rejectingProvider is a Zoom whose service refuses every token.
type rejectingProvider struct{}

func (rejectingProvider) Name() string         { return realm.CallZoom }
func (rejectingProvider) NeedsUserToken() bool { return true }
func (rejectingProvider) CreateCall(context.Context, realm.CallRequest) (string, error) {
	return "", realm.ErrCallTokenInvalid
}

// failingProvider is a BigBlueButton that is down.
type failingProvider struct{}

func (failingProvider) Name() string         { return realm.CallBigBlueButton }
func (failingProvider) NeedsUserToken() bool { return false }
func (failingProvider) CreateCall(context.Context, realm.CallRequest) (string, error) {
	return "", errors.New("down")
}

func TestHTTPCallsWithoutProviders(t *testing.T) {
	e := newMsgEnv(t)
	st, body := e.do("hamlet@zulip.com", "POST", "/calls/zoom/create", nil)
	e.fail(st, body, 400, "BAD_REQUEST", "Zoom credentials have not been configured")
	st, body = e.do("hamlet@zulip.com", "GET", "/calls/bigbluebutton/create", url.Values{"meeting_name": {"m"}})
	e.fail(st, body, 400, "BAD_REQUEST", "BigBlueButton is not configured.")
	st, body = e.do("hamlet@zulip.com", "POST", "/calls/nextcloud_talk/create", nil)
	e.fail(st, body, 400, "BAD_REQUEST", "Nextcloud Talk is not configured.")
	_, reg := e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["video_calls","realm"]`}})
	if reg["has_zoom_token"] != false {
		t.Fatalf("has_zoom_token %v", reg["has_zoom_token"])
	}
	if p := reg["realm_available_video_chat_providers"].(map[string]any); len(p) != 2 || p["jitsi_meet"] == nil {
		t.Fatalf("providers %v", p)
	}
}

func TestHTTPZoomCallNeedsTheUsersToken(t *testing.T) {
	e := newAPIEnv(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		realm.WithCallProvider(realm.NewFakeCallProvider(realm.CallZoom, "https://zoom.example/j/")))
	hamlet, _ := e.realm.UserIDByEmail("hamlet@zulip.com")
	hq, reg := e.register("hamlet@zulip.com", url.Values{"event_types": {`["has_zoom_token"]`}, "fetch_event_types": {`["video_calls","realm"]`}})
	oq, _ := e.register("othello@zulip.com", url.Values{"event_types": {`["has_zoom_token"]`}})
	if reg["has_zoom_token"] != false {
		t.Fatalf("has_zoom_token before OAuth: %v", reg["has_zoom_token"])
	}
	if z := reg["realm_available_video_chat_providers"].(map[string]any)["zoom"].(map[string]any); z["id"] != 3.0 || z["name"] != "Zoom" {
		t.Fatalf("zoom provider entry %v", z)
	}
	st, body := e.do("hamlet@zulip.com", "POST", "/calls/zoom/create", nil)
	e.fail(st, body, 400, "INVALID_ZOOM_TOKEN", "Invalid Zoom access token")

	if err := e.realm.SetCallToken(hamlet, realm.CallZoom, true); err != nil {
		t.Fatal(err)
	}
	evs := e.events("hamlet@zulip.com", hq, -1, false)
	if len(evs) != 1 || evs[0].(map[string]any)["type"] != "has_zoom_token" || evs[0].(map[string]any)["value"] != true {
		t.Fatalf("hamlet's events %v", evs)
	}
	if evs := e.events("othello@zulip.com", oq, -1, false); len(evs) != 0 {
		t.Fatalf("othello got hamlet's token event: %v", evs)
	}
	_, reg = e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["video_calls"]`}})
	if reg["has_zoom_token"] != true {
		t.Fatalf("has_zoom_token after OAuth: %v", reg["has_zoom_token"])
	}
	st, body = e.do("hamlet@zulip.com", "POST", "/calls/zoom/create", nil)
	first := e.ok(st, body)["url"].(string)
	st, body = e.do("hamlet@zulip.com", "POST", "/calls/zoom/create", url.Values{"is_video_call": {"false"}})
	second := e.ok(st, body)["url"].(string)
	if !strings.HasPrefix(first, "https://zoom.example/j/") || first == second || !strings.HasSuffix(second, "?audio_only=true") {
		t.Fatalf("meeting URLs %q %q", first, second)
	}
	st, body = e.do("hamlet@zulip.com", "POST", "/calls/zoom/create", url.Values{"is_video_call": {"maybe"}})
	e.fail(st, body, 400, "BAD_REQUEST", "is_video_call is not a boolean")
	st, body = e.do("othello@zulip.com", "POST", "/calls/zoom/create", nil)
	e.fail(st, body, 400, "INVALID_ZOOM_TOKEN", "Invalid Zoom access token")
	st, body = e.do("", "POST", "/calls/zoom/create", nil)
	e.fail(st, body, 401, "UNAUTHORIZED", "Not logged in: API authentication or user session required")
	if err := e.realm.SetCallToken(hamlet, realm.CallBigBlueButton, true); err == nil {
		t.Fatal("a token for a provider not configured was accepted")
	}
	// Granting to everyone gives othello a token too.
	if err := e.realm.GrantCallTokensToAll(realm.CallZoom); err != nil {
		t.Fatal(err)
	}
	st, body = e.do("othello@zulip.com", "POST", "/calls/zoom/create", nil)
	e.ok(st, body)
}

func TestHTTPRejectedZoomTokenIsForgotten(t *testing.T) {
	e := newAPIEnv(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), realm.WithCallProvider(rejectingProvider{}))
	hamlet, _ := e.realm.UserIDByEmail("hamlet@zulip.com")
	_ = e.realm.SetCallToken(hamlet, realm.CallZoom, true)
	q, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["has_zoom_token"]`}})
	st, body := e.do("hamlet@zulip.com", "POST", "/calls/zoom/create", nil)
	e.fail(st, body, 400, "INVALID_ZOOM_TOKEN", "Invalid Zoom access token")
	evs := e.events("hamlet@zulip.com", q, -1, false)
	if len(evs) != 1 || evs[0].(map[string]any)["value"] != false {
		t.Fatalf("events %v", evs)
	}
	_, reg := e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["video_calls"]`}})
	if reg["has_zoom_token"] != false {
		t.Fatal("the rejected token is still held")
	}
}

func TestHTTPBigBlueButtonCall(t *testing.T) {
	e := newAPIEnv(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		realm.WithCallProvider(realm.NewFakeCallProvider(realm.CallBigBlueButton, "https://bbb.example/")))
	st, body := e.do("hamlet@zulip.com", "GET", "/calls/bigbluebutton/create", nil)
	e.fail(st, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'meeting_name' argument")
	st, body = e.do("hamlet@zulip.com", "GET", "/calls/bigbluebutton/create", url.Values{"meeting_name": {"standup"}})
	if u := e.ok(st, body)["url"].(string); !strings.HasPrefix(u, "https://bbb.example/") || strings.Contains(u, "?") {
		t.Fatalf("bbb url %q", u)
	}
	st, body = e.do("hamlet@zulip.com", "GET", "/calls/bigbluebutton/create", url.Values{"meeting_name": {"standup"}, "voice_only": {"true"}})
	if u := e.ok(st, body)["url"].(string); !strings.HasSuffix(u, "?voice_only=true") {
		t.Fatalf("voice-only url %q", u)
	}
	st, body = e.do("hamlet@zulip.com", "POST", "/calls/zoom/create", nil)
	e.fail(st, body, 400, "BAD_REQUEST", "Zoom credentials have not been configured")

	down := newAPIEnv(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), realm.WithCallProvider(failingProvider{}))
	st, body = down.do("hamlet@zulip.com", "GET", "/calls/bigbluebutton/create", url.Values{"meeting_name": {"m"}})
	down.fail(st, body, 400, "BAD_REQUEST", "Failed to create BigBlueButton call")
}
