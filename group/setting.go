package group

import (
	"encoding/json"
	"errors"
	"slices"
)

// Setting is a group-setting value: a named user group (GroupID), or,
// when GroupID is 0, an anonymous group of direct members and subgroups.
// It is sent as the group ID or as {"direct_members", "direct_subgroups"}.
type Setting struct {
	GroupID         int
	DirectMembers   []int
	DirectSubgroups []int
}

// Named is the setting value naming one user group.
func Named(groupID int) Setting { return Setting{GroupID: groupID} }

// Names reports whether the value is the named group id or an anonymous
// group with id among its direct subgroups.
func (g Setting) Names(id int) bool {
	return g.GroupID == id || (g.GroupID == 0 && slices.Contains(g.DirectSubgroups, id))
}

// HasDirectMember reports whether the value is an anonymous group with
// userID among its direct members.
func (g Setting) HasDirectMember(userID int) bool {
	return g.GroupID == 0 && slices.Contains(g.DirectMembers, userID)
}

// Clone copies the setting, sharing no slice with it.
func (g Setting) Clone() Setting {
	g.DirectMembers = slices.Clone(g.DirectMembers)
	g.DirectSubgroups = slices.Clone(g.DirectSubgroups)
	return g
}

type anonymousJSON struct {
	DirectMembers   []int `json:"direct_members"`
	DirectSubgroups []int `json:"direct_subgroups"`
}

// MarshalJSON sends a named group as its ID, an anonymous one as an object.
func (g Setting) MarshalJSON() ([]byte, error) {
	if g.GroupID != 0 {
		return json.Marshal(g.GroupID)
	}
	v := anonymousJSON{DirectMembers: g.DirectMembers, DirectSubgroups: g.DirectSubgroups}
	if v.DirectMembers == nil {
		v.DirectMembers = []int{}
	}
	if v.DirectSubgroups == nil {
		v.DirectSubgroups = []int{}
	}
	return json.Marshal(v)
}

// UnmarshalJSON accepts a group ID or a {"direct_members",
// "direct_subgroups"} object, as clients send group settings.
func (g *Setting) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return errors.New("a group setting cannot be null")
	}
	var id int
	if err := json.Unmarshal(b, &id); err == nil {
		*g = Setting{GroupID: id}
		return nil
	}
	var v anonymousJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*g = Setting{DirectMembers: v.DirectMembers, DirectSubgroups: v.DirectSubgroups}
	return nil
}
