package realm

import (
	"slices"
	"testing"
)

func groupID(t *testing.T, r *Realm, name string) int {
	t.Helper()
	r.mu.RLock()
	defer r.mu.RUnlock()
	g := r.groups.byName[name]
	if g == nil {
		t.Fatalf("no group %s", name)
	}
	return g.ID
}

func TestCreateAndListUserGroups(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idCordelia, QueueOptions{EventTypes: []string{"user_group"}})
	id, err := r.As(idHamlet).CreateUserGroup(bg, CreateGroupRequest{Name: "  players ", Description: "The players",
		Members: []int{idHamlet, idOthello}, Subgroups: []int{groupID(t, r, "hamletcharacters")}})
	if err != nil {
		t.Fatal(err)
	}
	groups, _ := r.As(idIago).UserGroups(bg, UserGroupsRequest{})
	var g *UserGroup
	for i := range groups {
		if groups[i].ID == id {
			g = &groups[i]
		}
	}
	if g == nil || g.Name != "players" || !slices.Equal(g.Members, []int{idHamlet, idOthello}) || *g.CreatorID != idHamlet ||
		g.IsSystemGroup || len(g.DirectSubgroupIDs) != 1 {
		t.Fatalf("group %+v", g)
	}
	evs := pending(t, r, idCordelia, q, -1)
	if len(evs) != 1 || eventJSON(t, evs[0])["op"] != "add" {
		t.Fatalf("events %+v", evs)
	}
	for name, msg := range map[string]string{"": "User group name can't be empty!", "role:x": "cannot start with 'role:'",
		"@x": "cannot start with '@'", "players": "User group 'players' already exists."} {
		_, err := r.As(idHamlet).CreateUserGroup(bg, CreateGroupRequest{Name: name})
		wantCode(t, err, CodeBadRequest, msg)
	}
	_, err = r.As(idHamlet).CreateUserGroup(bg, CreateGroupRequest{Name: "ghosts", Members: []int{999}})
	wantCode(t, err, CodeBadRequest, "Invalid user ID: 999")
	_, err = r.As(idHamlet).CreateUserGroup(bg, CreateGroupRequest{Name: "ghosts", Subgroups: []int{999}})
	wantCode(t, err, CodeBadRequest, "Invalid user group")
	_, err = r.As(idPolonius).CreateUserGroup(bg, CreateGroupRequest{Name: "ghosts"})
	wantCode(t, err, CodeBadRequest, "Insufficient permission")
	if after, _ := r.As(idIago).UserGroups(bg, UserGroupsRequest{IncludeDeactivated: true}); len(after) != len(groups) {
		t.Fatal("rejected creations stored groups")
	}
}

func TestRecursiveMembershipAndDeactivatedUsers(t *testing.T) {
	r, _ := newTestRealm(t)
	inner, _ := r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "inner", Members: []int{idOthello}})
	middle, _ := r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "middle", Subgroups: []int{inner}})
	outer, _ := r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "outer", Members: []int{idZoe}, Subgroups: []int{middle}})
	a := r.As(idHamlet)
	if ok, _ := a.IsGroupMember(bg, GroupMemberQuery{GroupID: outer, UserID: idOthello}); !ok {
		t.Fatal("othello is a member of outer through two subgroups")
	}
	if ok, _ := a.IsGroupMember(bg, GroupMemberQuery{GroupID: outer, UserID: idOthello, DirectOnly: true}); ok {
		t.Fatal("othello is not a direct member of outer")
	}
	if members, _ := a.GroupMembers(bg, GroupQuery{GroupID: outer}); !slices.Equal(members, []int{idZoe, idOthello}) {
		t.Fatalf("members %v", members)
	}
	if subs, _ := a.GroupSubgroups(bg, GroupQuery{GroupID: outer}); !slices.Equal(subs, []int{inner, middle}) {
		t.Fatalf("subgroups %v", subs)
	}
	r.mu.Lock()
	r.users.byID[idOthello].IsActive = false
	r.mu.Unlock()
	if ok, _ := a.IsGroupMember(bg, GroupMemberQuery{GroupID: outer, UserID: idOthello}); ok {
		t.Fatal("a deactivated user is not a member")
	}
	if members, _ := a.GroupMembers(bg, GroupQuery{GroupID: outer}); !slices.Equal(members, []int{idZoe}) {
		t.Fatalf("members after deactivation %v", members)
	}
	// System groups nest too: iago (administrator) is in role:members.
	if ok, _ := a.IsGroupMember(bg, GroupMemberQuery{GroupID: groupID(t, r, "role:members"), UserID: idIago}); !ok {
		t.Fatal("administrators are members")
	}
	_, err := a.IsGroupMember(bg, GroupMemberQuery{GroupID: 999, UserID: idIago})
	wantCode(t, err, CodeBadRequest, "Invalid user group")
	_, err = a.IsGroupMember(bg, GroupMemberQuery{GroupID: outer, UserID: 999})
	wantCode(t, err, CodeBadRequest, "No such user")
}

