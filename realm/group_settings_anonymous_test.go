package realm

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// anonymousWire is how an anonymous group-setting value reads once
// decoded from JSON.
func anonymousWire(members, subgroups []int) map[string]any {
	out := map[string]any{"direct_members": []any{}, "direct_subgroups": []any{}}
	for _, id := range members {
		out["direct_members"] = append(out["direct_members"].([]any), float64(id))
	}
	for _, id := range subgroups {
		out["direct_subgroups"] = append(out["direct_subgroups"].([]any), float64(id))
	}
	return out
}

// userGroupByID is a group as GET /user_groups shows it.
func userGroupByID(t *testing.T, r *Realm, id int) UserGroup {
	t.Helper()
	groups, err := r.As(idIago).UserGroups(bg, UserGroupsRequest{IncludeDeactivated: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		if g.ID == id {
			return g
		}
	}
	t.Fatalf("no group %d", id)
	return UserGroup{}
}

// From feature level 258 a user group's can_mention_group may be an
// anonymous group, on create, on update, in the group's object, in
// events and in fixtures; below it only a group ID, and an anonymous
// value is refused with Zulip's message, changing nothing.
func TestUserGroupSettingsAnonymousFollowFeatureLevel(t *testing.T) {
	belowAndAt(t, changeUserGroupSettingsAnonymous, func(t *testing.T, r *Realm, has bool) {
		characters := groupID(t, r, "hamletcharacters")
		anonymous := GroupSetting{DirectMembers: []int{idOthello, idOthello}, DirectSubgroups: []int{characters}}
		before := len(r.groups.byID)
		q := mustQueue(t, r, idIago, QueueOptions{})
		created, err := r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "anon",
			Settings: map[string]GroupSetting{"can_mention_group": anonymous}})
		updErr := r.As(idDesdemona).UpdateUserGroup(bg, characters, UpdateGroupRequest{
			Settings: map[string]GroupSetting{"can_mention_group": anonymous}})
		if !has {
			wantCode(t, err, CodeBadRequest, "can_mention_group is not an integer")
			wantCode(t, updErr, CodeBadRequest, "can_mention_group is not an integer")
			if len(r.groups.byID) != before || r.groups.byID[characters].Settings.CanMention.GroupID == 0 {
				t.Fatal("a refused request changed the groups")
			}
			if len(eventsOf(t, r, idIago, q, "user_group")) != 0 {
				t.Fatal("a refused request sent events")
			}
			// A group ID is still taken.
			if err := r.As(idDesdemona).UpdateUserGroup(bg, characters, UpdateGroupRequest{
				Settings: map[string]GroupSetting{"can_mention_group": NamedGroupSetting(groupID(t, r, "role:members"))}}); err != nil {
				t.Fatal(err)
			}
			return
		}
		if err != nil || updErr != nil {
			t.Fatal(err, updErr)
		}
		want := anonymousWire([]int{idOthello}, []int{characters})
		for _, id := range []int{created, characters} {
			b, _ := json.Marshal(userGroupByID(t, r, id).CanMentionGroup)
			var got any
			_ = json.Unmarshal(b, &got)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("group %d can_mention_group %s", id, b)
			}
		}
		var data []any
		for _, ev := range eventsOf(t, r, idIago, q, "user_group") {
			if ev["op"] == "update" {
				data = append(data, ev["data"].(map[string]any)["can_mention_group"])
			}
		}
		if len(data) != 1 || !reflect.DeepEqual(data[0], want) {
			t.Errorf("update events carry %v", data)
		}
		// Othello directly, Hamlet through the subgroup; not Iago.
		g := r.groups.byID[created]
		for uid, may := range map[int]bool{idOthello: true, idHamlet: true, idIago: false} {
			if got := r.mayMentionGroup(r.users.byID[uid], g); got != may {
				t.Errorf("user %d may mention: %v, want %v", uid, got, may)
			}
		}
	})
}

