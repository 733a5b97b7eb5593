package realm

import "github.com/minizulip/minizulip/user"

// UserSettingsEvent reports one changed personal setting to its user.
type UserSettingsEvent struct {
	Op       string `json:"op"`
	Property string `json:"property"`
	Value    any    `json:"value"`
	// LanguageName is the English name of a new default_language.
	LanguageName string `json:"language_name,omitempty"`
}

// UpdateDisplaySettingsEvent is the legacy (before feature level 89)
// report of a changed display setting, for clients without the
// user_settings_object capability.
type UpdateDisplaySettingsEvent struct {
	User         string `json:"user"`
	SettingName  string `json:"setting_name"`
	Setting      any    `json:"setting"`
	LanguageName string `json:"language_name,omitempty"`
}

// UpdateGlobalNotificationsEvent is the legacy report of a changed
// notification setting, for clients without user_settings_object.
type UpdateGlobalNotificationsEvent struct {
	User             string `json:"user"`
	NotificationName string `json:"notification_name"`
	Setting          any    `json:"setting"`
}

// emitSettingEvent tells u's clients that a setting now has value: a
// user_settings event, and the legacy event of the setting's kind to the
// queues that did not declare user_settings_object.
func (r *Realm) emitSettingEvent(u *user.User, def user.SettingDef, value any) {
	var language string
	if def.Name == "default_language" {
		language, _ = user.LanguageName(value.(string))
	}
	value = r.settingToWire(def.Name, value)
	r.emit("user_settings", UserSettingsEvent{Op: "update", Property: def.Name, Value: value, LanguageName: language}, u.ID)
	legacyOnly := func(q *Queue) bool { return !q.Config().opts.Capabilities.UserSettingsObject }
	switch def.Legacy {
	case user.LegacyDisplay:
		r.emitChange(&change{typ: "update_display_settings", filter: legacyOnly, payload: UpdateDisplaySettingsEvent{
			User: r.apiEmail(u), SettingName: def.Name, Setting: value, LanguageName: language}}, []int{u.ID})
	case user.LegacyNotification:
		r.emitChange(&change{typ: "update_global_notifications", filter: legacyOnly, payload: UpdateGlobalNotificationsEvent{
			User: r.apiEmail(u), NotificationName: def.Name, Setting: value}}, []int{u.ID})
	}
}

// usersSeeingEmail is the set of active users who may see u's real address.
func (r *Realm) usersSeeingEmail(u *user.User) map[int]bool {
	out := map[int]bool{}
	for _, id := range r.activeUserIDs() {
		if r.canSeeDeliveryEmail(r.users.byID[id], u) {
			out[id] = true
		}
	}
	return out
}

// emitEmailVisibilityChange follows a change of u's email visibility, as
// Zulip does: delivery_email to those who now see it, null to those who no
// longer do, and, when the API address itself changed, new_email and the
// avatar (which clients computing Gravatar URLs must now fetch or compute)
// to everyone.
func (r *Realm) emitEmailVisibilityChange(u *user.User, beforeEmail string, beforeSeeing map[int]bool) {
	var gained, lost []int
	for _, id := range r.activeUserIDs() {
		now := r.canSeeDeliveryEmail(r.users.byID[id], u)
		switch {
		case now && !beforeSeeing[id]:
			gained = append(gained, id)
		case !now && beforeSeeing[id]:
			lost = append(lost, id)
		}
	}
	if gained != nil {
		r.emit("realm_user", RealmUserUpdateEvent{Op: "update", Person: map[string]any{"user_id": u.ID, "delivery_email": u.DeliveryEmail}}, gained...)
	}
	if lost != nil {
		r.emit("realm_user", RealmUserUpdateEvent{Op: "update", Person: map[string]any{"user_id": u.ID, "delivery_email": nil}}, lost...)
	}
	if r.apiEmail(u) != beforeEmail {
		r.emit("realm_user", RealmUserUpdateEvent{Op: "update", Person: map[string]any{"user_id": u.ID, "new_email": r.apiEmail(u)}},
			r.activeUserIDs()...)
		r.emitAvatarChange(u)
	}
}

// emitAvatarChange tells the realm u's avatar fields.
func (r *Realm) emitAvatarChange(u *user.User) {
	r.emit("realm_user", RealmUserUpdateEvent{Op: "update", Person: map[string]any{
		"user_id": u.ID, "avatar_url": u.AvatarURL, "avatar_source": u.AvatarSource,
		"avatar_url_medium": mediumAvatarURL(u), "avatar_version": u.AvatarVersion}}, r.activeUserIDs()...)
}

func (UserSettingsEvent) isEventPayload()              {}
func (UpdateDisplaySettingsEvent) isEventPayload()     {}
func (UpdateGlobalNotificationsEvent) isEventPayload() {}