func TestSubgroupRules(t *testing.T) {
	r, _ := newTestRealm(t)
	a := r.As(idIago)
	g1, _ := a.CreateUserGroup(bg, CreateGroupRequest{Name: "g1"})
	g2, _ := a.CreateUserGroup(bg, CreateGroupRequest{Name: "g2", Subgroups: []int{g1}})
	g3, _ := a.CreateUserGroup(bg, CreateGroupRequest{Name: "g3", Subgroups: []int{g2}})
	wantCode(t, a.UpdateGroupSubgroups(bg, g1, []int{g3}, nil), CodeBadRequest, "already a subgroup of one of the passed subgroups")
	wantCode(t, a.UpdateGroupSubgroups(bg, g1, []int{g1}, nil), CodeBadRequest, "already a subgroup of one of the passed subgroups")
	wantCode(t, a.UpdateGroupSubgroups(bg, g3, []int{g2}, nil), CodeBadRequest, "User group "+itoa(g2)+" is already a subgroup of this group.")
	wantCode(t, a.UpdateGroupSubgroups(bg, g3, nil, []int{g1}), CodeBadRequest, "is not a subgroup of this group")
	wantCode(t, a.UpdateGroupSubgroups(bg, g3, []int{12345}, nil), CodeBadRequest, "Invalid user group")
	wantCode(t, a.UpdateGroupSubgroups(bg, groupID(t, r, "role:members"), []int{g1}, nil), CodeBadRequest, "Insufficient permission")
	wantCode(t, r.As(idOthello).UpdateGroupSubgroups(bg, g3, nil, []int{g2}), CodeBadRequest, "Insufficient permission")
	if subs, _ := a.GroupSubgroups(bg, GroupQuery{GroupID: g1, DirectOnly: true}); len(subs) != 0 {
		t.Fatal("a rejected change added subgroups")
	}
	if err := a.UpdateGroupSubgroups(bg, g3, nil, []int{g2}); err != nil {
		t.Fatal(err)
	}
	if err := a.UpdateGroupSubgroups(bg, g1, []int{g3}, nil); err != nil {
		t.Fatalf("no cycle once g2 is out of g3: %v", err)
	}
	// A deactivated group is not a valid new subgroup, but its own
	// subgroups may still change (feature level 391+).
	g4, _ := a.CreateUserGroup(bg, CreateGroupRequest{Name: "g4"})
	if err := a.DeactivateUserGroup(bg, g4); err != nil {
		t.Fatal(err)
	}
	wantCode(t, a.UpdateGroupSubgroups(bg, g2, []int{g4}, nil), CodeBadRequest, "deactivated")
	if err := a.UpdateGroupSubgroups(bg, g4, []int{g2}, nil); err != nil {
		t.Fatalf("subgroups of a deactivated group: %v", err)
	}
}