// A fixture of a newer realm holding an anonymous can_mention_group
// loads from level 258 keeping the value, and is refused below it.
func TestUserGroupSettingsAnonymousFixture(t *testing.T) {
	newer, _ := newTestRealm(t)
	characters := groupID(t, newer, "hamletcharacters")
	anonymous := GroupSetting{DirectMembers: []int{idOthello}, DirectSubgroups: []int{groupID(t, newer, "role:moderators")}}
	if err := newer.As(idDesdemona).UpdateUserGroup(bg, characters, UpdateGroupRequest{
		Settings: map[string]GroupSetting{"can_mention_group": anonymous, "can_join_group": anonymous}}); err != nil {
		t.Fatal(err)
	}
	doc, err := newer.Dump()
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(doc, WithFeatureLevel(changeUserGroupSettingsAnonymous.Level(), "test"))
	if err != nil {
		t.Fatalf("loading at the level: %v", err)
	}
	got := loaded.groups.byID[characters].Settings
	if !reflect.DeepEqual(got.CanMention, anonymous) || !reflect.DeepEqual(got.CanJoin, anonymous) {
		t.Fatalf("loaded %+v", got)
	}
	var fe *FixtureError
	if _, err := Load(doc, WithFeatureLevel(changeUserGroupSettingsAnonymous.Level()-1, "test")); !errors.As(err, &fe) {
		t.Fatalf("loading below the level: %v, want a fixture error", err)
	}
	// A fixture naming an unknown user in an anonymous setting is refused.
	bad, _ := newTestRealm(t)
	if err := bad.As(idDesdemona).UpdateUserGroup(bg, characters, UpdateGroupRequest{
		Settings: map[string]GroupSetting{"can_mention_group": anonymous}}); err != nil {
		t.Fatal(err)
	}
	doc, _ = bad.Dump()
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	for _, g := range m["groups"].([]any) {
		if g := g.(map[string]any); g["id"] == float64(characters) {
			g["settings"].(map[string]any)["can_mention_group"] = anonymousWire([]int{999}, nil)
		}
	}
	doc, _ = json.Marshal(m)
	if _, err := Load(doc); !errors.As(err, &fe) || !strings.Contains(err.Error(), "no user 999") {
		t.Fatalf("an unknown member: %v, want a fixture error", err)
	}
}

// Every user group permission setting takes an anonymous group, and the
// checks that use it count its direct members and the members of its
// subgroups at any depth.
func TestUserGroupPermissionsHonourAnonymousGroups(t *testing.T) {
	r, _ := newTestRealm(t)
	characters := groupID(t, r, "hamletcharacters") // Cordelia (creator), Hamlet
	inner, err := r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "inner", Members: []int{idPolonius}})
	if err != nil {
		t.Fatal(err)
	}
	outer, err := r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "outer", Subgroups: []int{inner}})
	if err != nil {
		t.Fatal(err)
	}
	// Polonius is in the anonymous group through outer ⊃ inner.
	anon := GroupSetting{DirectMembers: []int{idOthello}, DirectSubgroups: []int{outer}}
	target, err := r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "target", Members: []int{idAaron},
		Settings: map[string]GroupSetting{"can_manage_group": anon}})
	if err != nil {
		t.Fatal(err)
	}
	name := "renamed"
	if err := r.As(idPolonius).UpdateUserGroup(bg, target, UpdateGroupRequest{Name: &name}); err != nil {
		t.Fatalf("a member of a subgroup's subgroup manages: %v", err)
	}
	wantCode(t, r.As(idHamlet).UpdateUserGroup(bg, target, UpdateGroupRequest{Name: &name}), CodeBadRequest, "Insufficient permission")

	set := func(name string, v GroupSetting) {
		t.Helper()
		if err := r.As(idIago).UpdateUserGroup(bg, target, UpdateGroupRequest{Settings: map[string]GroupSetting{name: v}}); err != nil {
			t.Fatal(err)
		}
	}
	set("can_manage_group", NamedGroupSetting(groupID(t, r, "role:nobody")))
	set("can_join_group", GroupSetting{DirectMembers: []int{idOthello}})
	if err := r.As(idOthello).UpdateGroupMembers(bg, target, []int{idOthello}, nil); err != nil {
		t.Fatalf("a direct member of can_join_group joins: %v", err)
	}
	wantCode(t, r.As(idHamlet).UpdateGroupMembers(bg, target, []int{idHamlet}, nil), CodeBadRequest, "Insufficient permission")
	set("can_leave_group", GroupSetting{DirectSubgroups: []int{characters, inner}})
	wantCode(t, r.As(idOthello).UpdateGroupMembers(bg, target, nil, []int{idOthello}), CodeBadRequest, "Insufficient permission")
	set("can_add_members_group", GroupSetting{DirectMembers: []int{idShiva}, DirectSubgroups: []int{characters}})
	if err := r.As(idHamlet).UpdateGroupMembers(bg, target, []int{idCordelia}, nil); err != nil {
		t.Fatalf("a member of a subgroup of can_add_members_group adds: %v", err)
	}
	if err := r.As(idCordelia).UpdateGroupMembers(bg, target, nil, []int{idCordelia}); err != nil {
		t.Fatalf("a member of a subgroup of can_leave_group leaves: %v", err)
	}
	set("can_remove_members_group", GroupSetting{DirectMembers: []int{idShiva}, DirectSubgroups: []int{}})
	if err := r.As(idShiva).UpdateGroupMembers(bg, target, nil, []int{idAaron}); err != nil {
		t.Fatalf("a direct member of can_remove_members_group removes: %v", err)
	}
	wantCode(t, r.As(idHamlet).UpdateGroupMembers(bg, target, nil, []int{idOthello}), CodeBadRequest, "Insufficient permission")

	// An anonymous group of one subgroup and no members is that group;
	// of neither, role:nobody.
	set("can_mention_group", GroupSetting{DirectSubgroups: []int{characters}})
	set("can_join_group", GroupSetting{})
	got := r.groups.byID[target].Settings
	if !reflect.DeepEqual(got.CanMention, NamedGroupSetting(characters)) || !reflect.DeepEqual(got.CanJoin, NamedGroupSetting(groupID(t, r, "role:nobody"))) {
		t.Fatalf("stored %+v, %+v", got.CanMention, got.CanJoin)
	}
	// Bad values are refused, changing nothing.
	for _, c := range []struct {
		v    GroupSetting
		want string
	}{
		{GroupSetting{DirectMembers: []int{999}}, "Invalid user ID: 999"},
		{GroupSetting{DirectMembers: []int{idHamlet}, DirectSubgroups: []int{999}}, "Invalid user group ID: 999"},
	} {
		err := r.As(idIago).UpdateUserGroup(bg, target, UpdateGroupRequest{Settings: map[string]GroupSetting{
			"can_leave_group": c.v, "can_mention_group": NamedGroupSetting(groupID(t, r, "role:members"))}})
		wantCode(t, err, CodeBadRequest, c.want)
		if !reflect.DeepEqual(r.groups.byID[target].Settings, got) {
			t.Fatalf("%+v: a refused request changed the settings", c.v)
		}
	}
	// "old" is compared as Zulip does: members and subgroups in any order.
	set("can_leave_group", GroupSetting{DirectMembers: []int{idHamlet, idOthello}, DirectSubgroups: []int{characters}})
	err = r.As(idIago).UpdateUserGroup(bg, target, UpdateGroupRequest{
		Settings:    map[string]GroupSetting{"can_leave_group": NamedGroupSetting(characters)},
		OldSettings: map[string]GroupSetting{"can_leave_group": {DirectMembers: []int{idOthello}, DirectSubgroups: []int{characters}}}})
	wantCode(t, err, CodeExpectationMismatch, "'old' value does not match")
	if err := r.As(idIago).UpdateUserGroup(bg, target, UpdateGroupRequest{
		Settings:    map[string]GroupSetting{"can_leave_group": NamedGroupSetting(characters)},
		OldSettings: map[string]GroupSetting{"can_leave_group": {DirectMembers: []int{idOthello, idHamlet}, DirectSubgroups: []int{characters}}}}); err != nil {
		t.Fatal(err)
	}
}

