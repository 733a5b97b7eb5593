package httpapi

import (
	"encoding/json"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/realm"
)

func groupRoutes() []route {
	return []route{
		{method: "GET", path: "/user_groups", h: listUserGroups},
		{method: "POST", path: "/user_groups/create", h: createUserGroup},
		{method: "PATCH", path: "/user_groups/{group_id}", h: updateUserGroup},
		{method: "POST", path: "/user_groups/{group_id}/members", h: updateGroupMembers},
		{method: "GET", path: "/user_groups/{group_id}/members", h: getGroupMembers},
		{method: "POST", path: "/user_groups/{group_id}/subgroups", h: updateGroupSubgroups},
		{method: "GET", path: "/user_groups/{group_id}/subgroups", h: getGroupSubgroups},
		{method: "GET", path: "/user_groups/{group_id}/members/{user_id}", h: getGroupMembership},
		{method: "POST", path: "/user_groups/{group_id}/deactivate", h: deactivateUserGroup},
	}
}

// userGroupsAnswer is the body of GET /user_groups.
type userGroupsAnswer struct {
	UserGroups []realm.UserGroup `json:"user_groups"`
}

func listUserGroups(c *call) (any, error) {
	include, err := c.p.optBool("include_deactivated_groups", false)
	if err != nil {
		return nil, err
	}
	groups, err := c.actor.UserGroups(c.ctx(), realm.UserGroupsRequest{IncludeDeactivated: include})
	if err != nil {
		return nil, err
	}
	return userGroupsAnswer{UserGroups: groups}, nil
}

// groupSettingParams reads the can_*_group parameters of POST
// /user_groups/create: a group-setting value, a group ID or an anonymous
// group {"direct_members", "direct_subgroups"} (or, as some clients send,
// an object {"new": value}). Whether the realm's level takes anonymous
// groups is the realm's to say.
func groupSettingParams(c *call) (map[string]realm.GroupSetting, error) {
	out := map[string]realm.GroupSetting{}
	for _, name := range group.SettingNames {
		raw, ok := c.p.str(name)
		if !ok {
			continue
		}
		var change map[string]json.RawMessage
		if json.Unmarshal([]byte(raw), &change) == nil && change["new"] != nil {
			raw = string(change["new"])
		}
		v, ok := userGroupSettingValue(raw)
		if !ok {
			return nil, realm.BadRequest("%s is not an integer or a dict of direct members and subgroups", name)
		}
		out[name] = v
	}
	return out, nil
}

// userGroupSettingValue reads a group-setting value: a group ID, or an
// object with both "direct_members" and "direct_subgroups" lists of IDs.
// ID 0 becomes -1, so that the realm refuses it as an unknown group.
func userGroupSettingValue(raw string) (realm.GroupSetting, bool) {
	if id, err := parseJSONInt(raw); err == nil {
		if id == 0 {
			id = -1
		}
		return realm.NamedGroupSetting(id), true
	}
	var v struct {
		DirectMembers   *[]int `json:"direct_members"`
		DirectSubgroups *[]int `json:"direct_subgroups"`
	}
	if json.Unmarshal([]byte(raw), &v) != nil || v.DirectMembers == nil || v.DirectSubgroups == nil {
		return realm.GroupSetting{}, false
	}
	return realm.GroupSetting{DirectMembers: *v.DirectMembers, DirectSubgroups: *v.DirectSubgroups}, true
}

// groupSettingChangeParams reads the can_*_group parameters of PATCH
// /user_groups/{id}: from feature level 260 an object {"new": value,
// "old": value}, "old" optional, as Zulip takes them; below it a plain
// value. Each value is a group ID or an anonymous group (which the realm
// refuses below changeUserGroupSettingsAnonymous).
func groupSettingChangeParams(c *call) (values, old map[string]realm.GroupSetting, err error) {
	objects := c.srv.realm.Has(realm.ChangeGroupSettingChangeObjects)
	for _, name := range group.SettingNames {
		raw, ok := c.p.str(name)
		if !ok {
			continue
		}
		if values == nil {
			values = map[string]realm.GroupSetting{}
		}
		if !objects {
			v, ok := userGroupSettingValue(raw)
			if !ok {
				return nil, nil, realm.BadRequest("%s is not an integer", name)
			}
			values[name] = v
			continue
		}
		var change map[string]json.RawMessage
		if json.Unmarshal([]byte(raw), &change) != nil || change == nil {
			return nil, nil, realm.BadRequest("%s is not a dict", name)
		}
		newRaw, ok := change["new"]
		if !ok {
			return nil, nil, realm.BadRequest("%s[\"new\"] is missing", name)
		}
		v, ok := userGroupSettingValue(string(newRaw))
		if !ok {
			return nil, nil, realm.BadRequest("%s[\"new\"] is not an integer or a dict of direct members and subgroups", name)
		}
		values[name] = v
		if oldRaw, ok := change["old"]; ok && !isJSONNull(oldRaw) {
			v, ok := userGroupSettingValue(string(oldRaw))
			if !ok {
				return nil, nil, realm.BadRequest("%s[\"old\"] is not an integer or a dict of direct members and subgroups", name)
			}
			if old == nil {
				old = map[string]realm.GroupSetting{}
			}
			old[name] = v
		}
	}
	return values, old, nil
}