func TestBotsAndFeatureLevels(t *testing.T) {
	r, _ := newTestRealm(t)
	g, _ := r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "bots ok"})
	if _, err := r.As(idDefaultBot).IsGroupMember(bg, GroupMemberQuery{GroupID: g, UserID: idIago}); err != nil {
		t.Fatalf("bots may ask at level 496: %v", err)
	}
	old, _ := newTestRealm(t, WithFeatureLevel(390, "10.0"))
	g, _ = old.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "old"})
	_, err := old.As(idDefaultBot).IsGroupMember(bg, GroupMemberQuery{GroupID: g, UserID: idIago})
	wantCode(t, err, CodeBadRequest, "does not accept bot requests")
	wantCode(t, old.As(idDefaultBot).UpdateGroupSubgroups(bg, g, []int{1}, nil), CodeBadRequest, "does not accept bot requests")
	_, err = old.As(idIago).IsGroupMember(bg, GroupMemberQuery{GroupID: g, UserID: idDefaultBot})
	wantCode(t, err, CodeBadRequest, "No such user")
	if err := old.As(idIago).DeactivateUserGroup(bg, g); err != nil {
		t.Fatal(err)
	}
	wantCode(t, old.As(idIago).UpdateGroupSubgroups(bg, g, []int{groupID(t, old, "hamletcharacters")}, nil), CodeBadRequest, "only change subgroups of an active group")
}

func TestDeactivateObjectionsAndReactivate(t *testing.T) {
	r, _ := newTestRealm(t)
	a := r.As(idIago)
	used, _ := a.CreateUserGroup(bg, CreateGroupRequest{Name: "moderation"})
	parent, _ := a.CreateUserGroup(bg, CreateGroupRequest{Name: "parent", Subgroups: []int{used}})
	other, _ := a.CreateUserGroup(bg, CreateGroupRequest{Name: "other", Settings: map[string]GroupSetting{"can_mention_group": NamedGroupSetting(used)}})
	r.UpdateSettings(func(s *Settings) { s.CanMentionManyUsersGroup = NamedGroupSetting(used) })
	err := a.DeactivateUserGroup(bg, used)
	re := wantCode(t, err, CodeCannotDeactivateGroupInUse, "")
	objs := re.Extra["objections"].([]Objection)
	want := []Objection{
		{Type: "realm", Settings: []string{"can_mention_many_users_group"}},
		{Type: "user_group", GroupID: other, Settings: []string{"can_mention_group"}},
		{Type: "subgroup", SupergroupIDs: []int{parent}},
	}
	if len(objs) != len(want) {
		t.Fatalf("objections %+v", objs)
	}
	for i := range want {
		if objs[i].Type != want[i].Type || objs[i].GroupID != want[i].GroupID || !slices.Equal(objs[i].Settings, want[i].Settings) || !slices.Equal(objs[i].SupergroupIDs, want[i].SupergroupIDs) {
			t.Fatalf("objection %d: %+v, want %+v", i, objs[i], want[i])
		}
	}
	admins := groupID(t, r, "role:administrators")
	r.UpdateSettings(func(s *Settings) { s.CanMentionManyUsersGroup = NamedGroupSetting(admins) })
	_ = a.UpdateGroupSubgroups(bg, parent, nil, []int{used})
	_ = a.UpdateUserGroup(bg, other, UpdateGroupRequest{Settings: map[string]GroupSetting{"can_mention_group": NamedGroupSetting(groupID(t, r, "role:everyone"))}})
	capable := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"user_group"}, Capabilities: ClientCapabilities{IncludeDeactivatedGroups: true}})
	legacy := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"user_group"}})
	if err := a.DeactivateUserGroup(bg, used); err != nil {
		t.Fatal(err)
	}
	if j := eventJSON(t, pending(t, r, idHamlet, capable, -1)[0]); j["op"] != "update" || j["data"].(map[string]any)["deactivated"] != true {
		t.Fatalf("capable queue %v", j)
	}
	if j := eventJSON(t, pending(t, r, idHamlet, legacy, -1)[0]); j["op"] != "remove" {
		t.Fatalf("legacy queue %v", j)
	}
	// Deactivated: not usable as a setting; still renamable; reactivatable.
	wantCode(t, a.UpdateUserGroup(bg, other, UpdateGroupRequest{Settings: map[string]GroupSetting{"can_mention_group": NamedGroupSetting(used)}}), CodeBadRequest, "deactivated")
	name := "moderation (old)"
	if err := a.UpdateUserGroup(bg, used, UpdateGroupRequest{Name: &name}); err != nil {
		t.Fatalf("rename a deactivated group: %v", err)
	}
	f := false
	if err := a.UpdateUserGroup(bg, used, UpdateGroupRequest{Deactivated: &f}); err != nil {
		t.Fatal(err)
	}
	groups, _ := a.UserGroups(bg, UserGroupsRequest{})
	if !slices.ContainsFunc(groups, func(g UserGroup) bool { return g.ID == used && g.Name == name && !g.Deactivated }) {
		t.Fatal("reactivated group missing")
	}
	wantCode(t, a.DeactivateUserGroup(bg, groupID(t, r, "role:members")), CodeBadRequest, "Insufficient permission")
}

