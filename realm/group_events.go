package realm

import "github.com/minizulip/minizulip/group"

// emitGroupChange sends a user_group event to the whole realm when the
// change it describes happened.
func (r *Realm) emitGroupChange(happened bool, payload EventPayload) {
	if happened {
		r.emit("user_group", payload, r.activeUserIDs()...)
	}
}

// emitGroupUpdate sends a group's changed fields to the whole realm.
func (r *Realm) emitGroupUpdate(g *group.Group, data map[string]any) {
	r.emit("user_group", UserGroupUpdateEvent{Op: "update", GroupID: g.ID, Data: data}, r.activeUserIDs()...)
}

// UserGroupAddEvent announces a new (or, to clients without
// include_deactivated_groups, reactivated) group.
type UserGroupAddEvent struct {
	Op    string    `json:"op"`
	Group UserGroup `json:"group"`
}

// UserGroupUpdateEvent carries a group's changed fields.
type UserGroupUpdateEvent struct {
	Op      string         `json:"op"`
	GroupID int            `json:"group_id"`
	Data    map[string]any `json:"data"`
}

// UserGroupMembersEvent reports added or removed direct members.
type UserGroupMembersEvent struct {
	Op      string `json:"op"`
	GroupID int    `json:"group_id"`
	UserIDs []int  `json:"user_ids"`
}

// UserGroupSubgroupsEvent reports added or removed direct subgroups.
type UserGroupSubgroupsEvent struct {
	Op                string `json:"op"`
	GroupID           int    `json:"group_id"`
	DirectSubgroupIDs []int  `json:"direct_subgroup_ids"`
}

// UserGroupRemoveEvent removes a group from clients' lists.
type UserGroupRemoveEvent struct {
	Op      string `json:"op"`
	GroupID int    `json:"group_id"`
}
