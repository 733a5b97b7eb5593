package realm

import (
	"errors"
	"reflect"
	"slices"
	"testing"
)

// Below feature level 320 a channel's can_remove_subscribers_group is the
// ID of a system group: another group, or an anonymous one, is refused
// when changed, when a channel is created and in a fixture.
func TestRemoveSubscribersGroupFormFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, ChangeRemoveSubscribersAnyGroup, func(t *testing.T, r *Realm, has bool) {
		characters := groupID(t, r, "hamletcharacters")
		set := func(v GroupSetting) error {
			return r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: idDenmark,
				GroupSettings: map[string]GroupSettingChange{"can_remove_subscribers_group": {New: v}}})
		}
		for _, v := range []GroupSetting{{DirectMembers: []int{idHamlet}}, NamedGroupSetting(characters)} {
			if err := set(v); has && err != nil {
				t.Fatalf("%+v: %v", v, err)
			} else if !has {
				wantCode(t, err, CodeBadRequest, "'can_remove_subscribers_group' must be a system user group.")
			}
		}
		if err := set(NamedGroupSetting(groupID(t, r, "role:moderators"))); err != nil {
			t.Fatalf("a system group: %v", err)
		}
		_, err := r.As(idIago).CreateChannel(bg, CreateChannelRequest{Name: "anonymous", Settings: SubscribeRequest{
			GroupSettings: map[string]GroupSetting{"can_remove_subscribers_group": {DirectMembers: []int{idHamlet}}}}})
		if has && err != nil {
			t.Fatal(err)
		} else if !has {
			wantCode(t, err, CodeBadRequest, "must be a system user group")
		}
	})
	// A fixture of a newer realm holding an anonymous value.
	newer, _ := newTestRealm(t, WithFeatureLevel(ChangeRemoveSubscribersAnyGroup.Level(), "test"))
	if err := newer.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: idDenmark,
		GroupSettings: map[string]GroupSettingChange{"can_remove_subscribers_group": {New: GroupSetting{DirectMembers: []int{idHamlet}}}}}); err != nil {
		t.Fatal(err)
	}
	doc, err := newer.Dump()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Load(doc, WithFeatureLevel(ChangeRemoveSubscribersAnyGroup.Level(), "test")); err != nil {
		t.Fatalf("loading at the level: %v", err)
	}
	var fe *FixtureError
	if _, err := Load(doc, WithFeatureLevel(ChangeRemoveSubscribersAnyGroup.Level()-1, "test")); !errors.As(err, &fe) {
		t.Fatalf("loading below the level: %v, want a fixture error", err)
	}
}

// Below feature level 314 the realm's create_multiuse_invite_group (and
// can_access_all_users_group) hold a group ID: an anonymous group is
// refused, by PATCH /realm and in a fixture.
func TestRealmAccessSettingsFormFollowsFeatureLevel(t *testing.T) {
	anonymous := GroupSetting{DirectMembers: []int{idHamlet}, DirectSubgroups: []int{groupID(t, newRealmForIDs(t), "role:administrators")}}
	belowAndAt(t, changeRealmAccessSettingsAnonymous, func(t *testing.T, r *Realm, has bool) {
		_, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{GroupSettings: map[string]GroupSettingChange{
			"create_multiuse_invite_group": {New: anonymous}}})
		if has {
			if err != nil {
				t.Fatal(err)
			}
			if got := r.settings.CreateMultiuseInviteGroup; got.GroupID != 0 {
				t.Fatalf("stored %+v", got)
			}
			return
		}
		wantCode(t, err, CodeBadRequest, "create_multiuse_invite_group is not an integer")
		if got := r.settings.CreateMultiuseInviteGroup; got.GroupID == 0 {
			t.Fatalf("a refused change stored %+v", got)
		}
		if _, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{GroupSettings: map[string]GroupSettingChange{
			"create_multiuse_invite_group": {New: NamedGroupSetting(groupID(t, r, "role:moderators"))}}}); err != nil {
			t.Fatalf("a group ID: %v", err)
		}
	})
	newer, _ := newTestRealm(t)
	if _, err := newer.As(idDesdemona).UpdateRealm(bg, RealmUpdate{GroupSettings: map[string]GroupSettingChange{
		"create_multiuse_invite_group": {New: anonymous}}}); err != nil {
		t.Fatal(err)
	}
	doc, err := newer.Dump()
	if err != nil {
		t.Fatal(err)
	}
	var fe *FixtureError
	if _, err := Load(doc, WithFeatureLevel(changeRealmAccessSettingsAnonymous.Level()-1, "test")); !errors.As(err, &fe) {
		t.Fatalf("loading below the level: %v, want a fixture error", err)
	}
}