func TestGroupMembersUpdate(t *testing.T) {
	r, _ := newTestRealm(t)
	g, _ := r.As(idHamlet).CreateUserGroup(bg, CreateGroupRequest{Name: "friends", Members: []int{idHamlet}})
	if err := r.As(idHamlet).UpdateGroupMembers(bg, g, []int{idOthello}, nil); err != nil {
		t.Fatalf("the creator manages the group: %v", err)
	}
	wantCode(t, r.As(idCordelia).UpdateGroupMembers(bg, g, []int{idCordelia}, nil), CodeBadRequest, "Insufficient permission")
	wantCode(t, r.As(idHamlet).UpdateGroupMembers(bg, g, []int{idOthello}, nil), CodeBadRequest, "already a member")
	wantCode(t, r.As(idHamlet).UpdateGroupMembers(bg, g, nil, []int{idZoe}), CodeBadRequest, "There is no member")
	wantCode(t, r.As(idHamlet).UpdateGroupMembers(bg, g, []int{4242}, nil), CodeBadRequest, "Invalid user ID: 4242")
	if err := r.As(idOthello).UpdateGroupMembers(bg, g, nil, []int{idOthello}); err != nil {
		t.Fatalf("anyone may leave: %v", err)
	}
	if members, _ := r.As(idIago).GroupMembers(bg, GroupQuery{GroupID: g, DirectOnly: true}); !slices.Equal(members, []int{idHamlet}) {
		t.Fatalf("members %v", members)
	}
}

func TestDeactivateObjectionForChannelSetting(t *testing.T) {
	r, _ := newTestRealm(t)
	a := r.As(idIago)
	g, _ := a.CreateUserGroup(bg, CreateGroupRequest{Name: "posters"})
	r.mu.Lock()
	r.channels.byID[2].CanSendMessageGroup = g
	r.mu.Unlock()
	re := wantCode(t, a.DeactivateUserGroup(bg, g), CodeCannotDeactivateGroupInUse, "")
	objs := re.Extra["objections"].([]Objection)
	if len(objs) != 1 || objs[0].Type != "channel" || objs[0].ChannelID != 2 || !slices.Equal(objs[0].Settings, []string{"can_send_message_group"}) {
		t.Fatalf("objections %+v", objs)
	}
}

func TestMembershipChangeIsAllOrNothing(t *testing.T) {
	r, _ := newTestRealm(t)
	a := r.As(idIago)
	g, _ := a.CreateUserGroup(bg, CreateGroupRequest{Name: "both"})
	sub, _ := a.CreateUserGroup(bg, CreateGroupRequest{Name: "part"})
	// The subgroup part is valid, the member part is not: nothing changes.
	err := a.UpdateGroupMembership(bg, g, GroupMembershipChange{AddSubgroups: []int{sub}, Add: []int{4242}})
	wantCode(t, err, CodeBadRequest, "Invalid user ID: 4242")
	if subs, _ := a.GroupSubgroups(bg, GroupQuery{GroupID: g, DirectOnly: true}); len(subs) != 0 {
		t.Fatalf("a refused change added subgroups %v", subs)
	}
	if err := a.UpdateGroupMembership(bg, g, GroupMembershipChange{AddSubgroups: []int{sub}, Add: []int{idHamlet}}); err != nil {
		t.Fatal(err)
	}
	subs, _ := a.GroupSubgroups(bg, GroupQuery{GroupID: g, DirectOnly: true})
	members, _ := a.GroupMembers(bg, GroupQuery{GroupID: g, DirectOnly: true})
	if !slices.Equal(subs, []int{sub}) || !slices.Equal(members, []int{idHamlet}) {
		t.Fatalf("subgroups %v members %v", subs, members)
	}
}
