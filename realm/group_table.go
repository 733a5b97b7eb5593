package realm

import (
	"fmt"
	"maps"
	"slices"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// This file holds the user groups table, system groups included, with its
// copy, fixture and register section.

// groupTable holds the realm's user groups.
type groupTable struct {
	byID   map[int]*group.Group
	byName map[string]*group.Group
	nextID int
}

func (t *groupTable) clone() groupTable {
	c := groupTable{nextID: t.nextID}
	c.byID, c.byName = cloneIndexed(t.byID, t.byName, cloneGroup, func(g *group.Group) int { return g.ID })
	return c
}

func cloneGroup(g *group.Group) *group.Group {
	c := *g
	c.Members = maps.Clone(g.Members)
	c.Subgroups = maps.Clone(g.Subgroups)
	c.Settings = g.Settings.Clone()
	return &c
}

func (r *Realm) addGroup(name, description string, system bool) *group.Group {
	g := group.New(r.groups.nextID, name, description, system)
	r.groups.nextID++
	r.groups.byID[g.ID] = g
	r.groups.byName[name] = g
	return g
}

func (r *Realm) lookupGroup(id int) *group.Group { return r.groups.byID[id] }

// inGroup reports whether the user belongs to the group setting's group,
// recursively through subgroups.
func (r *Realm) inGroup(groupID, userID int) bool {
	g := r.groups.byID[groupID]
	if g == nil || g.Deactivated {
		return false
	}
	if members, ok := r.groupMemberSet(g); ok {
		_, in := members[userID]
		return in
	}
	return group.HasMember(g, userID, r.lookupGroup)
}

// dump adds the user groups other than system groups to f, by ID.
func (t *groupTable) dump(r *Realm, f *fixture.Document) error {
	for _, id := range slices.Sorted(maps.Keys(t.byID)) {
		g := t.byID[id]
		if g.IsSystem {
			continue
		}
		fg := fixture.Group{ID: g.ID, Name: g.Name, Description: g.Description, Deactivated: g.Deactivated,
			Members: slices.Sorted(maps.Keys(g.Members)), CreatorID: g.CreatorID, DateCreated: g.DateCreated,
			Settings: map[string]GroupSetting{}}
		if len(g.Subgroups) > 0 {
			fg.Subgroups = slices.Sorted(maps.Keys(g.Subgroups))
		}
		if fg.Members == nil {
			fg.Members = []int{}
		}
		for _, name := range group.SettingNames {
			v, _ := g.Settings.Get(name)
			fg.Settings[name] = v.Clone()
		}
		f.Groups = append(f.Groups, fg)
	}
	return nil
}

func (t *groupTable) load(r *Realm, f *fixture.Document) error {
	// Every group first, so that members, subgroups and settings may name
	// groups listed later.
	defaults := r.defaultGroupSettings()
	ids := []int{}
	for i, fg := range f.Groups {
		at := fmt.Sprintf("groups[%d]", i)
		if g := r.groups.byID[fg.ID]; fg.ID <= 0 || g != nil {
			if g != nil && g.IsSystem {
				return badItem(at+".id", "%d is the ID of the system group %s", fg.ID, g.Name)
			}
			return badItem(at+".id", "%s group ID %d", invalidOrDuplicate(fg.ID <= 0), fg.ID)
		}
		name, err := r.checkGroupName(fg.Name, 0)
		if err != nil {
			return badItem(at+".name", "%s", reason(err))
		}
		r.groups.nextID = fg.ID
		g := r.addGroup(name, fg.Description, false)
		g.Deactivated, g.CreatorID, g.DateCreated, g.Settings = fg.Deactivated, fg.CreatorID, fg.DateCreated, defaults
		ids = append(ids, fg.ID)
	}
	r.groups.nextID = nextAfter(r.groups.nextID, ids...)
	for i, fg := range f.Groups {
		at := fmt.Sprintf("groups[%d]", i)
		g := r.groups.byID[fg.ID]
		if fg.CreatorID != 0 && r.users.byID[fg.CreatorID] == nil {
			return badItem(at+".creator_id", "no user %d", fg.CreatorID)
		}
		for j, uid := range fg.Members {
			if u := r.users.byID[uid]; u == nil || u.IsSystemBot {
				return badItem(fmt.Sprintf("%s.members[%d]", at, j), "no user %d", uid)
			}
			g.Members[uid] = struct{}{}
		}
		for j, sub := range fg.Subgroups {
			if r.groups.byID[sub] == nil || sub == fg.ID {
				return badItem(fmt.Sprintf("%s.subgroups[%d]", at, j), "no group %d other than this one", sub)
			}
			g.Subgroups[sub] = struct{}{}
		}
		for _, name := range slices.Sorted(maps.Keys(fg.Settings)) {
			if _, ok := g.Settings.Get(name); !ok {
				return badItem(at+".settings."+name, "unknown group setting")
			}
			v := fg.Settings[name]
			if err := r.checkFixtureGroupSetting(at+".settings."+name, v); err != nil {
				return err
			}
			if err := r.checkSettingForm("user_group", name, v); err != nil {
				return badItem(at+".settings."+name, "%s at this feature level", err.(*Error).Msg)
			}
			if err := r.checkFixtureSettingValue(at+".settings."+name, "group", name, v); err != nil {
				return err
			}
			g.Settings.Set(name, storedGroupSetting(v))
		}
	}
	for i, fg := range f.Groups {
		if r.subgroupCycle(fg.ID, map[int]bool{}) {
			return badItem(fmt.Sprintf("groups[%d].subgroups", i), "group %d contains itself through its subgroups", fg.ID)
		}
	}
	return nil
}

func (t *groupTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("realm_user_groups") {
		fillUserGroupsState(r, me, req, out)
	}
}

func fillUserGroupsState(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	out.RealmUserGroupsState = &RealmUserGroupsState{RealmUserGroups: r.userGroupList(req.Queue.Capabilities.IncludeDeactivatedGroups)}
}
