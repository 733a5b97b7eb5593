package httpapi

import (
	"net/url"
	"strings"
	"testing"
)

// The device-token endpoints as the mobile apps call them: form-encoded
// POSTs, and DELETEs with the token in a form body.
func TestHTTPPushDevices(t *testing.T) {
	e := newCtlEnv(t)
	const hamlet, bot = "hamlet@zulip.com", "default-bot@zulip.com"
	apns := url.Values{"token": {"c0ffee"}, "appid": {"org.zulip.Zulip"}}
	fcm := url.Values{"token": {"android-token"}}
	e.ok(e.do(hamlet, "POST", "/users/me/android_gcm_reg_id", fcm))
	e.ok(e.do(hamlet, "POST", "/users/me/apns_device_token", apns))
	// Again: success, nothing changes.
	e.ok(e.do(hamlet, "POST", "/users/me/apns_device_token", url.Values{"token": {"c0ffee"}, "appid": {"org.zulip.Other"}}))
	// appid is not a parameter of the FCM endpoint.
	body := e.success(e.do(hamlet, "POST", "/users/me/android_gcm_reg_id", url.Values{"token": {"android-token"}, "appid": {"x"}}))
	if ign, _ := body["ignored_parameters_unsupported"].([]any); len(ign) != 1 || ign[0] != "appid" {
		t.Fatalf("ignored %v", body)
	}
	devices := e.realm.PushDevices(0)
	if len(devices) != 2 || devices[0].Token != "android-token" || devices[1].AppID != "org.zulip.Zulip" {
		t.Fatalf("devices %+v", devices)
	}
	long := strings.Repeat("a", 4097)
	for _, c := range []struct {
		email, method, path string
		form                url.Values
		code, msg           string
	}{
		{bot, "POST", "/users/me/android_gcm_reg_id", fcm, "BAD_REQUEST", "This endpoint does not accept bot requests."},
		{bot, "POST", "/users/me/apns_device_token", nil, "BAD_REQUEST", "This endpoint does not accept bot requests."},
		{bot, "DELETE", "/users/me/apns_device_token", nil, "BAD_REQUEST", "This endpoint does not accept bot requests."},
		{hamlet, "POST", "/users/me/android_gcm_reg_id", nil, "REQUEST_VARIABLE_MISSING", "Missing 'token' argument"},
		{hamlet, "POST", "/users/me/apns_device_token", url.Values{"token": {"c0ffee"}}, "REQUEST_VARIABLE_MISSING", "Missing 'appid' argument"},
		{hamlet, "POST", "/users/me/apns_device_token", url.Values{"token": {"c0ffee"}, "appid": {"'; tables --"}}, "BAD_REQUEST", "appid has invalid format"},
		{hamlet, "POST", "/users/me/android_gcm_reg_id", url.Values{"token": {long}}, "BAD_REQUEST", "Empty or invalid length token"},
		{hamlet, "POST", "/users/me/apns_device_token", url.Values{"token": {"xyz"}, "appid": {"org.zulip.Zulip"}}, "BAD_REQUEST", "Invalid APNS token"},
		{hamlet, "DELETE", "/users/me/android_gcm_reg_id", url.Values{"token": {""}}, "BAD_REQUEST", "Empty or invalid length token"},
		{hamlet, "DELETE", "/users/me/apns_device_token", url.Values{"token": {"abcd1234"}}, "BAD_REQUEST", "Token does not exist"},
		{hamlet, "DELETE", "/users/me/apns_device_token", nil, "REQUEST_VARIABLE_MISSING", "Missing 'token' argument"},
		// the kind must match
		{hamlet, "DELETE", "/users/me/android_gcm_reg_id", url.Values{"token": {"c0ffee"}}, "BAD_REQUEST", "Token does not exist"},
		// and the device be the user's
		{"iago@zulip.com", "DELETE", "/users/me/android_gcm_reg_id", fcm, "BAD_REQUEST", "Token does not exist"},
	} {
		status, body := e.do(c.email, c.method, c.path, c.form)
		e.fail(status, body, 400, c.code, c.msg)
	}
	if got := e.realm.PushDevices(0); len(got) != 2 {
		t.Fatalf("a refusal changed the devices: %+v", got)
	}
	// The control API lists them.
	list := e.ok(e.ctl("GET", "/minizulip/push_devices", url.Values{"user": {hamlet}}))["push_devices"].([]any)
	if d := list[1].(map[string]any); len(list) != 2 || d["kind"] != "apns" || d["token"] != "c0ffee" || d["app_id"] != "org.zulip.Zulip" ||
		d["user_id"] != float64(10) || d["registered"] != "2026-09-01T12:00:00Z" {
		t.Fatalf("control list %v", list)
	}
	if list := e.ok(e.ctl("GET", "/minizulip/push_devices", url.Values{"user": {"iago@zulip.com"}}))["push_devices"].([]any); len(list) != 0 {
		t.Fatalf("iago's devices %v", list)
	}
	status, body := e.ctl("GET", "/minizulip/push_devices", url.Values{"user": {"nobody@zulip.com"}})
	e.fail(status, body, 400, "BAD_REQUEST", "No such user: nobody@zulip.com")
	// Removal with the token in a DELETE body.
	e.ok(e.do(hamlet, "DELETE", "/users/me/android_gcm_reg_id", fcm))
	e.ok(e.do(hamlet, "DELETE", "/users/me/apns_device_token", url.Values{"token": {"c0ffee"}}))
	if list := e.ok(e.ctl("GET", "/minizulip/push_devices", nil))["push_devices"].([]any); len(list) != 0 {
		t.Fatalf("devices left %v", list)
	}
}

