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
// GroupPermissionSetting), and the configuration its values are checked
// against. role:internet is never allowed.
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
	// AllowOwnersGroup says whether the setting takes role:owners, and
	// IDFieldName is "<setting>_id": both only below feature level 326,
	// which removed them.
	AllowOwnersGroup *bool   `json:"allow_owners_group,omitempty"`
	IDFieldName      *string `json:"id_field_name,omitempty"`
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

// ownersGroupSettings are the settings that took role:owners below
// feature level 326 (Zulip's allow_owners_group), by scope and API name:
// those whose older policy had an owners-only value. Every other setting
// refused it then.
var ownersGroupSettings = map[string]bool{
	"realm can_create_web_public_channel_group": true,
	"realm can_manage_all_groups":               true,
}

// permissionSetting is the configuration of the setting name of scope
// ("realm", "stream" or "group") as a server of the realm's level has
// it, from the rule tables (realmGroupRules, channelGroupSettings,
// userGroupSettingRules); ok is false for a name the scope lacks. The
// values a setting takes are checked against it (checkNamedSettingValue)
// and register's server_supported_permission_settings sends it.
func (r *Realm) permissionSetting(scope, name string) (p GroupPermissionSetting, ok bool) {
	switch scope {
	case "realm":
		rule, found := realmGroupRules[name]
		if !found {
			return p, false
		}
		p = GroupPermissionSetting{RequireSystemGroup: rule.systemOnly, AllowNobodyGroup: rule.allowNobody,
			AllowEveryoneGroup: rule.allowEveryone, DefaultGroupName: rule.def, AllowedSystemGroups: ptr(append([]string{}, rule.allowed...))}
	case "stream":
		i := slices.IndexFunc(channelGroupSettings, func(c channelSettingRule) bool { return c.name == name })
		if i < 0 {
			return p, false
		}
		rule := channelGroupSettings[i]
		p = GroupPermissionSetting{AllowNobodyGroup: true, AllowEveryoneGroup: rule.allowEveryone,
			DefaultGroupName: rule.def, AllowedSystemGroups: ptr([]string{})}
	case "group":
		rule, found := userGroupSettingRules[name]
		if !found {
			return p, false
		}
		p = GroupPermissionSetting{AllowNobodyGroup: true, AllowEveryoneGroup: rule.allowEveryone,
			DefaultGroupName: rule.def, DefaultForSystemGroups: ptr(group.Nobody), AllowedSystemGroups: ptr([]string{})}
	default:
		return p, false
	}
	if form, found := olderSettingForms[map[string]string{"realm": "realm", "stream": "channel", "group": "user_group"}[scope]+" "+name]; found &&
		form.systemOnly && !r.has(form.change) {
		p.RequireSystemGroup = true
	}
	if !r.has(changeOwnersGroupAnySetting) {
		p.AllowOwnersGroup = ptr(ownersGroupSettings[scope+" "+name])
		p.IDFieldName = ptr(name + "_id")
	}
	return p, true
}

// checkNamedSettingValue checks the group g as the value of the setting
// name configured by p, in the order and with the messages of Zulip's
// check_setting_configuration_for_system_groups: a system group where one
// is required, then role:internet, role:owners (below 326), role:nobody
// and role:everyone where the setting refuses them, then the allowed
// system groups.
func checkNamedSettingValue(name string, p GroupPermissionSetting, g *group.Group) error {
	if p.RequireSystemGroup && !g.IsSystem {
		return BadRequest("'%s' must be a system user group.", name)
	}
	if !g.IsSystem {
		return nil
	}
	refused := g.Name == group.Internet && !p.AllowInternetGroup ||
		g.Name == group.Owners && p.AllowOwnersGroup != nil && !*p.AllowOwnersGroup ||
		g.Name == group.Nobody && !p.AllowNobodyGroup ||
		g.Name == group.Everyone && !p.AllowEveryoneGroup ||
		p.AllowedSystemGroups != nil && len(*p.AllowedSystemGroups) > 0 && !slices.Contains(*p.AllowedSystemGroups, g.Name)
	if refused {
		return BadRequest("'%s' setting cannot be set to '%s' group.", name, g.Name)
	}
	return nil
}

// serverSupportedPermissionSettings is the key as a server of the
// realm's level sends it: a setting newer than the level is left out,
// as is allowed_system_groups below 225.
func (r *Realm) serverSupportedPermissionSettings() *ServerSupportedPermissionSettings {
	out := &ServerSupportedPermissionSettings{Realm: map[string]GroupPermissionSetting{},
		Stream: map[string]GroupPermissionSetting{}, Group: map[string]GroupPermissionSetting{}}
	add := func(to map[string]GroupPermissionSetting, scope, name string) {
		p, _ := r.permissionSetting(scope, name)
		if !r.has(changeAllowedSystemGroups) {
			p.AllowedSystemGroups = nil
		}
		to[name] = p
	}
	registerAfter := r.fieldsAfterLevel("POST /register", "register gate")
	for name := range realmGroupRules {
		if !slices.Contains(registerAfter, "realm_"+name) && r.sendsField("realm_data", name) {
			add(out.Realm, "realm", name)
		}
	}
	for _, rule := range channelGroupSettings {
		if r.sendsField("stream", rule.name) {
			add(out.Stream, "stream", rule.name)
		}
	}
	for name := range userGroupSettingRules {
		if r.sendsField("user_group", name) {
			add(out.Group, "group", name)
		}
	}
	return out
}

// sendsField reports whether a server of the realm's level sends a
// kind's field: no field gate row of the table dates it later.
func (r *Realm) sendsField(kind, field string) bool {
	gate, ok := wireGates[kind+" "+field]
	return !ok || r.has(gate)
}
