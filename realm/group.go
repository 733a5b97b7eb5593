package realm

import (
	"context"
	"maps"
	"slices"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/user"
)

// UserGroup is a user group as register and GET /user_groups return it.
type UserGroup struct {
	ID                int    `json:"id"`
	Name              string `json:"name"`
	Description       string `json:"description"`
	Members           []int  `json:"members"`
	DirectSubgroupIDs []int  `json:"direct_subgroup_ids"`
	IsSystemGroup     bool   `json:"is_system_group"`
	CreatorID         *int   `json:"creator_id"`
	DateCreated       *int64 `json:"date_created"`
	Deactivated       bool   `json:"deactivated"`
	// The permission settings: a group ID, or (from
	// changeUserGroupSettingsAnonymous) an anonymous group.
	CanAddMembersGroup    GroupSetting `json:"can_add_members_group"`
	CanJoinGroup          GroupSetting `json:"can_join_group"`
	CanLeaveGroup         GroupSetting `json:"can_leave_group"`
	CanManageGroup        GroupSetting `json:"can_manage_group"`
	CanMentionGroup       GroupSetting `json:"can_mention_group"`
	CanRemoveMembersGroup GroupSetting `json:"can_remove_members_group"`
}

// userGroupView builds the API object of g.
func (r *Realm) userGroupView(g *group.Group) UserGroup {
	v := UserGroup{ID: g.ID, Name: g.Name, Description: g.Description, IsSystemGroup: g.IsSystem,
		Deactivated: g.Deactivated, Members: sortedKeys(g.Members), DirectSubgroupIDs: sortedKeys(g.Subgroups),
		CanAddMembersGroup: r.apiGroupSetting(g.Settings.CanAddMembers), CanJoinGroup: r.apiGroupSetting(g.Settings.CanJoin),
		CanLeaveGroup: r.apiGroupSetting(g.Settings.CanLeave), CanManageGroup: r.apiGroupSetting(g.Settings.CanManage),
		CanMentionGroup:       r.apiGroupSetting(g.Settings.CanMention),
		CanRemoveMembersGroup: r.apiGroupSetting(g.Settings.CanRemoveMembers)}
	v.Members = slices.DeleteFunc(v.Members, func(uid int) bool { return !r.shownAsGroupMember(uid) })
	if g.CreatorID != 0 {
		id, ts := g.CreatorID, g.DateCreated
		v.CreatorID, v.DateCreated = &id, &ts
	}
	return v
}

func sortedKeys(m map[int]struct{}) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// userGroupList lists groups by ID.
func (r *Realm) userGroupList(includeDeactivated bool) []UserGroup {
	list := []UserGroup{}
	for _, g := range r.groups.byID {
		if !g.Deactivated || includeDeactivated {
			list = append(list, r.userGroupView(g))
		}
	}
	slices.SortFunc(list, func(a, b UserGroup) int { return a.ID - b.ID })
	return list
}

// defaultGroupSettings are the permission settings of a new group: only
// managers add or remove members, anyone may leave or mention it. (The
// creator manages it through Group.CreatorID.)
func (r *Realm) defaultGroupSettings() group.Settings {
	var s group.Settings
	for name, rule := range userGroupSettingRules {
		def := rule.def
		if def == groupCreator {
			def = group.Nobody
		}
		s.Set(name, group.Named(r.groups.byName[def].ID))
	}
	return s
}

// UserGroupsRequest is GET /user_groups.
type UserGroupsRequest struct {
	IncludeDeactivated bool
}

// GroupQuery names a group for the membership queries, and whether only
// direct relations count (else subgroups at any depth do).
type GroupQuery struct {
	GroupID    int
	DirectOnly bool
}

// GroupMemberQuery asks whether a user is a member of a group.
type GroupMemberQuery struct {
	GroupID, UserID int
	DirectOnly      bool
}

// UserGroups answers GET /user_groups.
func (a *Actor) UserGroups(ctx context.Context, req UserGroupsRequest) (ans []UserGroup, err error) {
	r := a.r
	err = a.read(ctx, func(_ *user.User) error {
		ans = r.userGroupList(req.IncludeDeactivated)
		return nil
	})
	return ans, err
}

