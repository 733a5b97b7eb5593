package realm

import (
	"slices"

	"github.com/minizulip/minizulip/group"
)

// The server_supported_permission_settings key of POST /register
// (feature level 221): for each group-valued setting of the realm, of
// channels and of user groups, which system groups it may hold and its
// default. It is built from the very rule tables the realm checks
// values against (realmGroupRules, channelGroupSettings,
// userGroupSettingRules), so the key and the checks cannot disagree.

// GroupPermissionSetting is one setting's entry (Zulip's
// GroupPermissionSetting). role:internet is never allowed.
type GroupPermissionSetting struct {
	RequireSystemGroup bool   `json:"require_system_group"`
	AllowInternetGroup bool   `json:"allow_internet_group"`
	AllowNobodyGroup   bool   `json:"allow_nobody_group"`
	AllowEveryoneGroup bool   `json:"allow_everyone_group"`
	DefaultGroupName   string `json:"default_group_name"`
	// DefaultForSystemGroups is the default a system group's setting
	// has; null for the realm's and channels' settings.
	DefaultForSystemGroups *string `json:"default_for_system_groups"`
	// AllowedSystemGroups (feature level 225) lists the only system
	// groups the setting takes; empty when the booleans decide.
	AllowedSystemGroups *[]string `json:"allowed_system_groups,omitempty"`
}

// ServerSupportedPermissionSettings is the key's value, by the kind of
// object the settings belong to.
type ServerSupportedPermissionSettings struct {
	Realm  map[string]GroupPermissionSetting `json:"realm"`
	Stream map[string]GroupPermissionSetting `json:"stream"`
	Group  map[string]GroupPermissionSetting `json:"group"`
}

// userGroupSettingRule is one user group permission setting: its
// default for a group a user creates (a system group name, or
// groupCreator) and whether role:everyone may hold it. A system group's
// settings all default to role:nobody.
type userGroupSettingRule struct {
	def           string
	allowEveryone bool
}

// groupCreator is the default meaning "an anonymous group of the
// group's creator"; the realm keeps role:nobody and lets the creator
// act through Group.CreatorID.
const groupCreator = "group_creator"

// userGroupSettingRules are Zulip's user group permission settings
// (NamedUserGroup.GROUP_PERMISSION_SETTINGS), by API name.
var userGroupSettingRules = map[string]userGroupSettingRule{
	"can_add_members_group":    {groupCreator, false},
	"can_join_group":           {group.Nobody, false},
	"can_leave_group":          {group.Everyone, true},
	"can_manage_group":         {groupCreator, false},
	"can_mention_group":        {group.Everyone, true},
	"can_remove_members_group": {group.Nobody, false},
}

// serverSupportedPermissionSettings is the key as a server of the
// realm's level sends it: a setting newer than the level is left out,
// as is allowed_system_groups below 225.
func (r *Realm) serverSupportedPermissionSettings() *ServerSupportedPermissionSettings {
	out := &ServerSupportedPermissionSettings{Realm: map[string]GroupPermissionSetting{},
		Stream: map[string]GroupPermissionSetting{}, Group: map[string]GroupPermissionSetting{}}
	allowed := func(list []string) *[]string {
		if !r.has(changeAllowedSystemGroups) {
			return nil
		}
		return ptr(append([]string{}, list...))
	}
	registerAfter := r.fieldsAfterLevel("POST /register", "register gate")
	for name, rule := range realmGroupRules {
		if slices.Contains(registerAfter, "realm_"+name) || !r.sendsField("realm_data", name) {
			continue
		}
		out.Realm[name] = GroupPermissionSetting{RequireSystemGroup: rule.systemOnly,
			AllowNobodyGroup: rule.allowNobody, AllowEveryoneGroup: rule.allowEveryone,
			DefaultGroupName: rule.def, AllowedSystemGroups: allowed(rule.allowed)}
	}
	for _, rule := range channelGroupSettings {
		if !r.sendsField("stream", rule.name) {
			continue
		}
		out.Stream[rule.name] = GroupPermissionSetting{AllowNobodyGroup: true,
			AllowEveryoneGroup: rule.allowEveryone, DefaultGroupName: rule.def, AllowedSystemGroups: allowed(nil)}
	}
	for name, rule := range userGroupSettingRules {
		if !r.sendsField("user_group", name) {
			continue
		}
		out.Group[name] = GroupPermissionSetting{AllowNobodyGroup: true,
			AllowEveryoneGroup: rule.allowEveryone, DefaultGroupName: rule.def,
			DefaultForSystemGroups: ptr(group.Nobody), AllowedSystemGroups: allowed(nil)}
	}
	return out
}

// sendsField reports whether a server of the realm's level sends a
// kind's field: no field gate row of the table dates it later.
func (r *Realm) sendsField(kind, field string) bool {
	gate, ok := wireGates[kind+" "+field]
	return !ok || r.has(gate)
}