func TestHTTPTestPushNotification(t *testing.T) {
	e := newCtlEnv(t)
	const hamlet = "hamlet@zulip.com"
	// No device: success.
	e.ok(e.do(hamlet, "POST", "/mobile_push/test_notification", nil))
	e.ok(e.do(hamlet, "POST", "/users/me/android_gcm_reg_id", url.Values{"token": {"android-token"}}))
	e.ok(e.do(hamlet, "POST", "/users/me/apns_device_token", url.Values{"token": {"c0ffee"}, "appid": {"org.zulip.Zulip"}}))
	e.ok(e.do("iago@zulip.com", "POST", "/users/me/android_gcm_reg_id", url.Values{"token": {"iago-token"}}))
	status, body := e.do(hamlet, "POST", "/mobile_push/test_notification", url.Values{"token": {"iago-token"}})
	e.fail(status, body, 400, "INVALID_PUSH_DEVICE_TOKEN", "Device not recognized")
	status, body = e.do("default-bot@zulip.com", "POST", "/mobile_push/test_notification", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "This endpoint does not accept bot requests.")
	e.ok(e.do(hamlet, "POST", "/mobile_push/test_notification", url.Values{"token": {"android-token"}}))
	e.ok(e.do(hamlet, "POST", "/mobile_push/test_notification", nil))
	sent := e.ok(e.ctl("GET", "/minizulip/push_notifications", nil))["push_notifications"].([]any)
	if len(sent) != 3 {
		t.Fatalf("sent %v", sent)
	}
	fcm, apns := sent[0].(map[string]any), sent[1].(map[string]any)
	data := fcm["data"].(map[string]any)
	if fcm["device"].(map[string]any)["token"] != "android-token" || fcm["priority"] != "high" || data["event"] != "test" ||
		data["user_id"] != float64(10) || data["realm_url"] != "http://localhost:9991" || data["realm_uri"] != "http://localhost:9991" ||
		data["server"] != "localhost:9991" || data["realm_id"] != float64(2) || data["time"] != float64(ctlStart.Unix()) {
		t.Fatalf("fcm %v", fcm)
	}
	alert := apns["alert"].(map[string]any)
	if apns["device"].(map[string]any)["kind"] != "apns" || alert["title"] != "Test notification" || apns["sound"] != "default" ||
		!strings.HasPrefix(alert["body"].(string), "This is a test notification from ") || apns["data"].(map[string]any)["time"] != nil {
		t.Fatalf("apns %v", apns)
	}
	if got := e.ok(e.ctl("GET", "/minizulip/push_notifications", url.Values{"user": {"iago@zulip.com"}}))["push_notifications"].([]any); len(got) != 0 {
		t.Fatalf("iago's %v", got)
	}
	status, body = e.ctl("GET", "/minizulip/push_notifications", url.Values{"token": {"x"}})
	e.wantError(status, body, 400, "BAD_REQUEST", "")
}

func TestHTTPE2EEPushEndpoints(t *testing.T) {
	e := newCtlEnv(t)
	const hamlet = "hamlet@zulip.com"
	reg := url.Values{"token_kind": {"fcm"}, "push_account_id": {"2408"}, "push_public_key": {"push-public-key"},
		"bouncer_public_key": {"bouncer-public-key"}, "encrypted_push_registration": {"encrypted-push-registration-data"}}
	status, body := e.do(hamlet, "POST", "/mobile_push/register", reg)
	e.fail(status, body, 400, "PUSH_SERVICE_NOT_CONFIGURED", "Server is not configured to use push notification service.")
	partial := url.Values{"token_kind": {"fcm"}, "push_account_id": {"2408"}}
	status, body = e.do(hamlet, "POST", "/mobile_push/register", partial)
	e.fail(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'push_public_key' argument")
	status, body = e.do(hamlet, "POST", "/mobile_push/register", url.Values{"token_kind": {"xyz"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid token_kind: Value error, Not in the list of possible values")
	status, body = e.do("default-bot@zulip.com", "POST", "/mobile_push/register", reg)
	e.fail(status, body, 400, "BAD_REQUEST", "This endpoint does not accept bot requests.")
	status, body = e.do(hamlet, "POST", "/mobile_push/e2ee/test_notification", nil)
	e.fail(status, body, 400, "NO_ACTIVE_PUSH_DEVICE", "No active registered push device")
	status, body = e.do(hamlet, "POST", "/mobile_push/e2ee/test_notification", url.Values{"push_account_id": {"2408"}})
	e.fail(status, body, 400, "NO_ACTIVE_PUSH_DEVICE", "No active registered push device")
	status, body = e.do(hamlet, "POST", "/mobile_push/e2ee/test_notification", url.Values{"push_account_id": {"abc"}})
	e.fail(status, body, 400, "BAD_REQUEST", "push_account_id is not valid JSON")
	// Register: push_devices is an empty object.
	_, state := e.register(hamlet, url.Values{"fetch_event_types": {`["push_device"]`}})
	if pd, ok := state["push_devices"].(map[string]any); !ok || len(pd) != 0 {
		t.Fatalf("register %v", state)
	}
}
