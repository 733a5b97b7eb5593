// Package group holds user groups and the rules of their subgroup graph:
// recursive membership, system (role) groups, and cycle checks.
package group

import "github.com/minizulip/minizulip/user"

// System group names, in the order Zulip creates them for a realm.
const (
	Nobody         = "role:nobody"
	Owners         = "role:owners"
	Administrators = "role:administrators"
	Moderators     = "role:moderators"
	FullMembers    = "role:fullmembers"
	Members        = "role:members"
	Everyone       = "role:everyone"
	Internet       = "role:internet"
)

// displayNames are the names Zulip shows for the system groups.
var displayNames = map[string]string{
	Nobody: "Nobody", Owners: "Owners", Administrators: "Administrators",
	Moderators: "Moderators", FullMembers: "Full members", Members: "Members",
	Everyone: "Everyone", Internet: "Everyone on the internet",
}

// DisplayName is the name a mention of g shows: a system group's display
// name ("Everyone" for role:everyone), or the group's own name.
func DisplayName(g *Group) string {
	if d, ok := displayNames[g.Name]; ok && g.IsSystem {
		return d
	}
	return g.Name
}

// RoleGroup is the system group a user of this role is a direct member of
// (guests belong to role:everyone only; members also to role:fullmembers,
// which the realm adds).
func RoleGroup(role user.Role) string {
	switch role {
	case user.RoleOwner:
		return Owners
	case user.RoleAdmin:
		return Administrators
	case user.RoleModerator:
		return Moderators
	case user.RoleGuest:
		return Everyone
	}
	return Members
}

// Group is a user group. Members and Subgroups hold direct relations only.
type Group struct {
	ID          int
	Name        string
	Description string
	IsSystem    bool
	Deactivated bool
	Members     map[int]struct{} // direct member user IDs
	Subgroups   map[int]struct{} // direct subgroup IDs
	CreatorID   int              // 0 for system groups
	DateCreated int64            // UNIX seconds; 0 for system groups
	// Permission settings: each holds the group (named, or anonymous)
	// whose members have the permission.
	Settings Settings
}

// Settings are a group's permission settings, as group-setting values.
type Settings struct {
	CanAddMembers    Setting
	CanJoin          Setting
	CanLeave         Setting
	CanManage        Setting
	CanMention       Setting
	CanRemoveMembers Setting
}

// Clone copies the settings, sharing no slice with them.
func (s Settings) Clone() Settings {
	for _, name := range SettingNames {
		p := s.field(name)
		*p = p.Clone()
	}
	return s
}

// SettingNames are the API names of the permission settings, in order.
var SettingNames = []string{
	"can_add_members_group", "can_join_group", "can_leave_group",
	"can_manage_group", "can_mention_group", "can_remove_members_group",
}

// Get returns the value held by a setting, by its API name.
func (s *Settings) Get(name string) (Setting, bool) {
	p := s.field(name)
	if p == nil {
		return Setting{}, false
	}
	return *p, true
}

// Set stores a value in a setting, by its API name.
func (s *Settings) Set(name string, v Setting) bool {
	p := s.field(name)
	if p != nil {
		*p = v
	}
	return p != nil
}

func (s *Settings) field(name string) *Setting {
	switch name {
	case "can_add_members_group":
		return &s.CanAddMembers
	case "can_join_group":
		return &s.CanJoin
	case "can_leave_group":
		return &s.CanLeave
	case "can_manage_group":
		return &s.CanManage
	case "can_mention_group":
		return &s.CanMention
	case "can_remove_members_group":
		return &s.CanRemoveMembers
	}
	return nil
}

// New returns an empty active group.
func New(id int, name, description string, system bool) *Group {
	return &Group{ID: id, Name: name, Description: description, IsSystem: system,
		Members: map[int]struct{}{}, Subgroups: map[int]struct{}{}}
}

// Lookup finds a group by ID; the realm implements it over its storage.
type Lookup func(id int) *Group

// HasMember reports whether userID is a member of g, directly or through
// any depth of active subgroups. Each group is visited at most once, and
// groups that are not below g are never visited.
func HasMember(g *Group, userID int, lookup Lookup) bool {
	// Small fixed buffers keep the common shallow walk allocation-free.
	var stackBuf [16]*Group
	var seen visited
	stack := append(stackBuf[:0], g)
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if cur == nil || !seen.add(cur.ID) {
			continue
		}
		if _, ok := cur.Members[userID]; ok {
			return true
		}
		for id := range cur.Subgroups {
			if sub := lookup(id); sub != nil && !sub.Deactivated {
				stack = append(stack, sub)
			}
		}
	}
	return false
}

// visited is a set of group IDs: a small array for the few groups most
// walks visit, a map once there are more.
type visited struct {
	small [16]int
	n     int
	large map[int]bool
}

// add records id and reports whether it was new.
func (v *visited) add(id int) bool {
	if v.large != nil {
		if v.large[id] {
			return false
		}
		v.large[id] = true
		return true
	}
	for _, x := range v.small[:v.n] {
		if x == id {
			return false
		}
	}
	if v.n < len(v.small) {
		v.small[v.n] = id
		v.n++
		return true
	}
	v.large = make(map[int]bool, 2*len(v.small))
	for _, x := range v.small {
		v.large[x] = true
	}
	v.large[id] = true
	return true
}

// Reaches reports whether target is from, or a subgroup of from at any
// depth (deactivated groups included: the graph is structural).
func Reaches(from *Group, targetID int, lookup Lookup) bool {
	seen := map[int]bool{}
	stack := []*Group{from}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if cur == nil || seen[cur.ID] {
			continue
		}
		if cur.ID == targetID {
			return true
		}
		seen[cur.ID] = true
		for id := range cur.Subgroups {
			stack = append(stack, lookup(id))
		}
	}
	return false
}

// WouldCycle reports whether making child a subgroup of parent would
// create a cycle: parent is child itself or one of child's subgroups.
func WouldCycle(parent, child *Group, lookup Lookup) bool {
	return Reaches(child, parent.ID, lookup)
}

// MemberIDs lists every user in g, directly or through active subgroups,
// keeping those for which keep returns true (e.g. active users).
func MemberIDs(g *Group, lookup Lookup, keep func(userID int) bool) []int {
	seenGroups := map[int]bool{}
	seenUsers := map[int]bool{}
	var out []int
	stack := []*Group{g}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if cur == nil || seenGroups[cur.ID] {
			continue
		}
		seenGroups[cur.ID] = true
		for uid := range cur.Members {
			if !seenUsers[uid] && (keep == nil || keep(uid)) {
				seenUsers[uid] = true
				out = append(out, uid)
			}
		}
		for id := range cur.Subgroups {
			if sub := lookup(id); sub != nil && !sub.Deactivated {
				stack = append(stack, sub)
			}
		}
	}
	return out
}
