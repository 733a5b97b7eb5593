package realm

import (
	"context"

	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// UserSettingsDefaultsView is register's realm_user_settings_defaults:
// the personal settings new users start with. Unlike a user's own
// settings it has no time zone.
type UserSettingsDefaultsView struct {
	user.SettingsView
	// Timezone hides the embedded view's time zone.
	Timezone *struct{} `json:"timezone,omitempty"`
}

// RealmUserSettingsDefaultsEvent reports a changed default.
type RealmUserSettingsDefaultsEvent struct {
	Op       string `json:"op"`
	Property string `json:"property"`
	Value    any    `json:"value"`
}

// UpdateUserSettingsDefaults answers PATCH /realm/user_settings_defaults
// (administrators): the settings new users will start with, by the
// personal settings' API names and rules. Existing users keep theirs.
// Every value is checked before any is stored; each changed default is a
// realm_user_settings_defaults event to the realm.
func (a *Actor) UpdateUserSettingsDefaults(ctx context.Context, values map[string]any) error {
	r := a.r
	return a.writeAdmin(ctx, func(me *user.User) error {
		changes, err := r.checkSettingValues(values)
		if err != nil {
			return err
		}
		for _, c := range changes {
			defaults := r.userSettingsDefaults()
			if c.def.Get(&defaults) == c.value {
				continue
			}
			c.def.Set(&r.settingsDefaults.values, c.value)
			value := r.settingToWire(c.def.Name, c.def.Get(&r.settingsDefaults.values))
			r.emit("realm_user_settings_defaults", RealmUserSettingsDefaultsEvent{Op: "update", Property: c.def.Name, Value: value},
				r.activeUserIDs()...)
		}
		return nil
	})
}

// userSettingsDefaults are the settings a new user gets: the stored
// defaults, with the realm's email address visibility unless an
// administrator set a default of its own.
func (r *Realm) userSettingsDefaults() user.Settings {
	s := r.settingsDefaults.values
	if s.EmailAddressVisibility == 0 {
		s.EmailAddressVisibility = r.settings.EmailAddressVisibility
	}
	return s
}

// settingsDefaultsTable holds the personal settings new users start with (an
// EmailAddressVisibility of 0 follows the realm's setting).
type settingsDefaultsTable struct {
	values user.Settings
}

func (t *settingsDefaultsTable) clone() settingsDefaultsTable {
	return *t
}

// dump adds the defaults that differ from a new realm's to f.
func (t *settingsDefaultsTable) dump(r *Realm, f *fixture.Document) error {
	defaults := user.DefaultSettings()
	for _, d := range user.SettingDefs {
		if v := d.Get(&r.settingsDefaults.values); v != d.Get(&defaults) {
			if f.UserSettingsDefaults == nil {
				f.UserSettingsDefaults = map[string]any{}
			}
			f.UserSettingsDefaults[d.Name] = v
		}
	}
	return nil
}

// load checks the settings defaults as PATCH
// /realm/user_settings_defaults does: known personal settings, each
// with a value it takes.
func (t *settingsDefaultsTable) load(r *Realm, f *fixture.Document) error {
	s, err := r.fixtureUserSettings("realm_user_default", f.UserSettingsDefaults)
	if err != nil {
		return err
	}
	r.settingsDefaults.values = s
	return nil
}

func (t *settingsDefaultsTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("realm_user_settings_defaults") {
		fillUserSettingsDefaults(r, me, req, out)
	}
}

func fillUserSettingsDefaults(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	s := r.userSettingsDefaults()
	view := r.settingsView(s, "", s.EmailAddressVisibility)
	out.UserSettingsDefaultsState = &UserSettingsDefaultsState{UserSettingsDefaults: UserSettingsDefaultsView{SettingsView: view}}
}
