package realm

import (
	"cmp"
	"context"
	"slices"
	"unicode/utf8"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/user"
)

// Realm name and description limits (characters), as Zulip's.
const (
	maxRealmNameLength        = 40
	maxRealmDescriptionLength = 1000
)

// TimeLimit is the new value of a time-limit setting: Seconds, or no limit
// at all when Unlimited (the API's "unlimited", sent back as null).
type TimeLimit struct {
	Seconds   int
	Unlimited bool
}

// GroupSettingChange is the new value of a group-valued realm setting.
// Old, when set, is the value the client believes current: if it is not,
// nothing changes and the call fails with EXPECTATION_MISMATCH.
type GroupSettingChange struct {
	New GroupSetting
	Old *GroupSetting
}

// RealmUpdate is a PATCH /realm request: every non-nil field is a setting
// to change. A call that changes nothing succeeds.
type RealmUpdate struct {
	Name                  *string
	Description           *string
	DefaultLanguage       *string
	AllowMessageEditing   *bool
	EnableSpectatorAccess *bool
	EnableReadReceipts    *bool
	// MandatoryTopics is the setting's name below feature level 392,
	// TopicsPolicy ("allow_empty_topic", "disable_empty_topic") its name
	// from 392 on; both set the same setting.
	MandatoryTopics *bool
	TopicsPolicy    *string

	MessageContentEditLimitSeconds         *TimeLimit
	MessageContentDeleteLimitSeconds       *TimeLimit
	MoveMessagesWithinStreamLimitSeconds   *TimeLimit
	MoveMessagesBetweenStreamsLimitSeconds *TimeLimit

	// GroupSettings are changes of group-valued settings, by API name (see
	// RealmGroupSettingNames).
	GroupSettings map[string]GroupSettingChange

	// ModerationRequestChannelID is the private channel message reports
	// go to; a negative value turns reporting off.
	ModerationRequestChannelID *int

	// NewStreamAnnouncementsStreamID is the channel new channels are
	// announced in (new_stream_announcements_stream_id); a negative value
	// turns the announcements off.
	NewStreamAnnouncementsStreamID *int

	// SignupAnnouncementsStreamID is the channel new users are announced
	// in (signup_announcements_stream_id); a negative value turns the
	// announcements off.
	SignupAnnouncementsStreamID *int

	// EmailsRestrictedToDomains and DisallowDisposableEmailAddresses are
	// the realm's email rules (email_rules.go); owners only.
	EmailsRestrictedToDomains        *bool
	DisallowDisposableEmailAddresses *bool

	// EmailChangesDisabled, NameChangesDisabled and AvatarChangesDisabled
	// keep users who are not administrators from changing their email
	// address, name and avatar.
	EmailChangesDisabled  *bool
	NameChangesDisabled   *bool
	AvatarChangesDisabled *bool

	// JitsiServerURL is an http(s) URL, or "default" for the server's.
	JitsiServerURL *string
	// The plain settings (realm_plain_settings.go).
	EnableGuestUserIndicator     *bool
	EnableGuestUserDMWarning     *bool
	RequireUniqueNames           *bool
	RequireE2EEPushNotifications *bool
	WelcomeMessageCustomText     *string
	// EditHistoryPolicy is message_edit_history_visibility_policy (from
	// feature level 358); AllowEditHistory the boolean it replaced
	// (below it): true "all", false "none".
	EditHistoryPolicy *string
	AllowEditHistory  *bool
	// AuthenticationMethods turns login methods on and off by Zulip's
	// backend names ("Email", "Dev"); owners only (auth_methods.go).
	AuthenticationMethods map[string]bool
	// The realm properties (realm_properties.go).
	RealmPropertiesUpdate
}

// RealmChanges is what PATCH /realm answers next to result and msg: each
// setting that changed, strings as "updated", other values as sent.
type RealmChanges map[string]any

// realmGroupRule is how Zulip constrains one group-valued realm setting
// (Realm.REALM_PERMISSION_GROUP_SETTINGS).
type realmGroupRule struct {
	allowNobody, allowEveryone bool
	// ownerOnly settings may only be changed by organization owners.
	ownerOnly bool
	// def is the system group a new realm gives the setting.
	def string
	// systemOnly settings take a system group only, of those in allowed
	// when it is not empty.
	systemOnly bool
	allowed    []string
}

