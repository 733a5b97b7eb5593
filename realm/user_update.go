package realm

import (
	"context"
	"slices"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/user"
)

// UserUpdate is an administrator's PATCH /users/{user_id}. Nil fields
// were not sent.
type UserUpdate struct {
	FullName *string
	Role     *int
	// ProfileData sets the user's custom profile field values; a nil or
	// empty value removes the user's value of that field.
	ProfileData []ProfileDataUpdate
	// NewEmail (feature level 285) changes the user's real address at
	// once, with no confirmation; it takes an administrator with the
	// can_change_user_emails permission (Realm.SetCanChangeUserEmails).
	NewEmail *string
}

// UpdateUser changes another user's name, role and profile data, as
// Zulip's PATCH /users/{user_id}: administrators may update anyone (bots
// and deactivated users included), a bot's owner the bot; changing a role
// takes an administrator, and an owner when the owner role is given or
// taken. The last owner keeps the role. A blank name is ignored (Zulip's
// rule). Everything is checked before anything changes.
func (a *Actor) UpdateUser(ctx context.Context, userID int, req UserUpdate) error {
	return a.updateUser(ctx, req, func(*user.User) *user.User { return a.r.users.byID[userID] })
}

// UpdateUserByEmail is UpdateUser for PATCH /users/{email} (feature level
// 313), the user found as GetUserByEmail finds them.
func (a *Actor) UpdateUserByEmail(ctx context.Context, email string, req UserUpdate) error {
	return a.updateUser(ctx, req, func(me *user.User) *user.User { return a.r.userByEmailFor(me, email) })
}

// updateUser applies req to the user find resolves, under the write lock.
func (a *Actor) updateUser(ctx context.Context, req UserUpdate, find func(me *user.User) *user.User) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		target := find(me)
		if target == nil || target.IsSystemBot {
			return noSuchUser()
		}
		if !me.Role.IsAdmin() && !(target.IsBot() && target.BotOwnerID == me.ID) {
			return BadRequest("Insufficient permission")
		}
		if req.NewEmail != nil && (!me.CanChangeUserEmails || !me.Role.IsAdmin()) {
			return BadRequest("User not authorized to change user emails")
		}
		role, err := r.checkRoleChange(me, target, req.Role)
		if err != nil {
			return err
		}
		var fullName string
		if req.FullName != nil && *req.FullName != target.FullName && !user.IsBlankName(*req.FullName) {
			if fullName, err = r.checkFullName(*req.FullName, target.ID); err != nil {
				return err
			}
		}
		profile, err := r.checkAdminProfileData(req.ProfileData)
		if err != nil {
			return err
		}
		newEmail, err := r.checkAdminNewEmail(target, req.NewEmail)
		if err != nil {
			return err
		}

		// Everything is valid: apply.
		if role != target.Role {
			r.changeRole(target, role)
		}
		if fullName != "" && fullName != target.FullName {
			target.FullName = fullName
			r.emit("realm_user", RealmUserUpdateEvent{Op: "update", Person: map[string]any{"user_id": target.ID, "full_name": fullName}},
				r.activeUserIDs()...)
		}
		r.applyProfileData(target, profile)
		if newEmail != "" {
			r.changeDeliveryEmail(target, newEmail)
		}
		return nil
	})
}

// checkRoleChange checks a requested role for target and returns the role
// target will have.
func (r *Realm) checkRoleChange(me, target *user.User, requested *int) (user.Role, error) {
	if requested == nil {
		return target.Role, nil
	}
	role := user.Role(*requested)
	if !role.Valid() {
		return 0, BadRequest("Invalid role")
	}
	if role == target.Role {
		return role, nil
	}
	if (role == user.RoleOwner || target.Role == user.RoleOwner) && me.Role != user.RoleOwner {
		return 0, UnauthorizedPrincipal("Must be an organization owner")
	}
	if !me.Role.IsAdmin() {
		return 0, UnauthorizedPrincipal("Must be an organization administrator")
	}
	if target.Role == user.RoleOwner && target.IsActive && r.activeOwnerCount() == 1 {
		return 0, BadRequest("The owner permission cannot be removed from the only organization owner.")
	}
	return role, nil
}

