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
		"emails_restricted_to_domains":                s.EmailsRestrictedToDomains,
		"disallow_disposable_email_addresses":         s.DisallowDisposableEmailAddresses,
		"email_changes_disabled":                      s.EmailChangesDisabled,
		"name_changes_disabled":                       s.NameChangesDisabled,
		"avatar_changes_disabled":                     s.AvatarChangesDisabled,
	}
	for _, g := range s.groupSettings() {
		out[g.name] = *g.id
	}
	return out
}

// limitValue is a time limit as the API sends it: seconds or null.
func limitValue(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// RealmUpdateDictEvent reports changed realm settings.
type RealmUpdateDictEvent struct {
	Op       string         `json:"op"`
	Property string         `json:"property"`
	Data     map[string]any `json:"data"`
}

// RealmUpdateEvent reports one realm setting that changed and has an
// event of its own (the moderation request channel).
type RealmUpdateEvent struct {
	Op       string `json:"op"`
	Property string `json:"property"`
	Value    any    `json:"value"`
}

// emitSettingsChange tells every active user which settings differ from
// before, in one update_dict event. topics_policy, which replaced
// mandatory_topics at feature level 392, is sent from that level on
// alongside it, as Zulip does.
func (r *Realm) emitSettingsChange(before map[string]any) {
	data := map[string]any{}
	for k, v := range r.settings.apiValues() {
		if !reflect.DeepEqual(before[k], v) {
			data[k] = v
		}
	}
	if r.opts.FeatureLevel < TopicsPolicyLevel {
		delete(data, "topics_policy")
	}
	// Channel-valued settings have an update event of their own, after
	// the others' (Zulip's do_set_realm_stream).
	channel, channelChanged := data[moderationRequestChannelProperty]
	delete(data, moderationRequestChannelProperty)
	if len(data) > 0 {
		r.emit("realm", RealmUpdateDictEvent{Op: "update_dict", Property: "default", Data: data}, r.activeUserIDs()...)
	}
	if channelChanged && r.opts.FeatureLevel >= moderationRequestChannelLevel {
		r.emit("realm", RealmUpdateEvent{Op: "update", Property: moderationRequestChannelProperty, Value: channel}, r.activeUserIDs()...)
	}
}
