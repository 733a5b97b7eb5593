package realm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/minizulip/minizulip/user"
)

// The error codes of the push-notification endpoints.
const (
	// CodeInvalidPushDeviceToken is a test notification aimed at a token
	// the user has not registered.
	CodeInvalidPushDeviceToken Code = "INVALID_PUSH_DEVICE_TOKEN"
	// CodePushServiceNotConfigured refuses an E2EE push registration on a
	// server without the push notification service (as this one).
	CodePushServiceNotConfigured Code = "PUSH_SERVICE_NOT_CONFIGURED"
	// CodeNoActivePushDevice is an E2EE test notification with no E2EE
	// device registered to receive it.
	CodeNoActivePushDevice Code = "NO_ACTIVE_PUSH_DEVICE"
)

// PushNotification is a push notification the realm would have sent to
// one device, recorded in its stead: the device and the payload Zulip
// builds for that kind of device.
type PushNotification struct {
	Device PushDevice `json:"device"`
	// Sent is when it was sent, on the realm's clock.
	Sent time.Time `json:"sent"`
	// Data is Zulip's payload: FCM's data, or the "zulip" dictionary
	// beside "aps" in an APNs notification.
	Data PushPayload `json:"data"`
	// Alert and Sound are the APNs notification's "aps" (APNs only).
	Alert PushAlert `json:"alert,omitzero"`
	Sound string    `json:"sound,omitempty"`
	// Priority is the FCM priority (FCM only).
	Priority string `json:"priority,omitempty"`
}

// PushPayload is the Zulip payload of a push notification (of a test
// notification: the fields common to all of them, and event).
type PushPayload struct {
	// Server is the server's host (Zulip's EXTERNAL_HOST).
	Server   string `json:"server"`
	RealmID  int    `json:"realm_id"`
	RealmURI string `json:"realm_uri"`
	// RealmURL is realm_uri's new name (feature level 257).
	RealmURL string `json:"realm_url,omitempty"`
	// RealmName came at feature level 234.
	RealmName string `json:"realm_name,omitempty"`
	UserID    int    `json:"user_id"`
	// Event is "test" for a test notification ("test-by-device-token"
	// before feature level 234).
	Event string `json:"event"`
	// Time is when an FCM notification was built, in Unix seconds (FCM
	// only).
	Time int64 `json:"time,omitempty"`
}

// PushAlert is the alert of an APNs notification.
type PushAlert struct {
	Title string `json:"title"`
	Body  string `json:"body"`
}

// SendTestPushNotification answers POST /mobile_push/test_notification:
// a test notification to the user's device with that token (of either
// kind), or, with no token, to every device of the user (none is no
// error). Humans only. The notifications are recorded
// (PushNotifications), APNs devices' first.
func (a *Actor) SendTestPushNotification(ctx context.Context, token *string) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if err := refuseBots(me); err != nil {
			return err
		}
		var devices []PushDevice
		for _, d := range r.push.devices {
			if d.UserID == me.ID && (token == nil || d.Token == *token) {
				devices = append(devices, d)
			}
		}
		if token != nil && len(devices) == 0 {
			return &Error{Code: CodeInvalidPushDeviceToken, Msg: "Device not recognized", Status: statusBadRequest}
		}
		now := r.clock.Now()
		for _, kind := range []user.PushKind{user.PushAPNs, user.PushFCM} {
			for _, d := range devices {
				if d.Kind == kind {
					r.push.sent = append(r.push.sent, r.testPushNotification(d, now))
				}
			}
		}
		return nil
	})
}

// testPushNotification is Zulip's test notification for a device.
func (r *Realm) testPushNotification(d PushDevice, now time.Time) PushNotification {
	p := PushPayload{Server: urlHost(r.opts.URL), RealmID: UploadRealmID, RealmURI: r.opts.URL,
		UserID: d.UserID, Event: "test-by-device-token"}
	if r.has(changeTestPushEvent) {
		p.Event, p.RealmName = "test", r.settings.Name
	}
	if r.has(changeRealmURL) {
		p.RealmURL = r.opts.URL
	}
	n := PushNotification{Device: d, Sent: now, Data: p}
	if d.Kind == user.PushFCM {
		n.Data.Time, n.Priority = now.Unix(), "high"
		return n
	}
	body := fmt.Sprintf("This is a test notification from %s.", r.opts.URL)
	if r.has(changeTestPushEvent) {
		body = fmt.Sprintf("This is a test notification from %s (%s).", r.settings.Name, r.opts.URL)
	}
	n.Alert, n.Sound = PushAlert{Title: "Test notification", Body: body}, "default"
	return n
}

