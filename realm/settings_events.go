package realm

import "reflect"

// apiValues maps the API name of each realm setting clients see to its
// value, as update_dict events send them.
func (s *Settings) apiValues() map[string]any {
	out := map[string]any{
		"name":                                        s.Name,
		"description":                                 s.Description,
		"allow_message_editing":                       s.AllowMessageEditing,
		"mandatory_topics":                            s.MandatoryTopics,
		"topics_policy":                               topicsPolicy(s.MandatoryTopics),
		"default_language":                            s.DefaultLanguage,
		"enable_spectator_access":                     s.EnableSpectatorAccess,
		"enable_read_receipts":                        s.EnableReadReceipts,
		"message_content_edit_limit_seconds":          limitValue(s.MessageContentEditLimitSeconds),
		"move_messages_within_stream_limit_seconds":   limitValue(s.MoveMessagesWithinStreamLimitSeconds),
		"move_messages_between_streams_limit_seconds": limitValue(s.MoveMessagesBetweenStreamsLimitSeconds),
		"message_content_delete_limit_seconds":        limitValue(s.MessageContentDeleteLimitSeconds),
		moderationRequestChannelProperty:              s.moderationRequestChannelValue(),
		signupAnnouncementsProperty:                   signupAnnouncements.value(s),
		newChannelAnnouncementsProperty:               newChannelAnnouncements.value(s),
		"emails_restricted_to_domains":                s.EmailsRestrictedToDomains,
		"disallow_disposable_email_addresses":         s.DisallowDisposableEmailAddresses,
		"email_changes_disabled":                      s.EmailChangesDisabled,
		"name_changes_disabled":                       s.NameChangesDisabled,
		"avatar_changes_disabled":                     s.AvatarChangesDisabled,
	}
	for _, g := range s.groupSettings() {
		out[g.name] = *g.id
	}
	out["jitsi_server_url"] = jitsiServerURLValue(s)
	out["enable_guest_user_indicator"] = s.EnableGuestUserIndicator
	out["enable_guest_user_dm_warning"] = s.EnableGuestUserDMWarning
	out["require_unique_names"] = s.RequireUniqueNames
	out["require_e2ee_push_notifications"] = s.RequireE2EEPushNotifications
	out["welcome_message_custom_text"] = s.WelcomeMessageCustomText
	out[editHistoryPolicyProperty] = s.EditHistoryPolicy
	out["allow_edit_history"] = allowEditHistory(s.EditHistoryPolicy)
	out["authentication_methods"] = s.AuthenticationMethods
	s.RealmProperties.apiValues(out)
	return out
}

