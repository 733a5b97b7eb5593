package realm

// Whether the realm's mobile push notifications work, as a Zulip server
// tracks it for its push bouncer: push_notifications_enabled and the
// time that is expected to end (push_notifications_enabled_end_timestamp,
// feature level 231). No API changes them; server administrators (here
// SetPushNotificationsEnabled, the control API's POST
// /minizulip/push_notifications_enabled, or a fixture) do.

// SetPushNotificationsEnabled sets whether push notifications work and
// when that is expected to end (nil: no end known), telling every active
// user of each value that changed with Zulip's realm update events.
func (r *Realm) SetPushNotificationsEnabled(enabled bool, endTimestamp *int64) error {
	if endTimestamp != nil && *endTimestamp < 0 {
		return BadRequest("end_timestamp must be a UNIX timestamp or null")
	}
	return r.update(func() error {
		s := &r.settings
		to := r.activeUserIDs()
		if s.PushNotificationsEnabled != enabled {
			s.PushNotificationsEnabled = enabled
			r.emit("realm", RealmUpdateEvent{Op: "update", Property: "push_notifications_enabled", Value: enabled}, to...)
		}
		if !equalTimestamps(s.PushNotificationsEnabledEnd, endTimestamp) {
			s.PushNotificationsEnabledEnd = nil
			var v any
			if endTimestamp != nil {
				s.PushNotificationsEnabledEnd, v = ptr(*endTimestamp), *endTimestamp
			}
			r.emit("realm", RealmUpdateEvent{Op: "update", Property: "push_notifications_enabled_end_timestamp", Value: v}, to...)
		}
		return nil
	})
}

func equalTimestamps(a, b *int64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}
