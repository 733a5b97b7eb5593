package realm

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/group"
)

// setSettingTo sets the setting name of scope ("realm", "stream" or
// "group") to the named group id through its API: the realm's as its
// owner, the channel Denmark's as an administrator, the user group
// hamletcharacters' as its manager.
func setSettingTo(t *testing.T, r *Realm, scope, name string, id int) error {
	t.Helper()
	switch scope {
	case "realm":
		_, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{GroupSettings: map[string]GroupSettingChange{name: {New: NamedGroupSetting(id)}}})
		return err
	case "stream":
		return r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: channelID(t, r, "Denmark"),
			GroupSettings: map[string]GroupSettingChange{name: {New: NamedGroupSetting(id)}}})
	case "group":
		return r.As(idDesdemona).UpdateUserGroup(bg, groupID(t, r, "hamletcharacters"),
			UpdateGroupRequest{Settings: map[string]GroupSetting{name: NamedGroupSetting(id)}})
	}
	t.Fatalf("unknown scope %s", scope)
	return nil
}

// settingValueOf reads the setting's stored value.
func settingValueOf(t *testing.T, r *Realm, scope, name string) GroupSetting {
	t.Helper()
	r.mu.RLock()
	defer r.mu.RUnlock()
	switch scope {
	case "realm":
		for _, g := range r.settings.groupSettings() {
			if g.name == name {
				return g.id.Clone()
			}
		}
	case "stream":
		return r.channelSetting(r.channels.byID[channelIDLocked(r, "Denmark")], name)
	case "group":
		v, _ := r.groups.byName["hamletcharacters"].Settings.Get(name)
		return v
	}
	t.Fatalf("no setting %s %s", scope, name)
	return GroupSetting{}
}

func channelIDLocked(r *Realm, name string) int {
	for id, c := range r.channels.byID {
		if c.Name == name {
			return id
		}
	}
	return 0
}

// systemGroupNames are the role-based system groups.
var systemGroupNames = []string{group.Internet, group.Everyone, group.Members, group.FullMembers,
	group.Moderators, group.Administrators, group.Owners, group.Nobody}

// Every realm, channel and user group setting takes exactly the system
// groups its server_supported_permission_settings entry allows (the
// booleans, allow_owners_group below 326 and allowed_system_groups), at
// the default level and at older ones: any other is refused with Zulip's
// message and changes nothing.
func TestGroupSettingsTakeTheSystemGroupsTheirEntryAllows(t *testing.T) {
	for _, level := range []int{225, 277, 319, 325, DefaultFeatureLevel} {
		t.Run(itoa(level), func(t *testing.T) {
			r, _ := newTestRealm(t, WithFeatureLevel(level, "test"))
			checkSettingsTakeWhatTheirEntryAllows(t, r)
		})
	}
}

func checkSettingsTakeWhatTheirEntryAllows(t *testing.T, r *Realm) {
	key := registerPermissionSettings(t, r)
	refused := 0
	defer func() {
		if refused == 0 || len(key["realm"]) == 0 || len(key["stream"]) == 0 || len(key["group"]) == 0 {
			t.Errorf("nothing checked: %d refusals, key %v", refused, key)
		}
		t.Logf("%d settings, %d refusals", len(key["realm"])+len(key["stream"])+len(key["group"]), refused)
	}()
	for _, scope := range []string{"realm", "stream", "group"} {
		for _, name := range slices.Sorted(maps.Keys(key[scope])) {
			entry := key[scope][name]
			for _, gname := range systemGroupNames {
				allowed := true
				switch gname {
				case group.Internet:
					allowed = entry["allow_internet_group"] == true
				case group.Nobody:
					allowed = entry["allow_nobody_group"] == true
				case group.Everyone:
					allowed = entry["allow_everyone_group"] == true
				case group.Owners:
					allowed = entry["allow_owners_group"] != false
				}
				if list, _ := entry["allowed_system_groups"].([]any); len(list) > 0 && !slices.Contains(list, any(gname)) {
					allowed = false
				}
				before := settingValueOf(t, r, scope, name)
				err := setSettingTo(t, r, scope, name, groupID(t, r, gname))
				if allowed {
					if err != nil && !isUnrelatedRefusal(scope, name, gname, err) {
						t.Errorf("%s %s = %s refused: %v", scope, name, gname, err)
					}
					continue
				}
				refused++
				wantCode(t, err, CodeBadRequest, fmt.Sprintf("'%s' setting cannot be set to '%s' group.", name, gname))
				if after := settingValueOf(t, r, scope, name); !sameGroupSetting(after, before) {
					t.Errorf("%s %s: a refused %s changed it to %+v", scope, name, gname, after)
				}
			}
		}
	}
}

// isUnrelatedRefusal reports the refusals the loop above expects for
// reasons other than the setting's entry: a private-history rule that
// needs the channel's topics open to everyone.
func isUnrelatedRefusal(scope, name, gname string, err error) bool {
	return scope == "stream" && name == "can_create_topic_group" && err != nil
}

