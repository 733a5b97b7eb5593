package realm

import (
	"context"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/user"
)

// SettingsUpdate is a PATCH /settings request. Nil fields were not sent.
type SettingsUpdate struct {
	FullName *string
	// Email starts a change of address that waits for confirmation (see
	// Realm.Outbox and Realm.ConfirmEmailChange).
	Email *string
	// NewPassword needs OldPassword, the current password.
	OldPassword, NewPassword *string
	// Timezone is an IANA time zone name.
	Timezone *string
	// Settings maps personal settings' API names (user.SettingDefs) to
	// new values: a bool, an int or a string, as the setting's kind says.
	Settings map[string]any
	// TargetUsers, set by administrators only, applies the update to
	// other users instead of the caller.
	TargetUsers *TargetUsers
}

// TargetUsers chooses the users of an administrator's bulk settings
// update: users listed by ID (deactivated ones too) and the active members
// of groups (through subgroups). Bots are left out.
type TargetUsers struct {
	UserIDs  []int
	GroupIDs []int
	// SkipIfAlreadyEdited leaves, setting by setting, every user who has
	// changed that setting themselves.
	SkipIfAlreadyEdited bool
}

// UpdateSettings changes personal settings, as PATCH /settings: the
// caller's own, or an administrator's bulk update of TargetUsers. Humans
// only. Every value and every target is checked before anything changes.
// Each changed setting is a user_settings event to its user (plus the
// legacy update_display_settings or update_global_notifications event to
// clients without the user_settings_object capability); name, time zone
// and email visibility changes are realm_user events to the realm.
func (a *Actor) UpdateSettings(ctx context.Context, req SettingsUpdate) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if me.IsBot() {
			return BadRequest("This endpoint does not accept bot requests.")
		}
		targets, err := r.settingsTargets(me, req)
		if err != nil {
			return err
		}
		changes, err := r.checkSettingValues(req.Settings)
		if err != nil {
			return err
		}
		if req.Timezone != nil {
			if !user.ValidTimezone(*req.Timezone) {
				return BadRequest("timezone is not a recognized time zone")
			}
			// Stored as Zulip sends it: an alias as the zone it names.
			tz := user.CanonicalTimezone(*req.Timezone)
			req.Timezone = &tz
		}
		if req.NewPassword != nil {
			if req.OldPassword == nil || !user.CheckPassword(me.PasswordHash, *req.OldPassword) {
				return BadRequest("Wrong password!")
			}
			if *req.NewPassword == "" {
				return BadRequest("New password is too weak!")
			}
		}
		newEmail, err := r.checkNewEmail(me, req.Email)
		if err != nil {
			return err
		}
		var fullName string
		if req.FullName != nil && r.settings.NameChangesDisabled && !me.Role.IsAdmin() {
			// Zulip ignores the change silently: its clients do not
			// offer it.
			req.FullName = nil
		}
		if req.FullName != nil {
			if fullName, err = r.checkFullName(*req.FullName, me.ID); err != nil {
				return err
			}
		}

		// Everything is valid: apply.
		if req.NewPassword != nil {
			me.PasswordHash = user.HashPassword(*req.NewPassword)
		}
		if newEmail != "" {
			r.startEmailChange(me, newEmail)
		}
		for _, u := range targets {
			if req.FullName != nil && fullName != u.FullName {
				u.FullName = fullName
				r.emit("realm_user", RealmUserUpdateEvent{Op: "update", Person: map[string]any{"user_id": u.ID, "full_name": fullName}},
					r.activeUserIDs()...)
			}
			for _, c := range changes {
				r.applySetting(me, u, c, req.TargetUsers != nil && req.TargetUsers.SkipIfAlreadyEdited)
			}
			if req.Timezone != nil && *req.Timezone != u.Timezone {
				r.changeTimezone(u, *req.Timezone)
			}
		}
		return nil
	})
}

// settingChange is one checked setting of an update.
type settingChange struct {
	def   user.SettingDef
	value any
}

// checkSettingValues checks every setting of an update and returns them
// in the order of user.SettingDefs.
func (r *Realm) checkSettingValues(values map[string]any) ([]settingChange, error) {
	for name := range values {
		if _, ok := user.LookupSetting(name); !ok {
			return nil, BadRequest("Invalid setting: %s", name)
		}
	}
	var out []settingChange
	for _, d := range user.SettingDefs {
		v, ok := values[d.Name]
		if !ok {
			continue
		}
		v, err := r.settingFromWire(d, v)
		if err != nil {
			return nil, err
		}
		out = append(out, settingChange{def: d, value: v})
	}
	return out, nil
}