// createdGroup is the body of POST /user_groups/create.
type createdGroup struct {
	GroupID int `json:"group_id"`
}

func createUserGroup(c *call) (any, error) {
	var req realm.CreateGroupRequest
	var err error
	if req.Name, err = c.p.mustStr("name"); err != nil {
		return nil, err
	}
	req.Description, _ = c.p.str("description")
	if req.Members, _, err = c.p.optIntList("members"); err != nil {
		return nil, err
	}
	if req.Subgroups, _, err = c.p.optIntList("subgroups"); err != nil {
		return nil, err
	}
	if req.Settings, err = groupSettingParams(c); err != nil {
		return nil, err
	}
	id, err := c.actor.CreateUserGroup(c.ctx(), req)
	if err != nil {
		return nil, err
	}
	return createdGroup{GroupID: id}, nil
}

func updateUserGroup(c *call) (any, error) {
	id, err := c.pathInt("group_id")
	if err != nil {
		return nil, err
	}
	var req realm.UpdateGroupRequest
	if v, ok := c.p.str("name"); ok {
		req.Name = &v
	}
	if v, ok := c.p.str("description"); ok {
		req.Description = &v
	}
	if v, set, err := c.p.optBoolSet("deactivated"); err != nil {
		return nil, err
	} else if set {
		req.Deactivated = &v
	}
	if req.Settings, req.OldSettings, err = groupSettingChangeParams(c); err != nil {
		return nil, err
	}
	return nil, c.actor.UpdateUserGroup(c.ctx(), id, req)
}

func updateGroupMembers(c *call) (any, error) {
	id, err := c.pathInt("group_id")
	if err != nil {
		return nil, err
	}
	var change realm.GroupMembershipChange
	if change.Add, change.Delete, err = intListPair(c, "add", "delete"); err != nil {
		return nil, err
	}
	if change.AddSubgroups, change.DeleteSubgroups, err = intListPair(c, "add_subgroups", "delete_subgroups"); err != nil {
		return nil, err
	}
	return nil, c.actor.UpdateGroupMembership(c.ctx(), id, change)
}

// membersListAnswer is the body of GET /user_groups/{id}/members.
type membersListAnswer struct {
	Members []int `json:"members"`
}

func getGroupMembers(c *call) (any, error) {
	id, direct, err := groupAndFlag(c, "direct_member_only")
	if err != nil {
		return nil, err
	}
	members, err := c.actor.GroupMembers(c.ctx(), realm.GroupQuery{GroupID: id, DirectOnly: direct})
	if err != nil {
		return nil, err
	}
	return membersListAnswer{Members: members}, nil
}

func updateGroupSubgroups(c *call) (any, error) {
	id, err := c.pathInt("group_id")
	if err != nil {
		return nil, err
	}
	add, remove, err := intListPair(c, "add", "delete")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.UpdateGroupSubgroups(c.ctx(), id, add, remove)
}

// subgroupsAnswer is the body of GET /user_groups/{id}/subgroups.
type subgroupsAnswer struct {
	Subgroups []int `json:"subgroups"`
}

func getGroupSubgroups(c *call) (any, error) {
	id, direct, err := groupAndFlag(c, "direct_subgroup_only")
	if err != nil {
		return nil, err
	}
	subs, err := c.actor.GroupSubgroups(c.ctx(), realm.GroupQuery{GroupID: id, DirectOnly: direct})
	if err != nil {
		return nil, err
	}
	return subgroupsAnswer{Subgroups: subs}, nil
}

// membershipAnswer is the body of GET /user_groups/{id}/members/{user_id}.
type membershipAnswer struct {
	IsUserGroupMember bool `json:"is_user_group_member"`
}

func getGroupMembership(c *call) (any, error) {
	id, err := c.pathInt("group_id")
	if err != nil {
		return nil, err
	}
	userID, err := c.pathInt("user_id")
	if err != nil {
		return nil, err
	}
	direct, err := c.p.optBool("direct_member_only", false)
	if err != nil {
		return nil, err
	}
	ok, err := c.actor.IsGroupMember(c.ctx(), realm.GroupMemberQuery{GroupID: id, UserID: userID, DirectOnly: direct})
	if err != nil {
		return nil, err
	}
	return membershipAnswer{IsUserGroupMember: ok}, nil
}

func deactivateUserGroup(c *call) (any, error) {
	id, err := c.pathInt("group_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.DeactivateUserGroup(c.ctx(), id)
}

// intListPair reads two optional JSON lists of IDs, such as add/delete.
func intListPair(c *call, first, second string) (a, b []int, err error) {
	if a, _, err = c.p.optIntList(first); err != nil {
		return nil, nil, err
	}
	b, _, err = c.p.optIntList(second)
	return a, b, err
}

// groupAndFlag reads the group_id path parameter and one boolean flag.
func groupAndFlag(c *call, flag string) (id int, on bool, err error) {
	if id, err = c.pathInt("group_id"); err != nil {
		return 0, false, err
	}
	on, err = c.p.optBool(flag, false)
	return id, on, err
}