// CreateGroupRequest is POST /user_groups/create.
type CreateGroupRequest struct {
	Name        string
	Description string
	Members     []int
	Subgroups   []int
	// Settings holds permission settings by API name; absent ones take
	// the defaults.
	Settings map[string]GroupSetting
}

// CreateUserGroup creates a named group; the caller needs the realm's
// can_create_groups permission.
func (a *Actor) CreateUserGroup(ctx context.Context, req CreateGroupRequest) (ans int, err error) {
	r := a.r
	err = a.write(ctx, func(me *user.User) error {
		if me.IsGuest() || !r.settingHas(r.settings.CanCreateGroups, me.ID) {
			return BadRequest("Insufficient permission")
		}
		name, err := r.checkGroupName(req.Name, 0)
		if err != nil {
			return err
		}
		if err := noNull("description", req.Description); err != nil {
			return err
		}
		if err := r.checkUserIDs(req.Members); err != nil {
			return err
		}
		for _, id := range req.Subgroups {
			if _, err := r.usableGroup(id); err != nil {
				return err
			}
		}
		settings := r.defaultGroupSettings()
		if err := r.applyGroupSettings(&settings, req.Settings); err != nil {
			return err
		}
		g := r.addGroup(name, req.Description, false)
		g.CreatorID, g.DateCreated, g.Settings = me.ID, r.clock.Now().Unix(), settings
		for _, id := range req.Members {
			g.Members[id] = struct{}{}
		}
		for _, id := range req.Subgroups {
			g.Subgroups[id] = struct{}{}
		}
		r.emit("user_group", UserGroupAddEvent{Op: "add", Group: r.userGroupView(g)}, r.activeUserIDs()...)
		ans = g.ID
		return nil
	})
	return ans, err
}

// UpdateGroupRequest is PATCH /user_groups/{id}.
type UpdateGroupRequest struct {
	Name        *string
	Description *string
	// Deactivated may only be set to false, to reactivate the group.
	Deactivated *bool
	Settings    map[string]GroupSetting
	// OldSettings are the values the client believes current, for some
	// of Settings: if one is not, nothing changes and the call fails
	// with EXPECTATION_MISMATCH.
	OldSettings map[string]GroupSetting
}

// UpdateUserGroup renames, describes, reactivates or changes permission
// settings of a group. Deactivated groups may be renamed and reactivated.
func (a *Actor) UpdateUserGroup(ctx context.Context, id int, req UpdateGroupRequest) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		g, err := r.groupForUpdate(me, id)
		if err != nil {
			return err
		}
		if !r.has(changeGroupReactivation) {
			req.Deactivated = nil // no such parameter before 386
		}
		if req.Name == nil && req.Description == nil && req.Deactivated == nil && len(req.Settings) == 0 {
			return BadRequest("No new data supplied")
		}
		data := map[string]any{}
		var name string
		if req.Name != nil {
			if name, err = r.checkGroupName(*req.Name, g.ID); err != nil {
				return err
			}
			data["name"] = name
		}
		if err := noNullIn("description", req.Description); err != nil {
			return err
		}
		if g.Deactivated && !r.has(changeDeactivatedGroupEdits) && (req.Description != nil || len(req.Settings) > 0) {
			// Before 340 a deactivated group could only be renamed.
			return BadRequest("You can only change name of deactivated user groups")
		}
		if req.Deactivated != nil {
			if *req.Deactivated {
				return BadRequest("Use the deactivate endpoint to deactivate a group")
			}
			data["deactivated"] = false
		}
		settings := g.Settings
		for name, old := range req.OldSettings {
			if cur, ok := settings.Get(name); ok && !sameGroupSetting(r.apiGroupSetting(cur), r.normalizeGroupSetting(old)) {
				return &Error{Code: CodeExpectationMismatch, Status: statusBadRequest,
					Msg: "'old' value does not match the expected value."}
			}
		}
		if err := r.applyGroupSettings(&settings, req.Settings); err != nil {
			return err
		}
		for k := range req.Settings {
			v, _ := settings.Get(k)
			data[k] = r.apiGroupSetting(v)
		}
		// Apply.
		if req.Name != nil {
			delete(r.groups.byName, g.Name)
			g.Name = name
			r.groups.byName[name] = g
		}
		if req.Description != nil {
			g.Description = *req.Description
			data["description"] = g.Description
		}
		g.Settings = settings
		if req.Deactivated != nil && g.Deactivated {
			g.Deactivated = false
			r.emitChange(&change{typ: "user_group", payload: UserGroupAddEvent{Op: "add", Group: r.userGroupView(g)},
				filter: func(q *Queue) bool { return !q.Config().opts.Capabilities.IncludeDeactivatedGroups }}, r.activeUserIDs())
			r.emitChange(&change{typ: "user_group", payload: UserGroupUpdateEvent{Op: "update", GroupID: g.ID, Data: data},
				filter: func(q *Queue) bool { return q.Config().opts.Capabilities.IncludeDeactivatedGroups }}, r.activeUserIDs())
			return nil
		}
		r.emitGroupUpdate(g, data)
		return nil
	})
}

