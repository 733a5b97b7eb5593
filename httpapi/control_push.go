package httpapi

import (
	"net/http"

	"github.com/minizulip/minizulip/realm"
)

// pushControlUser is the user a push inspection is limited to: the
// optional `user` parameter (an email), 0 (everyone) when absent.
func (s *Server) pushControlUser(p *params) (int, error) {
	email, ok := p.str("user")
	if !ok {
		return 0, nil
	}
	id, found := s.realm.UserIDByEmail(email)
	if !found {
		return 0, realm.BadRequest("No such user: %s", email)
	}
	return id, nil
}

// listPushDevices answers GET /minizulip/push_devices: the registered
// mobile push devices (realm.PushDevices), of one user with `user`.
func (s *Server) listPushDevices(_ *http.Request, p *params) (any, error) {
	id, err := s.pushControlUser(p)
	if err != nil {
		return nil, err
	}
	return map[string]any{"push_devices": s.realm.PushDevices(id)}, nil
}

// listPushNotifications answers GET /minizulip/push_notifications: the
// push notifications recorded in place of sending them
// (realm.PushNotifications), to one user's devices with `user`.
func (s *Server) listPushNotifications(_ *http.Request, p *params) (any, error) {
	id, err := s.pushControlUser(p)
	if err != nil {
		return nil, err
	}
	return map[string]any{"push_notifications": s.realm.PushNotifications(id)}, nil
}

// setPushNotificationsEnabled answers POST
// /minizulip/push_notifications_enabled: whether the realm's mobile push
// notifications work (`enabled`, JSON boolean, required) and when that is
// expected to end (`end_timestamp`, UNIX seconds or null; absent: null),
// as a Zulip server's administrators and push bouncer set them
// (realm.SetPushNotificationsEnabled). Users are told with realm events.
func (s *Server) setPushNotificationsEnabled(_ *http.Request, p *params) (any, error) {
	enabled, set, err := p.optBoolSet("enabled")
	if err != nil {
		return nil, err
	}
	if !set {
		return nil, realm.VariableMissing("enabled")
	}
	var end *int64
	if raw, ok := p.str("end_timestamp"); ok && !isJSONNull([]byte(raw)) {
		n, err := parseJSONInt(raw)
		if err != nil {
			return nil, realm.BadRequest("end_timestamp is not an integer")
		}
		v := int64(n)
		end = &v
	}
	return nil, s.realm.SetPushNotificationsEnabled(enabled, end)
}
