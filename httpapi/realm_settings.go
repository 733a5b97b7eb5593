package httpapi

import (
	"bytes"
	"encoding/json"

	"github.com/minizulip/minizulip/realm"
)

func realmSettingsRoutes() []route {
	return []route{
		{method: "PATCH", path: "/realm", h: updateRealm},
	}
}

// updateRealm is PATCH /realm. Parameters Zulip's update_realm takes but
// the realm does not keep (bot_creation_policy, string_id, …) go
// unread, and so come back in ignored_parameters_unsupported. As on
// Zulip, a caller who is no administrator hears that before any complaint
// about the parameters.
func updateRealm(c *call) (any, error) {
	req, err := realmUpdateParams(c)
	if err != nil {
		if adminErr := c.actor.CheckRealmAdmin(c.ctx()); adminErr != nil {
			return nil, adminErr
		}
		return nil, err
	}
	return c.actor.UpdateRealm(c.ctx(), req)
}

// realmUpdateParams reads PATCH /realm's parameters.
func realmUpdateParams(c *call) (realm.RealmUpdate, error) {
	var req realm.RealmUpdate
	for _, f := range []struct {
		name string
		dst  **string
	}{
		{"name", &req.Name}, {"description", &req.Description}, {"default_language", &req.DefaultLanguage},
	} {
		if v, ok := c.p.str(f.name); ok {
			*f.dst = &v
		}
	}
	bools := []struct {
		name string
		dst  **bool
	}{
		{"allow_message_editing", &req.AllowMessageEditing}, {"enable_spectator_access", &req.EnableSpectatorAccess},
		{"enable_read_receipts", &req.EnableReadReceipts},
		{"emails_restricted_to_domains", &req.EmailsRestrictedToDomains},
		{"disallow_disposable_email_addresses", &req.DisallowDisposableEmailAddresses},
		{"email_changes_disabled", &req.EmailChangesDisabled}, {"name_changes_disabled", &req.NameChangesDisabled},
		{"avatar_changes_disabled", &req.AvatarChangesDisabled},
	}
	if c.actor.Realm().Has(realm.ChangeTopicsPolicy) {
		if v, ok := c.p.str("topics_policy"); ok {
			req.TopicsPolicy = &v
		}
	} else {
		bools = append(bools, struct {
			name string
			dst  **bool
		}{"mandatory_topics", &req.MandatoryTopics})
	}
	for _, f := range []struct {
		name string
		dst  **bool
	}{
		{"enable_guest_user_indicator", &req.EnableGuestUserIndicator},
		{"enable_guest_user_dm_warning", &req.EnableGuestUserDMWarning},
		{"require_unique_names", &req.RequireUniqueNames},
		{"require_e2ee_push_notifications", &req.RequireE2EEPushNotifications},
	} {
		if c.actor.Realm().HasRealmSetting(f.name) {
			bools = append(bools, f)
		}
	}
	if c.actor.Realm().Has(realm.ChangeEditHistoryPolicy) {
		if v, ok := c.p.str("message_edit_history_visibility_policy"); ok {
			req.EditHistoryPolicy = &v
		}
	} else {
		bools = append(bools, struct {
			name string
			dst  **bool
		}{"allow_edit_history", &req.AllowEditHistory})
	}
	if c.actor.Realm().HasRealmSetting("welcome_message_custom_text") {
		if v, ok := c.p.str("welcome_message_custom_text"); ok {
			req.WelcomeMessageCustomText = &v
		}
	}
	if c.actor.Realm().HasRealmSetting("jitsi_server_url") {
		v, err := jsonStringParam(c, "jitsi_server_url")
		if err != nil {
			return req, err
		}
		req.JitsiServerURL = v
	}
	for _, f := range bools {
		v, set, err := c.p.optBoolSet(f.name)
		if err != nil {
			return req, err
		}
		if set {
			*f.dst = &v
		}
	}
	signups, newChannels := "signup_announcements_stream_id", "new_stream_announcements_stream_id"
	if !c.actor.Realm().Has(realm.ChangeAnnouncementsRename) {
		signups, newChannels = "signup_notifications_stream_id", "notifications_stream_id"
	}
	if v, set, err := c.p.optInt(newChannels); err != nil {
		return req, err
	} else if set {
		req.NewStreamAnnouncementsStreamID = &v
	}
	if v, set, err := c.p.optInt(signups); err != nil {
		return req, err
	} else if set {
		req.SignupAnnouncementsStreamID = &v
	}
	if v, set, err := c.p.optInt("moderation_request_channel_id"); err != nil {
		return req, err
	} else if set {
		req.ModerationRequestChannelID = &v
	}
	for _, f := range []struct {
		name string
		dst  **realm.TimeLimit
	}{
		{"message_content_delete_limit_seconds", &req.MessageContentDeleteLimitSeconds},
		{"message_content_edit_limit_seconds", &req.MessageContentEditLimitSeconds},
		{"move_messages_within_stream_limit_seconds", &req.MoveMessagesWithinStreamLimitSeconds},
		{"move_messages_between_streams_limit_seconds", &req.MoveMessagesBetweenStreamsLimitSeconds},
	} {
		v, err := timeLimitParam(c, f.name)
		if err != nil {
			return req, err
		}
		*f.dst = v
	}
	if err := realmPropertiesParams(c, &req.RealmPropertiesUpdate); err != nil {
		return req, err
	}
	if methods, err := authMethodsParam(c); err != nil {
		return req, err
	} else if methods != nil {
		req.AuthenticationMethods = methods
	}
	for _, name := range realm.RealmGroupSettingNames() {
		change, ok, err := groupSettingChangeParam(c, name)
		if err != nil {
			return req, err
		}
		if ok {
			if req.GroupSettings == nil {
				req.GroupSettings = map[string]realm.GroupSettingChange{}
			}
			req.GroupSettings[name] = change
		}
	}
	return req, nil
}