// settingsTargets are the users an update applies to: the caller, or an
// administrator's TargetUsers, sorted by ID.
func (r *Realm) settingsTargets(me *user.User, req SettingsUpdate) ([]*user.User, error) {
	t := req.TargetUsers
	if t == nil {
		return []*user.User{me}, nil
	}
	if !me.Role.IsAdmin() {
		return nil, UnauthorizedPrincipal("Must be an organization administrator")
	}
	for _, p := range []struct {
		name string
		set  bool
	}{{"email", req.Email != nil}, {"new_password", req.NewPassword != nil}, {"timezone", req.Timezone != nil}} {
		if p.set {
			return nil, BadRequest("%s cannot be changed for other users", p.name)
		}
	}
	if len(t.UserIDs) == 0 && len(t.GroupIDs) == 0 {
		return nil, BadRequest("target_users must name user_ids or group_ids")
	}
	chosen := map[int]*user.User{}
	for _, id := range t.UserIDs {
		u := r.realmUser(id)
		if u == nil {
			return nil, BadRequest("Invalid user ID: %d", id)
		}
		if !u.IsBot() {
			chosen[id] = u
		}
	}
	for _, id := range t.GroupIDs {
		g := r.groups.byID[id]
		if g == nil || g.Deactivated {
			return nil, BadRequest("Invalid user group")
		}
		for _, uid := range group.MemberIDs(g, r.lookupGroup, func(uid int) bool {
			u := r.realmUser(uid)
			return u != nil && u.IsActive && !u.IsBot()
		}) {
			chosen[uid] = r.users.byID[uid]
		}
	}
	out := make([]*user.User, 0, len(chosen))
	for _, u := range chosen {
		out = append(out, u)
	}
	slices.SortFunc(out, func(a, b *user.User) int { return a.ID - b.ID })
	return out, nil
}

// checkNewEmail checks the address of an email change; it returns "" when
// there is nothing to change.
func (r *Realm) checkNewEmail(me *user.User, email *string) (string, error) {
	if email == nil {
		return "", nil
	}
	addr := strings.TrimSpace(*email)
	if addr == me.DeliveryEmail {
		return "", nil
	}
	if r.settings.EmailChangesDisabled && !me.Role.IsAdmin() {
		return "", BadRequest("Email address changes are disabled in this organization.")
	}
	if !user.ValidNewEmail(addr) {
		return "", BadRequest("Invalid address.")
	}
	if refusal := r.emailRefusalOf(addr); refusal != emailAllowed {
		return "", BadRequest("%s", refusal.inviteMessage())
	}
	if other := r.users.byEmail[user.NormalizeEmail(addr)]; other != nil {
		if !other.IsActive {
			return "", BadRequest("Account has been deactivated.")
		}
		return "", BadRequest("Already has an account.")
	}
	return addr, nil
}

// applySetting stores one setting of u and tells u's clients; a setting
// u changed themselves is left alone when skipEdited.
func (r *Realm) applySetting(me, u *user.User, c settingChange, skipEdited bool) {
	if skipEdited && u.EditedSettings[c.def.Name] {
		return
	}
	if u.ID == me.ID {
		if u.EditedSettings == nil {
			u.EditedSettings = map[string]bool{}
		}
		u.EditedSettings[c.def.Name] = true
	}
	if c.def.Name == "email_address_visibility" {
		if user.EmailVisibility(c.value.(int)) == r.emailVisibilityOf(u) {
			c.def.Set(&u.Settings, c.value) // the realm default, now the user's own
			return
		}
		beforeEmail, beforeSeeing := r.apiEmail(u), r.usersSeeingEmail(u)
		c.def.Set(&u.Settings, c.value)
		r.emitSettingEvent(u, c.def, c.value)
		r.emitEmailVisibilityChange(u, beforeEmail, beforeSeeing)
		return
	}
	old := c.def.Get(&u.Settings)
	if c.def.Name == "presence_enabled" {
		if c.value != old {
			r.setPresenceEnabled(u, c.value.(bool)) // the realm sees the user go on- or offline
		}
		return
	}
	c.def.Set(&u.Settings, c.value)
	if c.def.Name == "enable_drafts_synchronization" && c.value == false {
		r.forgetDrafts(u.ID) // even when already off, as Zulip does
	}
	if c.def.Get(&u.Settings) == old {
		return
	}
	r.emitSettingEvent(u, c.def, c.def.Get(&u.Settings))
	if c.def.Name == "allow_private_data_export" {
		r.emitExportConsent(u)
	}
}

// changeTimezone stores u's time zone and tells u's clients (a settings
// event) and the realm (realm_user update).
func (r *Realm) changeTimezone(u *user.User, tz string) {
	u.Timezone = tz
	def := user.SettingDef{Name: "timezone", Kind: user.StringSetting, Legacy: user.LegacyDisplay}
	r.emitSettingEvent(u, def, tz)
	r.emit("realm_user", RealmUserUpdateEvent{Op: "update", Person: map[string]any{
		"email": r.apiEmail(u), "user_id": u.ID, "timezone": tz}}, r.activeUserIDs()...)
}
