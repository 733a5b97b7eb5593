package realm

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/minizulip/minizulip/user"
)

// The mobile apps' push devices (Zulip's PushDeviceToken): the FCM and
// APNs tokens a user's phones register right after login. The realm has
// no push service, as a Zulip server without push credentials or bouncer;
// it keeps the devices and records the notifications it would have sent
// to them (push_notifications.go).

// PushDevice is one registered device of a user: a token of one kind,
// unique per user and kind.
type PushDevice struct {
	UserID int           `json:"user_id"`
	Kind   user.PushKind `json:"kind"`
	Token  string        `json:"token"`
	// AppID is the iOS app's ID, for APNs devices only.
	AppID string `json:"app_id,omitempty"`
	// Registered is when the token was first registered, on the realm's
	// clock.
	Registered time.Time `json:"registered"`
}

// pushTable holds the registered devices and the notifications recorded
// for them (plain values: copying the slices copies them).
type pushTable struct {
	devices []PushDevice       // in registration order
	sent    []PushNotification // the notifications recorded, oldest first
}

func (t *pushTable) clone() pushTable {
	return pushTable{devices: slices.Clone(t.devices), sent: slices.Clone(t.sent)}
}

// register fills the push_device section (feature level 406): no
// devices, as none can be registered for end-to-end encrypted push.
func (t *pushTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("push_device") && r.has(changePushDevices) {
		out.PushDevicesState = &PushDevicesState{PushDevices: map[string]PushDeviceStatus{}}
	}
}

// refuseBots is Zulip's human_users_only.
func refuseBots(me *user.User) error {
	if me.IsBot() {
		return BadRequest("This endpoint does not accept bot requests.")
	}
	return nil
}

// requiredParam is a required parameter's value, or Zulip's error for a
// parameter not sent.
func requiredParam(name string, v *string) (string, error) {
	if v == nil {
		return "", VariableMissing(name)
	}
	return *v, nil
}

// checkPushToken applies user.CheckPushToken, with Zulip's errors.
func checkPushToken(kind user.PushKind, token string) error {
	if err := user.CheckPushToken(kind, token); err != nil {
		var ve user.PushTokenError
		if errors.As(err, &ve) {
			return BadRequest("%s", string(ve))
		}
		return err
	}
	return nil
}

// defaultAPNsAppID is appid's default before it was required: Zulip's
// iOS app.
var defaultAPNsAppID = "org.zulip.Zulip"

// AddPushDevice answers POST /users/me/android_gcm_reg_id (kind FCM,
// appID unused) and POST /users/me/apns_device_token (kind APNs): token
// and, for APNs, appid, as sent (nil when not sent). Humans only; the
// checks run in Zulip's order (appid before token, then the token's own
// rules). Registering a token the user already has of that kind succeeds
// and changes nothing, its app ID included.
func (a *Actor) AddPushDevice(ctx context.Context, kind user.PushKind, token, appID *string) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if err := refuseBots(me); err != nil {
			return err
		}
		dev := PushDevice{UserID: me.ID, Kind: kind}
		if kind == user.PushAPNs {
			if appID == nil && !r.has(changeAPNsAppIDRequired) {
				// Before feature level 223 appid was optional, Zulip's
				// own app by default.
				appID = &defaultAPNsAppID
			}
			id, err := requiredParam("appid", appID)
			if err != nil {
				return err
			}
			if !user.ValidPushAppID(id) {
				return BadRequest("appid has invalid format")
			}
			dev.AppID = id
		}
		tok, err := requiredParam("token", token)
		if err != nil {
			return err
		}
		if err := checkPushToken(kind, tok); err != nil {
			return err
		}
		if r.pushDeviceIndex(me.ID, kind, tok) >= 0 {
			return nil
		}
		dev.Token, dev.Registered = tok, r.clock.Now()
		r.push.devices = append(r.push.devices, dev)
		return nil
	})
}

// RemovePushDevice answers DELETE /users/me/android_gcm_reg_id (kind
// FCM) and DELETE /users/me/apns_device_token (kind APNs): the token is
// checked as when added, then must be one of the user's devices of that
// kind.
func (a *Actor) RemovePushDevice(ctx context.Context, kind user.PushKind, token *string) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if err := refuseBots(me); err != nil {
			return err
		}
		tok, err := requiredParam("token", token)
		if err != nil {
			return err
		}
		if err := checkPushToken(kind, tok); err != nil {
			return err
		}
		i := r.pushDeviceIndex(me.ID, kind, tok)
		if i < 0 {
			return BadRequest("Token does not exist")
		}
		r.push.devices = slices.Delete(r.push.devices, i, i+1)
		return nil
	})
}

// pushDeviceIndex finds a user's device by kind and token, -1 when absent.
func (r *Realm) pushDeviceIndex(userID int, kind user.PushKind, token string) int {
	return slices.IndexFunc(r.push.devices, func(d PushDevice) bool {
		return d.UserID == userID && d.Kind == kind && d.Token == token
	})
}

// PushDevices lists the push devices registered by a user (every user's
// when userID is 0), in registration order, for tests.
func (r *Realm) PushDevices(userID int) []PushDevice {
	out := []PushDevice{}
	_ = r.view(func() error {
		for _, d := range r.push.devices {
			if userID == 0 || d.UserID == userID {
				out = append(out, d)
			}
		}
		return nil
	})
	return out
}
