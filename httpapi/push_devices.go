package httpapi

import (
	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/user"
)

// pushDeviceRoutes are the endpoints the mobile apps call after login to
// register for push notifications.
func pushDeviceRoutes() []route {
	return []route{
		{method: "POST", path: "/users/me/android_gcm_reg_id", h: addPushDevice(user.PushFCM)},
		{method: "DELETE", path: "/users/me/android_gcm_reg_id", h: removePushDevice(user.PushFCM)},
		{method: "POST", path: "/users/me/apns_device_token", h: addPushDevice(user.PushAPNs)},
		{method: "DELETE", path: "/users/me/apns_device_token", h: removePushDevice(user.PushAPNs)},
		{method: "POST", path: "/mobile_push/test_notification", h: testPushNotification},
		{method: "POST", path: "/mobile_push/register", h: registerE2EEPushDevice},
		{method: "POST", path: "/mobile_push/e2ee/test_notification", h: testE2EEPushNotification},
	}
}

// addPushDevice is POST of a device token: token, and appid for APNs.
func addPushDevice(kind user.PushKind) func(c *call) (any, error) {
	return func(c *call) (any, error) {
		var appID *string
		if kind == user.PushAPNs {
			appID = c.p.optString("appid")
		}
		return nil, c.actor.AddPushDevice(c.ctx(), kind, c.p.optString("token"), appID)
	}
}

// removePushDevice is DELETE of a device token (token in the body).
func removePushDevice(kind user.PushKind) func(c *call) (any, error) {
	return func(c *call) (any, error) {
		return nil, c.actor.RemovePushDevice(c.ctx(), kind, c.p.optString("token"))
	}
}

func testPushNotification(c *call) (any, error) {
	return nil, c.actor.SendTestPushNotification(c.ctx(), c.p.optString("token"))
}

func registerE2EEPushDevice(c *call) (any, error) {
	return nil, c.actor.RegisterE2EEPushDevice(c.ctx(), realm.E2EEPushRegistration{
		TokenKind:                 c.p.optString("token_kind"),
		PushAccountID:             c.p.optString("push_account_id"),
		PushPublicKey:             c.p.optString("push_public_key"),
		BouncerPublicKey:          c.p.optString("bouncer_public_key"),
		EncryptedPushRegistration: c.p.optString("encrypted_push_registration"),
	})
}

func testE2EEPushNotification(c *call) (any, error) {
	return nil, c.actor.SendE2EETestPushNotification(c.ctx(), c.p.optString("push_account_id"))
}
