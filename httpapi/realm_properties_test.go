package httpapi

import (
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An owner changes every realm property in one PATCH /realm: the answer
// lists each as Zulip's does (strings as "updated"), every user gets one
// op "update" event per property, register sends the new values, and
// sending the same values again changes nothing, but for org_type, which
// Zulip answers and announces whenever it is sent.
func TestHTTPUpdateRealmProperties(t *testing.T) {
	e := newChanEnv(t)
	q, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["realm"]`}})
	form := url.Values{
		"default_code_block_language": {"python"}, "digest_emails_enabled": {"true"}, "digest_weekday": {"4"},
		"send_welcome_emails": {"false"}, "message_content_allowed_in_email_notifications": {"false"},
		"want_advertise_in_communities_directory": {"true"}, "giphy_rating": {"0"}, "invite_required": {"true"},
		"inline_image_preview": {"false"}, "inline_url_embed_preview": {"true"}, "video_chat_provider": {"0"},
		"waiting_period_threshold": {"3"}, "message_retention_days": {"30"}, "org_type": {"20"},
	}
	got := e.ok(e.patchRealm("desdemona@zulip.com", form))
	want := map[string]any{"result": "success", "msg": "",
		"default_code_block_language": "updated", "digest_emails_enabled": true, "digest_weekday": float64(4),
		"send_welcome_emails": false, "message_content_allowed_in_email_notifications": false,
		"want_advertise_in_communities_directory": true, "giphy_rating": float64(0), "invite_required": true,
		"inline_image_preview": false, "inline_url_embed_preview": true, "video_chat_provider": float64(0),
		"waiting_period_threshold": float64(3), "message_retention_days": float64(30), "org_type": float64(20),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("answer (-want +got):\n%s", diff)
	}
	wantData := map[string]any{
		"default_code_block_language": "python", "digest_emails_enabled": true, "digest_weekday": float64(4),
		"send_welcome_emails": false, "message_content_allowed_in_email_notifications": false,
		"want_advertise_in_communities_directory": true, "giphy_rating": float64(0), "invite_required": true,
		"inline_image_preview": false, "inline_url_embed_preview": true, "video_chat_provider": float64(0),
		"waiting_period_threshold": float64(3), "message_retention_days": float64(30), "org_type": float64(20),
	}
	evs := e.realmEvents("hamlet@zulip.com", q, -1)
	data, forms := mergedRealmSettings(t, evs)
	if diff := cmp.Diff(wantData, data); diff != "" {
		t.Fatalf("event data (-want +got):\n%s", diff)
	}
	for _, f := range forms {
		if f[:7] != "update:" {
			t.Errorf("event form %s, want op update with property and value", f)
		}
	}
	if len(forms) != len(wantData) {
		t.Errorf("%d events for %d properties: %v", len(forms), len(wantData), forms)
	}
	st := e.realmSection("othello@zulip.com")
	for key, v := range wantData {
		if got, ok := st["realm_"+key]; !ok || !cmp.Equal(got, v) {
			t.Errorf("register realm_%s = %v, want %v", key, got, v)
		}
	}
	last := int(evs[len(evs)-1]["id"].(float64))
	got = e.ok(e.patchRealm("desdemona@zulip.com", form))
	if diff := cmp.Diff(map[string]any{"result": "success", "msg": "", "org_type": float64(20)}, got); diff != "" {
		t.Fatalf("answer to the same values (-want +got):\n%s", diff)
	}
	_, forms = mergedRealmSettings(t, e.realmEvents("hamlet@zulip.com", q, last))
	if !cmp.Equal(forms, []string{"update:org_type"}) {
		t.Fatalf("events for the same values: %v", forms)
	}
	// "unlimited" keeps messages forever again (-1).
	got = e.ok(e.patchRealm("desdemona@zulip.com", url.Values{"message_retention_days": {`"unlimited"`}}))
	if got["message_retention_days"] != float64(-1) || e.realm.Settings().MessageRetentionDays != -1 {
		t.Fatalf("answer %v, stored %d", got, e.realm.Settings().MessageRetentionDays)
	}
}

// Bad values and callers without the role are refused with Zulip's
// answers, and a refused request changes nothing.
func TestHTTPUpdateRealmPropertiesRefused(t *testing.T) {
	e := newChanEnv(t)
	before := e.realm.Settings()
	for _, c := range []struct {
		email, name, value string
		code, msg          string
	}{
		{"hamlet@zulip.com", "digest_emails_enabled", "true", "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator"},
		{"hamlet@zulip.com", "digest_weekday", "9", "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator"},
		{"iago@zulip.com", "invite_required", "true", "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner"},
		{"iago@zulip.com", "waiting_period_threshold", "3", "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner"},
		{"iago@zulip.com", "message_retention_days", "30", "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner"},
		{"iago@zulip.com", "message_retention_days", `"forever"`, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner"},
		{"desdemona@zulip.com", "message_retention_days", "0", "REQUEST_VARIABLE_INVALID", "Bad value for 'message_retention_days': 0"},
		{"desdemona@zulip.com", "message_retention_days", `"forever"`, "REQUEST_VARIABLE_INVALID", "Bad value for 'message_retention_days': forever"},
		{"desdemona@zulip.com", "message_retention_days", "[]", "BAD_REQUEST", "message_retention_days is not an integer"},
		{"desdemona@zulip.com", "digest_weekday", "7", "BAD_REQUEST", "Invalid digest_weekday"},
		{"desdemona@zulip.com", "org_type", "11", "BAD_REQUEST", "Invalid org_type"},
		{"desdemona@zulip.com", "waiting_period_threshold", "-1", "BAD_REQUEST", "waiting_period_threshold is too small"},
		{"desdemona@zulip.com", "waiting_period_threshold", "soon", "BAD_REQUEST", "waiting_period_threshold is not an integer"},
		{"iago@zulip.com", "video_chat_provider", "3", "BAD_REQUEST", "Invalid video_chat_provider 3"},
		{"iago@zulip.com", "giphy_rating", "6", "BAD_REQUEST", "Invalid giphy_rating 6"},
		{"iago@zulip.com", "inline_image_preview", "maybe", "BAD_REQUEST", "inline_image_preview is not a boolean"},
		{"iago@zulip.com", "default_code_block_language", "py\x00", "BAD_REQUEST", "default_code_block_language must not contain null bytes"},
	} {
		status, body := e.patchRealm(c.email, url.Values{c.name: {c.value}})
		e.fail(status, body, 400, c.code, c.msg)
	}
	if diff := cmp.Diff(before, e.realm.Settings()); diff != "" {
		t.Fatalf("settings changed (-before +after):\n%s", diff)
	}
}