// A group that is a subgroup of another group's anonymous setting is in
// use and cannot be deactivated; a deactivated user stays in an
// anonymous setting but is neither shown nor counted, and a
// reactivation gives every user the setting's new value.
func TestAnonymousGroupSettingsAndDeactivation(t *testing.T) {
	r, _ := newTestRealm(t)
	characters := groupID(t, r, "hamletcharacters")
	used, err := r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "used", Members: []int{idPolonius}})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.As(idDesdemona).UpdateUserGroup(bg, characters, UpdateGroupRequest{Settings: map[string]GroupSetting{
		"can_mention_group": {DirectMembers: []int{idOthello}, DirectSubgroups: []int{used}}}}); err != nil {
		t.Fatal(err)
	}
	var ge *Error
	if err := r.As(idIago).DeactivateUserGroup(bg, used); !errors.As(err, &ge) || ge.Code != CodeCannotDeactivateGroupInUse {
		t.Fatalf("deactivating a group used by an anonymous setting: %v", err)
	}
	want := []Objection{{Type: "user_group", GroupID: characters, Settings: []string{"can_mention_group"}}}
	if got := ge.Extra["objections"]; !reflect.DeepEqual(got, want) {
		t.Fatalf("objections %+v", got)
	}

	if err := r.As(idIago).DeactivateUser(bg, idOthello); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(userGroupByID(t, r, characters).CanMentionGroup)
	if string(b) != fmt.Sprintf(`{"direct_members":[],"direct_subgroups":[%d]}`, used) {
		t.Errorf("with Othello deactivated: %s", b)
	}
	if r.settingHas(r.groups.byID[characters].Settings.CanMention, idOthello) {
		t.Error("a deactivated user still holds the permission")
	}
	q := mustQueue(t, r, idIago, QueueOptions{})
	if err := r.As(idIago).ReactivateUser(bg, idOthello); err != nil {
		t.Fatal(err)
	}
	var data []any
	for _, ev := range eventsOf(t, r, idIago, q, "user_group") {
		if ev["op"] == "update" && ev["group_id"] == float64(characters) {
			data = append(data, ev["data"])
		}
	}
	wantData := map[string]any{"can_mention_group": anonymousWire([]int{idOthello}, []int{used})}
	if len(data) != 1 || !reflect.DeepEqual(data[0], wantData) {
		t.Errorf("reactivation updates %v", data)
	}
}