// changeRole gives u a new role, as Zulip's do_change_user_role: a
// realm_user update to the realm, u moved between the role's system groups
// (user_group events), and, from changeRoleChannelEvents, stream
// create/delete events to u for channels the new role shows or hides,
// with the subscribers of the channels shown (peer_add).
func (r *Realm) changeRole(u *user.User, role user.Role) {
	before := r.channelsKnownTo(u)
	old := u.Role
	u.Role = role
	r.emit("realm_user", RealmUserUpdateEvent{Op: "update", Person: map[string]any{"user_id": u.ID, "role": int(role)}},
		r.activeUserIDs()...)
	if !u.IsSystemBot {
		r.moveRoleGroups(u, old, role)
	}
	after := r.channelsKnownTo(u)
	if !u.IsActive || !r.has(changeRoleChannelEvents) {
		return
	}
	var gained []Stream
	var peers []*storedChannel
	for _, c := range after {
		if !slices.Contains(before, c) {
			gained = append(gained, r.streamView(c))
			peers = append(peers, c)
		}
	}
	if len(gained) > 0 {
		r.emit("stream", StreamCreateEvent{Op: "create", Streams: gained}, u.ID)
	}
	// Zulip's send_stream_events_for_role_update: the subscribers of
	// each channel the role shows.
	for _, c := range peers {
		if subs := r.activeSubscriberIDs(c.ID); len(subs) > 0 {
			r.emit("subscription", SubscriptionPeerEvent{Op: "peer_add", StreamIDs: []int{c.ID}, UserIDs: subs}, u.ID)
		}
	}
	for _, c := range before {
		if !slices.Contains(after, c) {
			r.emit("stream", r.streamDelete(c), u.ID)
		}
	}
}

// moveRoleGroups moves u's direct membership from the system group of
// role old to that of role new, role:fullmembers included, with the
// user_group events Zulip sends.
func (r *Realm) moveRoleGroups(u *user.User, old, new user.Role) {
	move := func(g *group.Group, in bool) {
		if _, ok := g.Members[u.ID]; ok == in {
			return
		}
		op := "remove_members"
		if in {
			g.Members[u.ID] = struct{}{}
			op = "add_members"
		} else {
			delete(g.Members, u.ID)
		}
		r.emitGroupChange(true, UserGroupMembersEvent{Op: op, GroupID: g.ID, UserIDs: []int{u.ID}})
	}
	move(r.groups.byName[group.RoleGroup(old)], false)
	move(r.groups.byName[group.RoleGroup(new)], true)
	if old == user.RoleMember || new == user.RoleMember {
		move(r.groups.byName[group.FullMembers], new == user.RoleMember && !r.provisional(u))
		r.armFullMembers()
	}
}

// channelsKnownTo lists, by ID, the unarchived channels u has metadata
// access to.
func (r *Realm) channelsKnownTo(u *user.User) []*storedChannel {
	var out []*storedChannel
	for _, c := range r.channels.byID {
		if !c.IsArchived && r.hasMetadataAccess(u, c) {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b *storedChannel) int { return a.ID - b.ID })
	return out
}

// profileChange is one checked profile data change: a value to store,
// or with remove the user's value to clear.
type profileChange struct {
	id     int
	value  string
	remove bool
}

// checkAdminProfileData checks an administrator's profile data update:
// every field must exist and every non-empty value be valid for it. A
// nil or empty value is a removal.
func (r *Realm) checkAdminProfileData(data []ProfileDataUpdate) ([]profileChange, error) {
	out := make([]profileChange, len(data))
	for i, d := range data {
		f := r.profileField(d.ID)
		if f == nil {
			return nil, BadRequest("Field id %d not found.", d.ID)
		}
		out[i].id = d.ID
		if s, ok := d.Value.(string); d.Value == nil || ok && s == "" {
			out[i].remove = true
			continue
		}
		v, err := r.checkProfileValue(f, d.Value)
		if err != nil {
			return nil, err
		}
		out[i].value = v
	}
	return out, nil
}

// applyProfileData applies checked changes to u's profile data, in order,
// with a realm_user event for each value that changed.
func (r *Realm) applyProfileData(u *user.User, changes []profileChange) {
	for _, c := range changes {
		old, had := u.ProfileData[c.id]
		switch {
		case c.remove && had:
			delete(u.ProfileData, c.id)
			r.emitProfileValue(u, c.id, nil)
		case c.remove, had && old.Value == c.value:
		default:
			if u.ProfileData == nil {
				u.ProfileData = map[int]user.ProfileValue{}
			}
			pv := r.profileValue(r.profileField(c.id), c.value)
			u.ProfileData[c.id] = pv
			r.emitProfileValue(u, c.id, &pv)
		}
	}
}