// timeLimitParam reads a time-limit setting as Zulip does: JSON, an
// integer number of seconds (the realm checks it is positive) or the
// string "unlimited"; another string is REQUEST_VARIABLE_INVALID.
func timeLimitParam(c *call, name string) (*realm.TimeLimit, error) {
	n, s, set, err := intOrStringParam(c, name)
	switch {
	case err != nil || !set:
		return nil, err
	case s == nil:
		return &realm.TimeLimit{Seconds: n}, nil
	case *s != "unlimited":
		return nil, realm.VariableInvalid(name, *s)
	}
	return &realm.TimeLimit{Unlimited: true}, nil
}

// intOrStringParam reads a parameter Zulip takes as JSON, an integer or
// a string: n when an integer, s when a string; set is false when absent.
// Anything else (null included) is "not an integer".
func intOrStringParam(c *call, name string) (n int, s *string, set bool, err error) {
	raw, ok := c.p.str(name)
	if !ok {
		return 0, nil, false, nil
	}
	if !json.Valid([]byte(raw)) {
		return 0, nil, false, realm.BadRequest("Argument \"%s\" is not valid JSON.", name)
	}
	if isJSONNull([]byte(raw)) {
		return 0, nil, false, realm.BadRequest("%s is not an integer", name)
	}
	if json.Unmarshal([]byte(raw), &n) == nil {
		return n, nil, true, nil
	}
	var str string
	if json.Unmarshal([]byte(raw), &str) != nil {
		return 0, nil, false, realm.BadRequest("%s is not an integer", name)
	}
	return 0, &str, true, nil
}

// jsonStringParam reads a parameter Zulip takes as a JSON string.
func jsonStringParam(c *call, name string) (*string, error) {
	raw, ok := c.p.str(name)
	if !ok {
		return nil, nil
	}
	if !json.Valid([]byte(raw)) {
		return nil, realm.BadRequest("Argument \"%s\" is not valid JSON.", name)
	}
	var v string
	if json.Unmarshal([]byte(raw), &v) != nil || isJSONNull([]byte(raw)) {
		return nil, realm.BadRequest("%s is not a string", name)
	}
	return &v, nil
}

func isJSONNull(b []byte) bool { return bytes.Equal(bytes.TrimSpace(b), []byte("null")) }

// groupSettingValue decodes one group-setting value. No group has ID 0,
// which GroupSetting would read as an empty anonymous group: it becomes
// -1, an ID equally unknown.
func groupSettingValue(raw json.RawMessage) (realm.GroupSetting, error) {
	var v realm.GroupSetting
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, err
	}
	var id int
	if json.Unmarshal(raw, &id) == nil && id == 0 {
		v.GroupID = -1
	}
	return v, nil
}

// groupIDParam reads a group setting that a server of the realm's level
// took as a plain group ID, as a change to it.
func groupIDParam(c *call, name string) (realm.GroupSettingChange, bool, error) {
	raw, ok := c.p.str(name)
	if !ok {
		return realm.GroupSettingChange{}, false, nil
	}
	id, err := parseJSONInt(raw)
	if err != nil {
		return realm.GroupSettingChange{}, false, realm.BadRequest("%s is not an integer", name)
	}
	return realm.GroupSettingChange{New: realm.NamedGroupSetting(id)}, true, nil
}

// groupSettingChangeParam reads a group-valued setting as PATCH /realm
// takes it: a JSON object {"new": value, "old": value}, "old" optional,
// each value a group ID or {"direct_members": [...], "direct_subgroups":
// [...]}.
func groupSettingChangeParam(c *call, name string) (realm.GroupSettingChange, bool, error) {
	var change realm.GroupSettingChange
	raw, ok := c.p.str(name)
	if !ok {
		return change, false, nil
	}
	if !json.Valid([]byte(raw)) {
		return change, false, realm.BadRequest("Argument \"%s\" is not valid JSON.", name)
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(raw), &obj) != nil || obj == nil {
		return change, false, realm.BadRequest("%s is not a dict", name)
	}
	newRaw, ok := obj["new"]
	if !ok {
		return change, false, realm.BadRequest("%s[\"new\"] is missing", name)
	}
	var err error
	if change.New, err = groupSettingValue(newRaw); err != nil {
		return change, false, realm.BadRequest("%s[\"new\"] is not an integer or a dict of direct members and subgroups", name)
	}
	if oldRaw, ok := obj["old"]; ok && !isJSONNull(oldRaw) {
		old, err := groupSettingValue(oldRaw)
		if err != nil {
			return change, false, realm.BadRequest("%s[\"old\"] is not an integer or a dict of direct members and subgroups", name)
		}
		change.Old = &old
	}
	return change, true, nil
}

// authMethodsParam reads authentication_methods, a JSON object of
// booleans by method name (nil when absent). Zulip takes any values and
// reads them as Python truth values; the fake takes booleans only.
func authMethodsParam(c *call) (map[string]bool, error) {
	var raw map[string]any
	if set, err := c.p.optJSON("authentication_methods", &raw); err != nil || !set {
		return nil, err
	}
	methods := make(map[string]bool, len(raw))
	for name, v := range raw {
		on, ok := v.(bool)
		if !ok {
			return nil, realm.BadRequest("authentication_methods[%s] is not a boolean", name)
		}
		methods[name] = on
	}
	return methods, nil
}