// GroupMembershipChange is one request to change a group's direct
// members and subgroups (POST /user_groups/{id}/members takes all four;
// POST /user_groups/{id}/subgroups the subgroup pair).
type GroupMembershipChange struct {
	Add, Delete                   []int // user IDs
	AddSubgroups, DeleteSubgroups []int // group IDs
}

// UpdateGroupMembers adds and removes direct members of a group.
func (a *Actor) UpdateGroupMembers(ctx context.Context, id int, add, remove []int) error {
	return a.UpdateGroupMembership(ctx, id, GroupMembershipChange{Add: add, Delete: remove})
}

// UpdateGroupSubgroups adds and removes direct subgroups. A cycle, an
// unknown group or a deactivated new subgroup is refused; subgroups of a
// deactivated group may be changed.
func (a *Actor) UpdateGroupSubgroups(ctx context.Context, id int, add, remove []int) error {
	return a.UpdateGroupMembership(ctx, id, GroupMembershipChange{AddSubgroups: add, DeleteSubgroups: remove})
}

// UpdateGroupMembership applies a membership change: every part is
// checked before any is applied, so a refused request changes nothing.
func (a *Actor) UpdateGroupMembership(ctx context.Context, id int, c GroupMembershipChange) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if me.IsBot() && !r.has(changeBotGroupRequests) {
			return BadRequest("This endpoint does not accept bot requests.")
		}
		members := len(c.Add) > 0 || len(c.Delete) > 0
		subgroups := len(c.AddSubgroups) > 0 || len(c.DeleteSubgroups) > 0
		if !members && !subgroups {
			return BadRequest("Nothing to do. Specify at least one of \"add\" or \"delete\".")
		}
		var g *group.Group
		var err error
		if subgroups {
			if g, err = r.checkSubgroupChange(me, id, c.AddSubgroups, c.DeleteSubgroups); err != nil {
				return err
			}
		}
		if members {
			if g, err = r.checkMemberChange(me, id, c.Add, c.Delete); err != nil {
				return err
			}
		}
		if subgroups {
			for _, sid := range c.AddSubgroups {
				g.Subgroups[sid] = struct{}{}
			}
			for _, sid := range c.DeleteSubgroups {
				delete(g.Subgroups, sid)
			}
			r.emitGroupChange(len(c.AddSubgroups) > 0, UserGroupSubgroupsEvent{Op: "add_subgroups", GroupID: g.ID, DirectSubgroupIDs: c.AddSubgroups})
			r.emitGroupChange(len(c.DeleteSubgroups) > 0, UserGroupSubgroupsEvent{Op: "remove_subgroups", GroupID: g.ID, DirectSubgroupIDs: c.DeleteSubgroups})
		}
		if members {
			for _, uid := range c.Add {
				g.Members[uid] = struct{}{}
			}
			for _, uid := range c.Delete {
				delete(g.Members, uid)
			}
			r.emitGroupChange(len(c.Add) > 0, UserGroupMembersEvent{Op: "add_members", GroupID: g.ID, UserIDs: c.Add})
			r.emitGroupChange(len(c.Delete) > 0, UserGroupMembersEvent{Op: "remove_members", GroupID: g.ID, UserIDs: c.Delete})
		}
		return nil
	})
}