// realmGroupRules are Zulip's rules for the group-valued realm settings
// the realm keeps. role:internet is never allowed.
var realmGroupRules = map[string]realmGroupRule{
	"can_access_all_users_group": {allowEveryone: true, def: group.Everyone,
		systemOnly: true, allowed: []string{group.Everyone, group.Members}},
	"can_add_custom_emoji_group":       {allowNobody: true, def: group.Members},
	"can_add_subscribers_group":        {allowNobody: true, def: group.Members},
	"can_create_bots_group":            {allowNobody: true, def: group.Members},
	"can_create_groups":                {allowNobody: true, ownerOnly: true, def: group.Members},
	"can_create_private_channel_group": {allowNobody: true, def: group.Members},
	"can_create_public_channel_group":  {allowNobody: true, def: group.Members},
	"can_create_web_public_channel_group": {allowNobody: true, def: group.Owners,
		systemOnly: true, allowed: []string{group.Moderators, group.Administrators, group.Owners, group.Nobody}},
	"can_create_write_only_bots_group":         {allowNobody: true, def: group.Members},
	"can_delete_any_message_group":             {allowNobody: true, def: group.Administrators},
	"can_delete_own_message_group":             {allowNobody: true, allowEveryone: true, def: group.Everyone},
	"can_invite_users_group":                   {allowNobody: true, ownerOnly: true, def: group.Members},
	"can_manage_all_groups":                    {ownerOnly: true, def: group.Owners},
	"can_manage_billing_group":                 {ownerOnly: true, def: group.Administrators},
	"can_mention_many_users_group":             {allowNobody: true, allowEveryone: true, def: group.Administrators},
	"can_move_messages_between_channels_group": {allowNobody: true, def: group.Members},
	"can_move_messages_between_topics_group":   {allowNobody: true, allowEveryone: true, def: group.Everyone},
	"can_resolve_topics_group":                 {allowNobody: true, allowEveryone: true, def: group.Everyone},
	"can_set_delete_message_policy_group":      {allowNobody: true, def: group.Moderators},
	"can_set_topics_policy_group":              {allowNobody: true, allowEveryone: true, def: group.Members},
	"can_summarize_topics_group":               {allowNobody: true, allowEveryone: true, def: group.Everyone},
	"create_multiuse_invite_group":             {allowNobody: true, ownerOnly: true, def: group.Administrators},
	"direct_message_initiator_group":           {allowNobody: true, allowEveryone: true, def: group.Everyone},
	"direct_message_permission_group":          {allowNobody: true, allowEveryone: true, def: group.Everyone},
}

// RealmGroupSettingNames are the API names of the group-valued realm
// settings PATCH /realm changes, sorted.
func RealmGroupSettingNames() []string {
	var s Settings
	names := make([]string, 0, len(realmGroupRules))
	for _, g := range s.groupSettings() {
		names = append(names, g.name)
	}
	return names
}

// UpdateRealm changes realm settings, as PATCH /realm: administrators
// only (UNAUTHORIZED_PRINCIPAL otherwise), owners for can_create_groups,
// can_manage_all_groups, can_manage_billing_group, who may invite
// (can_invite_users_group, create_multiuse_invite_group: Zulip's
// update_realm keeps the invitation settings to owners) and the email
// rules. Every value is checked before any changes;
// every active user is then told of each setting that changed, one realm
// event per setting as Zulip does (emitSettingsChange).
func (a *Actor) UpdateRealm(ctx context.Context, req RealmUpdate) (RealmChanges, error) {
	var changes RealmChanges
	err := a.writeAdmin(ctx, func(me *user.User) error {
		r := a.r
		next, ch, err := r.applyRealmUpdate(me, req)
		if err != nil {
			return err
		}
		before := r.settings.apiValues()
		r.settings = next
		r.emitSettingsChange(before)
		r.afterPropertiesChange(before, ch)
		changes = ch
		return nil
	})
	return changes, err
}

// CheckRealmAdmin reports UNAUTHORIZED_PRINCIPAL unless the actor is an
// administrator: Zulip checks the role of a PATCH /realm caller before
// it reads any parameter, so adapters call it when a parameter is
// malformed.
func (a *Actor) CheckRealmAdmin(ctx context.Context) error {
	return a.read(ctx, func(me *user.User) error {
		if !me.Role.IsAdmin() {
			return UnauthorizedPrincipal("Must be an organization administrator")
		}
		return nil
	})
}

