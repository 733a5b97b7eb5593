package realm

import "github.com/minizulip/minizulip/user"

// Personal settings whose values a lower feature level spells otherwise:
// web_home_view's recent view ("recent_topics" before the spec's
// "recent") and desktop_icon_count_display, renumbered when Zulip 8.0
// added its followed topics option. Settings keep today's values;
// requests are read and answers and events written at the realm's level.

// settingFromWire is a checked value of setting d as the realm's level
// reads it, in the form Settings keep.
func (r *Realm) settingFromWire(d user.SettingDef, v any) (any, error) {
	if n, isInt := v.(int); isInt && d.Name == "desktop_icon_count_display" && !r.has(changeDesktopIconCountFollowed) {
		now, ok := user.DesktopIconCountFromOld(n)
		if !ok {
			return nil, BadRequest("Invalid %s", d.Name)
		}
		return now, nil
	}
	if err := d.Check(v, r.opts.FeatureLevel); err != nil {
		return nil, BadRequest("%s", err.Error())
	}
	return v, nil
}

// settingToWire is a stored value of the named setting as the realm's
// level sends it.
func (r *Realm) settingToWire(name string, v any) any {
	switch name {
	case "web_home_view":
		return user.WebHomeViewName(v.(string), r.opts.FeatureLevel)
	case "desktop_icon_count_display":
		if !r.has(changeDesktopIconCountFollowed) {
			return user.DesktopIconCountToOld(v.(int))
		}
	}
	return v
}

// settingsView is register's user_settings (or realm_user_settings_defaults)
// object of s at the realm's level.
func (r *Realm) settingsView(s user.Settings, timezone string, emailVisibility user.EmailVisibility) user.SettingsView {
	view := s.View(timezone, emailVisibility, r.opts.FeatureLevel)
	view.DesktopIconCountDisplay = r.settingToWire("desktop_icon_count_display", view.DesktopIconCountDisplay).(int)
	if !r.has(changeDenseModeRemoved) {
		view = view.WithDenseMode()
	}
	return view
}