// checkMemberChange validates adding and removing direct members: the
// group's managers may do both, others only what its can_join,
// can_leave, can_add_members and can_remove_members settings allow.
func (r *Realm) checkMemberChange(me *user.User, id int, add, remove []int) (*group.Group, error) {
	g := r.groups.byID[id]
	if g == nil {
		return nil, BadRequest("Invalid user group")
	}
	if g.IsSystem {
		return nil, BadRequest("Insufficient permission")
	}
	if g.Deactivated && !r.has(changeDeactivatedGroupMembers) {
		return nil, BadRequest("User group is deactivated.")
	}
	manage := r.canManageGroup(me, g)
	if err := r.checkUserIDs(add); err != nil {
		return nil, err
	}
	for _, uid := range add {
		if _, ok := g.Members[uid]; ok {
			return nil, BadRequest("User %d is already a member of this group.", uid)
		}
		self := uid == me.ID && r.settingHas(g.Settings.CanJoin, me.ID)
		if !manage && !self && !r.settingHas(g.Settings.CanAddMembers, me.ID) {
			return nil, BadRequest("Insufficient permission")
		}
	}
	for _, uid := range remove {
		if _, ok := g.Members[uid]; !ok {
			return nil, BadRequest("There is no member '%d' in this user group", uid)
		}
		self := uid == me.ID && r.settingHas(g.Settings.CanLeave, me.ID)
		if !manage && !self && !r.settingHas(g.Settings.CanRemoveMembers, me.ID) {
			return nil, BadRequest("Insufficient permission")
		}
	}
	return g, nil
}

// checkSubgroupChange validates adding and removing direct subgroups,
// refusing unknown or deactivated new subgroups and any cycle.
func (r *Realm) checkSubgroupChange(me *user.User, id int, add, remove []int) (*group.Group, error) {
	g, err := r.groupForUpdate(me, id)
	if err != nil {
		return nil, err
	}
	if g.Deactivated && !r.has(changeDeactivatedGroupSubgroups) {
		return nil, BadRequest("You can only change subgroups of an active group.")
	}
	for _, sid := range add {
		sub, err := r.usableGroup(sid)
		if err != nil {
			return nil, err
		}
		if _, ok := g.Subgroups[sid]; ok {
			return nil, BadRequest("User group %d is already a subgroup of this group.", sid)
		}
		if group.WouldCycle(g, sub, r.lookupGroup) {
			return nil, BadRequest("User group %d is already a subgroup of one of the passed subgroups.", g.ID)
		}
	}
	for _, sid := range remove {
		if r.groups.byID[sid] == nil {
			return nil, BadRequest("Invalid user group")
		}
		if _, ok := g.Subgroups[sid]; !ok {
			return nil, BadRequest("User group %d is not a subgroup of this group.", sid)
		}
	}
	if group.AddWouldCycle(g, add, r.lookupGroup) {
		return nil, BadRequest("User group %d is already a subgroup of one of the passed subgroups.", g.ID)
	}
	return g, nil
}

// shownAsGroupMember reports whether a member of a group is shown as
// one: an active user; before feature level 303 a deactivated one too.
func (r *Realm) shownAsGroupMember(uid int) bool {
	u := r.users.byID[uid]
	return u != nil && (u.IsActive || !r.has(changeDeactivatedMembersHidden))
}

