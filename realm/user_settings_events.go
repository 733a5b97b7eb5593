package realm

import "github.com/minizulip/minizulip/user"

// UserSettingsUpdateEvent is a user_settings event (op update): one
// personal setting changed, sent to the user's own queues.
type UserSettingsUpdateEvent struct {
	Op       string `json:"op"`
	Property string `json:"property"`
	Value    any    `json:"value"`
}

// UpdateGlobalNotificationsEvent is the legacy form of a notification
// setting change, for queues without the user_settings_object capability.
type UpdateGlobalNotificationsEvent struct {
	User             string `json:"user"`
	NotificationName string `json:"notification_name"`
	Setting          any    `json:"setting"`
}

// emitNotificationSetting tells u's queues that one of the notification
// settings Zulip had before feature level 89 changed: a user_settings
// event, and the legacy update_global_notifications event to queues that
// did not declare user_settings_object.
func (r *Realm) emitNotificationSetting(u *user.User, name string, value any) {
	r.emit("user_settings", UserSettingsUpdateEvent{Op: "update", Property: name, Value: value}, u.ID)
	r.emitChange(&change{typ: "update_global_notifications",
		payload: UpdateGlobalNotificationsEvent{User: r.apiEmail(u), NotificationName: name, Setting: value},
		filter:  func(q *Queue) bool { return !q.Config().opts.Capabilities.UserSettingsObject }}, []int{u.ID})
}
