package realm

// The older forms of group-setting values. Anonymous groups (a setting
// holding {"direct_members", "direct_subgroups"}) came to each setting
// at its own level; below it a server held, took and sent only a group
// ID, for some settings only a system group's. A realm advertising such
// a level refuses the newer forms (in requests and in fixtures), so that
// every value it holds has the form it sends.

// olderSettingForm is how a setting was held below change: a group ID
// only, and with systemOnly the ID of a system group.
type olderSettingForm struct {
	change     Change
	systemOnly bool
}

// olderSettingForms are the settings whose values were restricted, by
// scope ("channel", "realm", "user_group") and API name.
var olderSettingForms = map[string]olderSettingForm{
	"channel can_remove_subscribers_group": {ChangeRemoveSubscribersAnyGroup, true},
	"realm can_access_all_users_group":     {changeRealmAccessSettingsAnonymous, false},
	"realm create_multiuse_invite_group":   {changeRealmAccessSettingsAnonymous, false},
	// Every user group setting newer than can_mention_group took
	// anonymous groups from its first level.
	"user_group can_add_members_group":    {changeUserGroupSettingsAnonymous, false},
	"user_group can_join_group":           {changeUserGroupSettingsAnonymous, false},
	"user_group can_leave_group":          {changeUserGroupSettingsAnonymous, false},
	"user_group can_manage_group":         {changeUserGroupSettingsAnonymous, false},
	"user_group can_mention_group":        {changeUserGroupSettingsAnonymous, false},
	"user_group can_remove_members_group": {changeUserGroupSettingsAnonymous, false},
}

// checkSettingForm refuses a value of the setting (scope and API name)
// that the realm's level cannot hold, with the message a server of that
// level gave: an anonymous group where it took an integer, another group
// than a system one where it required one.
func (r *Realm) checkSettingForm(scope, name string, v GroupSetting) error {
	form, ok := olderSettingForms[scope+" "+name]
	if !ok || r.has(form.change) {
		return nil
	}
	if form.systemOnly {
		if g := r.groups.byID[v.GroupID]; v.GroupID == 0 || g == nil || !g.IsSystem {
			return BadRequest("'%s' must be a system user group.", name)
		}
		return nil
	}
	if v.GroupID == 0 {
		return BadRequest("%s is not an integer", name)
	}
	return nil
}