// applyRealmUpdate checks req and returns the settings it leads to, and
// the changes to answer with; the realm is not touched. The checks come
// in Zulip's order: parameter values, then permissions, then time limits,
// then group settings.
func (r *Realm) applyRealmUpdate(me *user.User, req RealmUpdate) (Settings, RealmChanges, error) {
	s := r.settings
	changes := RealmChanges{}
	if req.Name != nil && utf8.RuneCountInString(*req.Name) > maxRealmNameLength {
		return s, nil, BadRequest("name is too long (limit: %d characters)", maxRealmNameLength)
	}
	if req.Description != nil && utf8.RuneCountInString(*req.Description) > maxRealmDescriptionLength {
		return s, nil, BadRequest("description is too long (limit: %d characters)", maxRealmDescriptionLength)
	}
	if err := cmp.Or(noNullIn("name", req.Name), noNullIn("description", req.Description)); err != nil {
		return s, nil, err
	}
	if req.TopicsPolicy != nil && *req.TopicsPolicy != TopicsPolicyAllowEmpty && *req.TopicsPolicy != TopicsPolicyDisableEmpty {
		return s, nil, BadRequest("Invalid topics_policy")
	}
	if req.JitsiServerURL != nil && *req.JitsiServerURL != "default" {
		if err := checkJitsiServerURL(*req.JitsiServerURL); err != nil {
			return s, nil, err
		}
	}
	if req.WelcomeMessageCustomText != nil {
		if err := checkWelcomeMessageCustomText(*req.WelcomeMessageCustomText); err != nil {
			return s, nil, err
		}
	}
	if req.EditHistoryPolicy != nil && !validEditHistoryPolicy(*req.EditHistoryPolicy) {
		return s, nil, BadRequest("Invalid %s", editHistoryPolicyProperty)
	}
	for name := range req.GroupSettings {
		if _, ok := realmGroupRules[name]; !ok {
			return s, nil, BadRequest("Invalid realm setting: %s", name)
		}
	}
	if req.DefaultLanguage != nil && !knownLanguage(*req.DefaultLanguage) {
		return s, nil, BadRequest("Invalid language '%s'", *req.DefaultLanguage)
	}
	if req.AuthenticationMethods != nil {
		if err := checkAuthMethodsChange(me.Role == user.RoleOwner, req.AuthenticationMethods); err != nil {
			return s, nil, err
		}
	}
	if err := r.checkPropertiesUpdate(me, req.RealmPropertiesUpdate); err != nil {
		return s, nil, err
	}
	if me.Role != user.RoleOwner {
		for name := range req.GroupSettings {
			if realmGroupRules[name].ownerOnly {
				return s, nil, UnauthorizedPrincipal("Must be an organization owner")
			}
		}
		if req.EmailsRestrictedToDomains != nil || req.DisallowDisposableEmailAddresses != nil {
			return s, nil, UnauthorizedPrincipal("Must be an organization owner")
		}
	}
	if err := r.checkPlanAllowsRealmUpdate(req); err != nil {
		return s, nil, err
	}

	for _, l := range []struct {
		name string
		req  *TimeLimit
		dst  **int
	}{
		{"message_content_delete_limit_seconds", req.MessageContentDeleteLimitSeconds, &s.MessageContentDeleteLimitSeconds},
		{"message_content_edit_limit_seconds", req.MessageContentEditLimitSeconds, &s.MessageContentEditLimitSeconds},
		{"move_messages_within_stream_limit_seconds", req.MoveMessagesWithinStreamLimitSeconds, &s.MoveMessagesWithinStreamLimitSeconds},
		{"move_messages_between_streams_limit_seconds", req.MoveMessagesBetweenStreamsLimitSeconds, &s.MoveMessagesBetweenStreamsLimitSeconds},
	} {
		if l.req == nil {
			continue
		}
		var v *int
		if !l.req.Unlimited {
			if l.req.Seconds <= 0 {
				return s, nil, VariableInvalid(l.name, l.req.Seconds)
			}
			v = intPtr(l.req.Seconds)
		}
		if !equalLimits(*l.dst, v) {
			*l.dst = v
			changes[l.name] = limitValue(v)
		}
	}

	setString := func(name string, v *string, dst *string) {
		if v != nil && *v != *dst {
			*dst = *v
			changes[name] = "updated"
		}
	}
	setString("name", req.Name, &s.Name)
	setString("description", req.Description, &s.Description)
	setString("default_language", req.DefaultLanguage, &s.DefaultLanguage)
	setBool := func(name string, v *bool, dst *bool) {
		if v != nil && *v != *dst {
			*dst = *v
			changes[name] = *v
		}
	}
	setBool("allow_message_editing", req.AllowMessageEditing, &s.AllowMessageEditing)
	setBool("enable_spectator_access", req.EnableSpectatorAccess, &s.EnableSpectatorAccess)
	setBool("enable_read_receipts", req.EnableReadReceipts, &s.EnableReadReceipts)
	setBool("mandatory_topics", req.MandatoryTopics, &s.MandatoryTopics)
	setBool("emails_restricted_to_domains", req.EmailsRestrictedToDomains, &s.EmailsRestrictedToDomains)
	setBool("disallow_disposable_email_addresses", req.DisallowDisposableEmailAddresses, &s.DisallowDisposableEmailAddresses)
	setBool("email_changes_disabled", req.EmailChangesDisabled, &s.EmailChangesDisabled)
	setBool("name_changes_disabled", req.NameChangesDisabled, &s.NameChangesDisabled)
	setBool("avatar_changes_disabled", req.AvatarChangesDisabled, &s.AvatarChangesDisabled)
	setBool("enable_guest_user_dm_warning", req.EnableGuestUserDMWarning, &s.EnableGuestUserDMWarning)
	setBool("enable_guest_user_indicator", req.EnableGuestUserIndicator, &s.EnableGuestUserIndicator)
	setBool("require_e2ee_push_notifications", req.RequireE2EEPushNotifications, &s.RequireE2EEPushNotifications)
	setBool("require_unique_names", req.RequireUniqueNames, &s.RequireUniqueNames)
	setString("welcome_message_custom_text", req.WelcomeMessageCustomText, &s.WelcomeMessageCustomText)
	if v := req.JitsiServerURL; v != nil {
		switch {
		case *v == "default" && s.JitsiServerURL != nil:
			s.JitsiServerURL = nil
			changes["jitsi_server_url"] = nil
		case *v != "default" && (s.JitsiServerURL == nil || *s.JitsiServerURL != *v):
			s.JitsiServerURL = ptr(*v)
			changes["jitsi_server_url"] = "updated"
		}
	}
	if p := req.EditHistoryPolicy; p != nil && *p != s.EditHistoryPolicy {
		s.EditHistoryPolicy = *p
		// Zulip answers with the enum's number.
		changes[editHistoryPolicyProperty] = editHistoryPolicyNumbers[*p]
	}
	if v := req.AllowEditHistory; v != nil && *v != allowEditHistory(s.EditHistoryPolicy) {
		s.EditHistoryPolicy = editHistoryPolicyOf(*v)
		changes["allow_edit_history"] = *v
	}
	if req.TopicsPolicy != nil {
		if mandatory := *req.TopicsPolicy == TopicsPolicyDisableEmpty; mandatory != s.MandatoryTopics {
			s.MandatoryTopics = mandatory
			// Zulip answers with the enum's number.
			changes["topics_policy"] = topicsPolicyNumber(mandatory)
		}
	}

	for _, g := range s.groupSettings() {
		change, ok := req.GroupSettings[g.name]
		if !ok {
			continue
		}
		if err := r.checkSettingForm("realm", g.name, change.New); err != nil {
			return s, nil, err
		}
		newValue := r.normalizeGroupSetting(change.New)
		if change.Old != nil && !sameGroupSetting(r.normalizeGroupSetting(*change.Old), r.apiGroupSetting(*g.id)) {
			return s, nil, &Error{Code: CodeExpectationMismatch, Status: statusBadRequest,
				Msg: "'old' value does not match the expected value."}
		}
		if sameGroupSetting(newValue, *g.id) {
			continue
		}
		if err := r.checkRealmGroupSetting(g.name, newValue); err != nil {
			return s, nil, err
		}
		*g.id = storedGroupSetting(newValue)
		changes[g.name] = newValue
	}
	applyProperties(&s, req.RealmPropertiesUpdate, changes)
	if req.AuthenticationMethods != nil {
		s.setAuthMethods(req.AuthenticationMethods, changes)
	}
	if req.NewStreamAnnouncementsStreamID != nil {
		if err := r.setAnnouncementChannel(newChannelAnnouncements, me, &s, *req.NewStreamAnnouncementsStreamID, changes); err != nil {
			return s, nil, err
		}
	}
	if req.SignupAnnouncementsStreamID != nil {
		if err := r.setAnnouncementChannel(signupAnnouncements, me, &s, *req.SignupAnnouncementsStreamID, changes); err != nil {
			return s, nil, err
		}
	}
	if req.ModerationRequestChannelID != nil {
		if err := r.setModerationRequestChannel(&s, *req.ModerationRequestChannelID, changes); err != nil {
			return s, nil, err
		}
	}
	return s, changes, nil
}