// GroupMembers answers GET /user_groups/{id}/members: active members,
// recursively through subgroups unless directOnly.
func (a *Actor) GroupMembers(ctx context.Context, q GroupQuery) (ans []int, err error) {
	r := a.r
	id, directOnly := q.GroupID, q.DirectOnly
	err = a.read(ctx, func(_ *user.User) error {
		g := r.groups.byID[id]
		if g == nil {
			return BadRequest("Invalid user group")
		}
		active := r.shownAsGroupMember
		var out []int
		if directOnly {
			for uid := range g.Members {
				if active(uid) {
					out = append(out, uid)
				}
			}
		} else {
			out = group.MemberIDs(g, r.lookupGroup, active)
		}
		slices.Sort(out)
		if out == nil {
			out = []int{}
		}
		ans = out
		return nil
	})
	return ans, err
}

// GroupSubgroups answers GET /user_groups/{id}/subgroups.
func (a *Actor) GroupSubgroups(ctx context.Context, q GroupQuery) (ans []int, err error) {
	r := a.r
	id, directOnly := q.GroupID, q.DirectOnly
	err = a.read(ctx, func(_ *user.User) error {
		g := r.groups.byID[id]
		if g == nil {
			return BadRequest("Invalid user group")
		}
		out := []int{}
		seen := map[int]bool{g.ID: true}
		stack := sortedKeys(g.Subgroups)
		for len(stack) > 0 {
			sid := stack[0]
			stack = stack[1:]
			if seen[sid] {
				continue
			}
			seen[sid] = true
			out = append(out, sid)
			if sub := r.groups.byID[sid]; sub != nil && !directOnly {
				stack = append(stack, sortedKeys(sub.Subgroups)...)
			}
		}
		slices.Sort(out)
		ans = out
		return nil
	})
	return ans, err
}

// IsGroupMember answers GET /user_groups/{id}/members/{user_id}. A
// deactivated user is never a member.
func (a *Actor) IsGroupMember(ctx context.Context, q GroupMemberQuery) (ans bool, err error) {
	r := a.r
	id, userID, directOnly := q.GroupID, q.UserID, q.DirectOnly
	err = a.read(ctx, func(me *user.User) error {
		if me.IsBot() && !r.has(changeBotGroupRequests) {
			return BadRequest("This endpoint does not accept bot requests.")
		}
		g := r.groups.byID[id]
		if g == nil {
			return BadRequest("Invalid user group")
		}
		u := r.users.byID[userID]
		if u == nil || u.IsSystemBot || (u.IsBot() && !r.has(changeBotMembershipLookup)) {
			return noSuchUser()
		}
		if !r.shownAsGroupMember(u.ID) {
			ans = false
			return nil
		}
		if directOnly {
			_, ok := g.Members[userID]
			ans = ok
			return nil
		}
		ans = group.HasMember(g, userID, r.lookupGroup)
		return nil
	})
	return ans, err
}

// DeactivateUserGroup deactivates a named group that nothing uses.
func (a *Actor) DeactivateUserGroup(ctx context.Context, id int) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		g, err := r.groupForUpdate(me, id)
		if err != nil {
			return err
		}
		if g.Deactivated {
			return BadRequest("User group is already deactivated.")
		}
		if objections := r.groupObjections(g); len(objections) > 0 {
			if !r.has(changeGroupInUseCode) {
				return BadRequest("Cannot deactivate user group in use.")
			}
			return &Error{Code: CodeCannotDeactivateGroupInUse, Msg: "Cannot deactivate user group in use.", Status: 400,
				Extra: map[string]any{"objections": objections}}
		}
		g.Deactivated = true
		r.emitChange(&change{typ: "user_group", payload: UserGroupRemoveEvent{Op: "remove", GroupID: g.ID},
			filter: func(q *Queue) bool { return !q.Config().opts.Capabilities.IncludeDeactivatedGroups }}, r.activeUserIDs())
		r.emitChange(&change{typ: "user_group", payload: UserGroupUpdateEvent{Op: "update", GroupID: g.ID, Data: map[string]any{"deactivated": true}},
			filter: func(q *Queue) bool { return q.Config().opts.Capabilities.IncludeDeactivatedGroups }}, r.activeUserIDs())
		return nil
	})
}