// Zulip's refusals, spelled out: the user group settings that refuse
// role:everyone, a channel's can_subscribe_group and can_add_subscribers_
// group, role:internet anywhere, role:nobody for a realm setting that
// refuses it.
func TestGroupSettingRefusalsAsZulip(t *testing.T) {
	r, _ := newTestRealm(t)
	for _, c := range []struct{ scope, name, group string }{
		{"group", "can_join_group", group.Everyone},
		{"group", "can_manage_group", group.Everyone},
		{"group", "can_add_members_group", group.Everyone},
		{"group", "can_remove_members_group", group.Everyone},
		{"group", "can_mention_group", group.Internet},
		{"stream", "can_subscribe_group", group.Everyone},
		{"stream", "can_add_subscribers_group", group.Everyone},
		{"stream", "can_send_message_group", group.Internet},
		{"realm", "can_manage_all_groups", group.Nobody},
		{"realm", "can_add_custom_emoji_group", group.Everyone},
		{"realm", "can_access_all_users_group", group.Moderators},
	} {
		before := settingValueOf(t, r, c.scope, c.name)
		wantCode(t, setSettingTo(t, r, c.scope, c.name, groupID(t, r, c.group)), CodeBadRequest,
			fmt.Sprintf("'%s' setting cannot be set to '%s' group.", c.name, c.group))
		if after := settingValueOf(t, r, c.scope, c.name); !sameGroupSetting(after, before) {
			t.Errorf("%s %s: a refused value changed it", c.scope, c.name)
		}
	}
}

// Below feature level 326 each entry carries allow_owners_group and
// id_field_name ("<setting>_id"), and a setting whose allow_owners_group
// is false refuses role:owners with Zulip's message (nothing changes);
// from 326 neither field is sent and every setting takes role:owners.
func TestOwnersGroupFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeOwnersGroupAnySetting, func(t *testing.T, r *Realm, has bool) {
		key := registerPermissionSettings(t, r)
		for scope, settings := range key {
			for name, entry := range settings {
				_, owners := entry["allow_owners_group"]
				id, _ := entry["id_field_name"].(string)
				if has && (owners || id != "") || !has && (!owners || id != name+"_id") {
					t.Errorf("%s %s: allow_owners_group sent %v, id_field_name %q", scope, name, owners, id)
				}
			}
		}
		if !has {
			if key["realm"]["can_manage_all_groups"]["allow_owners_group"] != true ||
				key["realm"]["can_create_public_channel_group"]["allow_owners_group"] != false {
				t.Errorf("allow_owners_group: can_manage_all_groups %v, can_create_public_channel_group %v",
					key["realm"]["can_manage_all_groups"]["allow_owners_group"], key["realm"]["can_create_public_channel_group"]["allow_owners_group"])
			}
		}
		owners := groupID(t, r, group.Owners)
		for _, c := range []struct{ scope, name string }{
			{"realm", "can_create_public_channel_group"},
			{"stream", "can_remove_subscribers_group"},
			{"group", "can_mention_group"},
		} {
			before := settingValueOf(t, r, c.scope, c.name)
			err := setSettingTo(t, r, c.scope, c.name, owners)
			if has {
				if err != nil {
					t.Errorf("%s %s = role:owners: %v", c.scope, c.name, err)
				}
				continue
			}
			wantCode(t, err, CodeBadRequest, fmt.Sprintf("'%s' setting cannot be set to 'role:owners' group.", c.name))
			if after := settingValueOf(t, r, c.scope, c.name); !sameGroupSetting(after, before) {
				t.Errorf("%s %s: a refused role:owners changed it", c.scope, c.name)
			}
		}
		if err := setSettingTo(t, r, "realm", "can_manage_all_groups", owners); err != nil {
			t.Errorf("can_manage_all_groups = role:owners: %v", err)
		}
	})
}

// A fixture holds only values its level's API takes: a user group's
// can_mention_group set to role:owners (a realm dumped at 326) loads at
// 326 and is refused at 325, where the setting refused role:owners; a
// realm setting set to role:internet is refused at any level.
func TestFixtureGroupSettingsTakeWhatTheAPITakes(t *testing.T) {
	newer, _ := newTestRealm(t)
	characters := groupID(t, newer, "hamletcharacters")
	owners := groupID(t, newer, group.Owners)
	if err := setSettingTo(t, newer, "group", "can_mention_group", owners); err != nil {
		t.Fatal(err)
	}
	doc, err := newer.Dump()
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(doc, WithFeatureLevel(changeOwnersGroupAnySetting.Level(), "test"))
	if err != nil {
		t.Fatalf("loading at 326: %v", err)
	}
	if got := loaded.groups.byID[characters].Settings.CanMention; got.GroupID != owners {
		t.Fatalf("loaded can_mention_group %+v", got)
	}
	var fe *FixtureError
	_, err = Load(doc, WithFeatureLevel(changeOwnersGroupAnySetting.Level()-1, "test"))
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "'can_mention_group' setting cannot be set to 'role:owners' group.") {
		t.Fatalf("loading below 326: %v, want a fixture error", err)
	}

	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	m["settings"].(map[string]any)["group_settings"].(map[string]any)["can_add_custom_emoji_group"] = float64(groupID(t, newer, group.Internet))
	doc, _ = json.Marshal(m)
	if _, err := Load(doc); !errors.As(err, &fe) || !strings.Contains(err.Error(), "'can_add_custom_emoji_group' setting cannot be set to 'role:internet' group.") {
		t.Fatalf("role:internet for a realm setting: %v, want a fixture error", err)
	}
}