// topicsPolicyNumber is Zulip's stored value of the realm's
// topics_policy: 2 allow_empty_topic, 3 disable_empty_topic.
func topicsPolicyNumber(mandatory bool) int {
	if mandatory {
		return 3
	}
	return 2
}

// equalLimits compares two time limits (nil: no limit).
func equalLimits(a, b *int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// normalizeGroupSetting is Zulip's reading of a group-setting value: an
// anonymous group of one subgroup and no members is that subgroup, one of
// neither is role:nobody.
func (r *Realm) normalizeGroupSetting(v GroupSetting) GroupSetting {
	if v.GroupID != 0 || len(v.DirectMembers) > 0 || len(v.DirectSubgroups) > 1 {
		return v
	}
	if len(v.DirectSubgroups) == 1 {
		return NamedGroupSetting(v.DirectSubgroups[0])
	}
	return NamedGroupSetting(r.groups.byName[group.Nobody].ID)
}

// sameGroupSetting compares two group-setting values as Zulip does: the
// same named group, or anonymous groups with the same members and
// subgroups in any order.
func sameGroupSetting(a, b GroupSetting) bool {
	if a.GroupID != 0 || b.GroupID != 0 {
		return a.GroupID == b.GroupID
	}
	return sameIDSet(a.DirectMembers, b.DirectMembers) && sameIDSet(a.DirectSubgroups, b.DirectSubgroups)
}

func sameIDSet(a, b []int) bool {
	return slices.Equal(sortedUnique(a), sortedUnique(b))
}

func sortedUnique(ids []int) []int {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// checkAnonymousGroup checks an anonymous group-setting value: active
// users, and existing active groups, with Zulip's messages.
func (r *Realm) checkAnonymousGroup(v GroupSetting) error {
	for _, id := range v.DirectMembers {
		if u := r.users.byID[id]; u == nil || !u.IsActive || u.IsSystemBot {
			return BadRequest("Invalid user ID: %d", id)
		}
	}
	for _, id := range v.DirectSubgroups {
		g := r.groups.byID[id]
		if g == nil {
			return BadRequest("Invalid user group ID: %d", id)
		}
		if g.Deactivated {
			return BadRequest("User group is deactivated.")
		}
	}
	return nil
}

// storedGroupSetting is the value kept for a setting: an anonymous
// group's members and subgroups sorted, without repeats.
func storedGroupSetting(v GroupSetting) GroupSetting {
	if v.GroupID != 0 {
		return v
	}
	return GroupSetting{DirectMembers: sortedUnique(v.DirectMembers), DirectSubgroups: sortedUnique(v.DirectSubgroups)}
}

// checkRealmGroupSetting checks a new value of the group-valued realm
// setting name against its configuration (permissionSetting), with
// Zulip's messages.
func (r *Realm) checkRealmGroupSetting(name string, v GroupSetting) error {
	p, _ := r.permissionSetting("realm", name)
	if v.GroupID == 0 {
		if p.RequireSystemGroup {
			return BadRequest("'%s' must be a system user group.", name)
		}
		return r.checkAnonymousGroup(v)
	}
	g := r.groups.byID[v.GroupID]
	switch {
	case g == nil:
		return BadRequest("Invalid user group")
	case g.Deactivated:
		return BadRequest("User group is deactivated.")
	}
	return checkNamedSettingValue(name, p, g)
}

// checkSystemOnlySetting checks a value of a setting that takes system
// groups only (can_access_all_users_group,
// can_create_web_public_channel_group): a system group of those allowed.
func (r *Realm) checkSystemOnlySetting(name string, v GroupSetting) error {
	rule := realmGroupRules[name]
	if !rule.systemOnly {
		return nil
	}
	g := r.groups.byID[v.GroupID]
	switch {
	case v.GroupID == 0 || g != nil && !g.IsSystem:
		return BadRequest("'%s' must be a system user group.", name)
	case g != nil && len(rule.allowed) > 0 && !slices.Contains(rule.allowed, g.Name):
		return BadRequest("'%s' setting cannot be set to '%s' group.", name, g.Name)
	}
	return nil
}

// knownLanguage reports whether code is a language Zulip's server is
// translated into (user.LanguageName).
func knownLanguage(code string) bool {
	_, ok := user.LanguageName(code)
	return ok
}