// limitValue is a time limit as the API sends it: seconds or null.
func limitValue(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// RealmUpdateDictEvent reports changed realm settings in the update_dict
// form, which Zulip keeps for the settings realmSettingForms marks, for
// topics_policy and for group-valued settings.
type RealmUpdateDictEvent struct {
	Op       string         `json:"op"`
	Property string         `json:"property"`
	Data     map[string]any `json:"data"`
}

// RealmUpdateEvent reports one realm setting that changed, in the form
// Zulip sends for most single settings.
type RealmUpdateEvent struct {
	Op       string `json:"op"`
	Property string `json:"property"`
	Value    any    `json:"value"`
}

// realmSettingForms lists the realm settings clients are told about one
// by one, in the order Zulip's PATCH /realm announces them, and whether
// each takes the update_dict form. Zulip sends op "update" with
// property and value for a single setting (do_set_realm_property), but
// keeps allow_message_editing and message_content_edit_limit_seconds
// in their historical update_dict form; topics_policy and the
// group-valued settings, which follow these, are update_dict too.
var realmSettingForms = []struct {
	name string
	dict bool
}{
	{"name", false},
	{"description", false},
	{"emails_restricted_to_domains", false},
	{"disallow_disposable_email_addresses", false},
	{"invite_required", false},
	{"name_changes_disabled", false},
	{"email_changes_disabled", false},
	{"avatar_changes_disabled", false},
	{"inline_image_preview", false},
	{"inline_url_embed_preview", false},
	{"allow_message_editing", true},
	{"mandatory_topics", false},
	{"default_language", false},
	{"waiting_period_threshold", false},
	{"send_welcome_emails", false},
	{"digest_emails_enabled", false},
	{"message_content_allowed_in_email_notifications", false},
	{"video_chat_provider", false},
	{"giphy_rating", false},
	{"default_code_block_language", false},
	{"digest_weekday", false},
	{"org_type", false},
	{"enable_spectator_access", false},
	{"want_advertise_in_communities_directory", false},
	{"enable_read_receipts", false},
	{"message_retention_days", false},
	{"message_content_delete_limit_seconds", false},
	{"message_content_edit_limit_seconds", true},
	{"move_messages_within_stream_limit_seconds", false},
	{"move_messages_between_streams_limit_seconds", false},
	{"enable_guest_user_dm_warning", false},
	{"enable_guest_user_indicator", false},
	{"jitsi_server_url", true},
	{editHistoryPolicyProperty, false},
	{"require_e2ee_push_notifications", false},
	{"require_unique_names", false},
	{"welcome_message_custom_text", false},
}

// isTimeLimitSetting reports the four time-limit settings, which Zulip
// announces before the others when they become unlimited (null).
func isTimeLimitSetting(name string) bool {
	switch name {
	case "message_content_delete_limit_seconds", "message_content_edit_limit_seconds",
		"move_messages_within_stream_limit_seconds", "move_messages_between_streams_limit_seconds":
		return true
	}
	return false
}

// emitSettingsChange tells every active user which settings differ from
// before, one event per setting as Zulip does, each in Zulip's form for
// it (realmSettingForms). A mandatory_topics change is the update_dict
// of topics_policy and mandatory_topics from feature level 392 (which
// introduced topics_policy) on, an update of mandatory_topics below it.
// The moderation request channel comes last, from the level that has it.
func (r *Realm) emitSettingsChange(before map[string]any) {
	after := r.settings.apiValues()
	changed := func(name string) bool { return !reflect.DeepEqual(before[name], after[name]) }
	for name, v := range after {
		if g, ok := v.(GroupSetting); ok && changed(name) {
			// Sent as every group-setting value is (apiGroupSetting).
			after[name] = r.apiGroupSetting(g)
		}
	}
	to := r.activeUserIDs()
	announce := func(name string, dict bool) {
		if dict {
			r.emit("realm", RealmUpdateDictEvent{Op: "update_dict", Property: "default", Data: map[string]any{name: after[name]}}, to...)
			return
		}
		if name == editHistoryPolicyProperty && !r.has(ChangeEditHistoryPolicy) {
			// Below 358 the setting was the allow_edit_history boolean,
			// which "all" and "moves" both read as true.
			if changed("allow_edit_history") {
				r.emit("realm", RealmUpdateEvent{Op: "update", Property: "allow_edit_history", Value: after["allow_edit_history"]}, to...)
			}
			return
		}
		if name == "mandatory_topics" && r.has(ChangeTopicsPolicy) {
			data := map[string]any{"topics_policy": after["topics_policy"], "mandatory_topics": after["mandatory_topics"]}
			r.emit("realm", RealmUpdateDictEvent{Op: "update_dict", Property: "default", Data: data}, to...)
			return
		}
		r.emit("realm", RealmUpdateEvent{Op: "update", Property: name, Value: after[name]}, to...)
	}
	// Time limits turned off come first (Zulip sets them before the rest).
	for _, f := range realmSettingForms {
		if isTimeLimitSetting(f.name) && after[f.name] == nil && changed(f.name) {
			announce(f.name, f.dict)
		}
	}
	for _, f := range realmSettingForms {
		if changed(f.name) && !(isTimeLimitSetting(f.name) && after[f.name] == nil) {
			announce(f.name, f.dict)
		}
	}
	var s Settings
	for _, g := range s.groupSettings() {
		if g.name == "can_move_messages_between_topics_group" && changed(g.name) &&
			r.announceEditTopicPolicy(before[g.name], after[g.name], to) {
			continue
		}
		if changed(g.name) {
			announce(g.name, true)
		}
	}
	if changed("authentication_methods") {
		data := map[string]any{"authentication_methods": authMethodsValue(r.settings.AuthenticationMethods, r.has(changeAuthMethodsEventStates))}
		r.emit("realm", RealmUpdateDictEvent{Op: "update_dict", Property: "default", Data: data}, to...)
	}
	if changed(newChannelAnnouncementsProperty) {
		r.emit("realm", RealmUpdateEvent{Op: "update", Property: newChannelAnnouncements.name(r),
			Value: after[newChannelAnnouncementsProperty]}, to...)
	}
	if changed(signupAnnouncementsProperty) {
		r.emit("realm", RealmUpdateEvent{Op: "update", Property: signupAnnouncements.name(r),
			Value: after[signupAnnouncementsProperty]}, to...)
	}
	if changed(moderationRequestChannelProperty) && r.has(changeModerationRequestChannel) {
		announce(moderationRequestChannelProperty, false)
	}
}