// sortedGroups lists every group by ID.
func (r *Realm) sortedGroups() []*group.Group {
	out := make([]*group.Group, 0, len(r.groups.byID))
	for _, g := range r.groups.byID {
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b *group.Group) int { return a.ID - b.ID })
	return out
}

// groupForUpdate finds a group the actor may manage: not a system group.
func (r *Realm) groupForUpdate(me *user.User, id int) (*group.Group, error) {
	g := r.groups.byID[id]
	if g == nil {
		return nil, BadRequest("Invalid user group")
	}
	if g.IsSystem || !r.canManageGroup(me, g) {
		return nil, BadRequest("Insufficient permission")
	}
	return g, nil
}

// canManageGroup: members of can_manage_all_groups (role:owners unless
// changed), the creator, and members of the group's can_manage_group.
// Below changeManageAllGroupsAnyGroup, can_manage_all_groups lets its
// members manage only the groups they belong to, unless they are
// moderators or above.
func (r *Realm) canManageGroup(me *user.User, g *group.Group) bool {
	if g.IsSystem {
		return false
	}
	all := r.settingHas(r.settings.CanManageAllGroups, me.ID) &&
		(r.has(changeManageAllGroupsAnyGroup) || me.Role.IsModeratorOrAbove() || r.inGroup(g.ID, me.ID))
	return all || g.CreatorID == me.ID || r.settingHas(g.Settings.CanManage, me.ID)
}

// usableGroup returns an active group that may be used as a subgroup or a
// setting value.
func (r *Realm) usableGroup(id int) (*group.Group, error) {
	g := r.groups.byID[id]
	if g == nil {
		return nil, BadRequest("Invalid user group")
	}
	if g.Deactivated {
		return nil, BadRequest("User group %d is deactivated.", id)
	}
	return g, nil
}

// applyGroupSettings validates and stores permission settings by name:
// a group ID, or where the level allows an anonymous group (kept sorted,
// one subgroup and no members read as that subgroup). Nothing is stored
// unless every value is valid.
func (r *Realm) applyGroupSettings(s *group.Settings, values map[string]GroupSetting) error {
	stored := map[string]GroupSetting{}
	for _, name := range slices.Sorted(maps.Keys(values)) {
		v := values[name]
		if _, ok := s.Get(name); !ok {
			return BadRequest("Invalid setting: %s", name)
		}
		if err := r.checkSettingForm("user_group", name, v); err != nil {
			return err
		}
		v = r.normalizeGroupSetting(v)
		if v.GroupID == 0 {
			if err := r.checkAnonymousGroup(v); err != nil {
				return err
			}
			stored[name] = storedGroupSetting(v)
			continue
		}
		g, err := r.usableGroup(v.GroupID)
		if err != nil {
			return err
		}
		p, _ := r.permissionSetting("group", name)
		if err := checkNamedSettingValue(name, p, g); err != nil {
			return err
		}
		stored[name] = v
	}
	for name, v := range stored {
		s.Set(name, v)
	}
	return nil
}

// checkGroupName validates a group name; selfID is the group being renamed.
func (r *Realm) checkGroupName(raw string, selfID int) (string, error) {
	name, err := group.CheckName(raw)
	if err != nil {
		return "", BadRequest("%s", err.Error())
	}
	if g := r.groups.byName[name]; g != nil && g.ID != selfID {
		return "", BadRequest("User group '%s' already exists.", name)
	}
	return name, nil
}

// checkUserIDs checks that every ID names an active user.
func (r *Realm) checkUserIDs(ids []int) error {
	for _, id := range ids {
		if u := r.users.byID[id]; u == nil || !u.IsActive || u.IsSystemBot {
			return BadRequest("Invalid user ID: %d", id)
		}
	}
	return nil
}

// activeUserIDs lists every active account of the realm.
func (r *Realm) activeUserIDs() []int {
	out := make([]int, 0, len(r.users.byID))
	for id, u := range r.users.byID {
		if u.IsActive && !u.IsSystemBot {
			out = append(out, id)
		}
	}
	return out
}