// PushNotifications lists the push notifications recorded for a user's
// devices (every user's when userID is 0), oldest first, for tests.
func (r *Realm) PushNotifications(userID int) []PushNotification {
	out := []PushNotification{}
	_ = r.view(func() error {
		for _, n := range r.push.sent {
			if userID == 0 || n.Device.UserID == userID {
				out = append(out, n)
			}
		}
		return nil
	})
	return out
}

// E2EEPushRegistration is POST /mobile_push/register (feature level 406):
// the parameters as sent, nil when not sent.
type E2EEPushRegistration struct {
	TokenKind                 *string
	PushAccountID             *string // a JSON integer
	PushPublicKey             *string
	BouncerPublicKey          *string
	EncryptedPushRegistration *string
}

// RegisterE2EEPushDevice answers POST /mobile_push/register. Humans only;
// the parameters are checked in Zulip's order, then the registration is
// refused with PUSH_SERVICE_NOT_CONFIGURED, as by a server with no push
// notification service: there is none to register the device with.
func (a *Actor) RegisterE2EEPushDevice(ctx context.Context, req E2EEPushRegistration) error {
	return a.read(ctx, func(me *user.User) error {
		if err := refuseBots(me); err != nil {
			return err
		}
		kind, err := requiredParam("token_kind", req.TokenKind)
		if err != nil {
			return err
		}
		if kind != string(user.PushFCM) && kind != string(user.PushAPNs) {
			return BadRequest("Invalid token_kind: Value error, Not in the list of possible values")
		}
		if err := checkJSONIntParam("push_account_id", req.PushAccountID, true); err != nil {
			return err
		}
		for _, p := range []struct {
			name string
			v    *string
		}{
			{"push_public_key", req.PushPublicKey},
			{"bouncer_public_key", req.BouncerPublicKey},
			{"encrypted_push_registration", req.EncryptedPushRegistration},
		} {
			if _, err := requiredParam(p.name, p.v); err != nil {
				return err
			}
		}
		return &Error{Code: CodePushServiceNotConfigured, Msg: "Server is not configured to use push notification service.",
			Status: statusBadRequest}
	})
}

// SendE2EETestPushNotification answers POST
// /mobile_push/e2ee/test_notification (feature level 420) with an
// optional push_account_id (a JSON integer, nil when not sent). Humans
// only; as no E2EE device can be registered here, it is always
// NO_ACTIVE_PUSH_DEVICE.
func (a *Actor) SendE2EETestPushNotification(ctx context.Context, pushAccountID *string) error {
	return a.read(ctx, func(me *user.User) error {
		if err := refuseBots(me); err != nil {
			return err
		}
		if err := checkJSONIntParam("push_account_id", pushAccountID, false); err != nil {
			return err
		}
		return &Error{Code: CodeNoActivePushDevice, Msg: "No active registered push device", Status: statusBadRequest}
	})
}

// checkJSONIntParam checks a parameter Zulip reads as Json[int]: JSON
// text holding an integer.
func checkJSONIntParam(name string, raw *string, required bool) error {
	if raw == nil {
		if required {
			return VariableMissing(name)
		}
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(*raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || trailingJSON(dec) {
		return BadRequest("%s is not valid JSON", name)
	}
	n, ok := v.(json.Number)
	if !ok || strings.ContainsAny(string(n), ".eE") {
		return BadRequest("%s is not an integer", name)
	}
	return nil
}

// trailingJSON reports whether anything but whitespace follows the value
// the decoder read.
func trailingJSON(dec *json.Decoder) bool {
	var rest bytes.Buffer
	_, _ = rest.ReadFrom(dec.Buffered())
	return len(bytes.TrimSpace(rest.Bytes())) > 0
}

// PushDeviceStatus is the registration status of an E2EE push device, a
// value of register's push_devices.
type PushDeviceStatus struct {
	// Status is "active", "pending" or "failed".
	Status string `json:"status"`
	// ErrorCode is the error code of a failed registration.
	ErrorCode *string `json:"error_code"`
}

// PushDevicesState is the push_device section of POST /register (feature
// level 406): the user's E2EE push devices by push account ID, always
// none here, as none can be registered.
type PushDevicesState struct {
	PushDevices map[string]PushDeviceStatus `json:"push_devices"`
}