// newRealmForIDs is a default realm, to read the IDs of its groups.
func newRealmForIDs(t *testing.T) *Realm {
	r, _ := newTestRealm(t)
	return r
}

// Below feature level 305 the members of can_manage_all_groups manage
// only the groups they belong to, unless moderators or above.
func TestManageAllGroupsFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeManageAllGroupsAnyGroup, func(t *testing.T, r *Realm, has bool) {
		if _, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{GroupSettings: map[string]GroupSettingChange{
			"can_manage_all_groups": {New: NamedGroupSetting(groupID(t, r, "role:members"))}}}); err != nil {
			t.Fatal(err)
		}
		characters := groupID(t, r, "hamletcharacters")
		describe := func(userID int, text string) error {
			return r.As(userID).UpdateUserGroup(bg, characters, UpdateGroupRequest{Description: &text})
		}
		if err := describe(idHamlet, "by a member"); err != nil {
			t.Fatalf("a member of the group: %v", err)
		}
		err := describe(idOthello, "by another")
		if has && err != nil {
			t.Fatalf("a member of can_manage_all_groups outside the group: %v", err)
		} else if !has {
			wantCode(t, err, CodeBadRequest, "Insufficient permission")
		}
	})
}

// From feature level 303 (deactivated users hidden from memberships) a
// reactivation tells every user that the user is back in each group it
// is a direct member of, and gives the new value of each realm setting
// set to an anonymous group holding it; below it, neither.
func TestReactivationMembershipEventsFollowFeatureLevel(t *testing.T) {
	belowAndAt(t, changeDeactivatedMembersHidden, func(t *testing.T, r *Realm, has bool) {
		anonymous := GroupSetting{DirectMembers: []int{idHamlet, idOthello}}
		if _, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{GroupSettings: map[string]GroupSettingChange{
			"can_create_groups": {New: anonymous}}}); err != nil {
			t.Fatal(err)
		}
		if err := r.As(idIago).DeactivateUser(bg, idHamlet); err != nil {
			t.Fatal(err)
		}
		q := mustQueue(t, r, idIago, QueueOptions{})
		if err := r.As(idIago).ReactivateUser(bg, idHamlet); err != nil {
			t.Fatal(err)
		}
		var added []float64
		for _, ev := range eventsOf(t, r, idIago, q, "user_group") {
			if ev["op"] == "add_members" && slices.Equal(ev["user_ids"].([]any), []any{float64(idHamlet)}) {
				added = append(added, ev["group_id"].(float64))
			}
		}
		var settings []any
		for _, ev := range eventsOf(t, r, idIago, q, "realm") {
			if data, ok := ev["data"].(map[string]any); ok && ev["op"] == "update_dict" {
				settings = append(settings, data["can_create_groups"])
			}
		}
		if !has {
			if len(added)+len(settings) > 0 {
				t.Fatalf("add_members of %v, realm updates %v", added, settings)
			}
			return
		}
		want := []float64{float64(groupID(t, r, "role:fullmembers")), float64(groupID(t, r, "role:members")), float64(groupID(t, r, "hamletcharacters"))}
		if !slices.Equal(added, want) {
			t.Errorf("add_members of groups %v, want %v", added, want)
		}
		if len(settings) != 1 || !reflect.DeepEqual(settings[0], map[string]any{"direct_members": []any{float64(idHamlet), float64(idOthello)}, "direct_subgroups": []any{}}) {
			t.Errorf("realm updates %v", settings)
		}
	})
}
