package realm

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/group"
)

// registerPermissionSettings is the server_supported_permission_settings
// key of a register, as encoded.
func registerPermissionSettings(t *testing.T, r *Realm) map[string]map[string]map[string]any {
	t.Helper()
	st, err := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm"}})
	if err != nil {
		t.Fatal(err)
	}
	if st.ServerSupportedPermissionSettings == nil {
		t.Fatal("no server_supported_permission_settings")
	}
	b, _ := json.Marshal(st.ServerSupportedPermissionSettings)
	var out map[string]map[string]map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// Each entry lists allowed_system_groups from feature level 225 on (an
// empty list where the booleans decide), never below.
func TestAllowedSystemGroupsFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeAllowedSystemGroups, func(t *testing.T, r *Realm, has bool) {
		for kind, settings := range registerPermissionSettings(t, r) {
			for name, s := range settings {
				if _, ok := s["allowed_system_groups"]; ok != has {
					t.Errorf("%s %s: allowed_system_groups sent %v", kind, name, ok)
				}
			}
		}
		if !has {
			return
		}
		got := registerPermissionSettings(t, r)["realm"]["can_access_all_users_group"]["allowed_system_groups"]
		if b, _ := json.Marshal(got); string(b) != `["role:everyone","role:members"]` {
			t.Errorf("can_access_all_users_group allowed %s", b)
		}
	})
}

// At the default level the key has Zulip's facts for a setting of each
// kind, and only settings the level has (can_move_messages_between_
// topics_group, 316, is left out at 315).
func TestServerSupportedPermissionSettingsContent(t *testing.T) {
	r, _ := newTestRealm(t)
	got := registerPermissionSettings(t, r)
	want := map[string]string{
		"realm can_access_all_users_group":    `{"allow_everyone_group":true,"allow_internet_group":false,"allow_nobody_group":false,"allowed_system_groups":["role:everyone","role:members"],"default_for_system_groups":null,"default_group_name":"role:everyone","require_system_group":true}`,
		"realm can_manage_all_groups":         `{"allow_everyone_group":false,"allow_internet_group":false,"allow_nobody_group":false,"allowed_system_groups":[],"default_for_system_groups":null,"default_group_name":"role:owners","require_system_group":false}`,
		"stream can_administer_channel_group": `{"allow_everyone_group":false,"allow_internet_group":false,"allow_nobody_group":true,"allowed_system_groups":[],"default_for_system_groups":null,"default_group_name":"channel_creator","require_system_group":false}`,
		"group can_manage_group":              `{"allow_everyone_group":false,"allow_internet_group":false,"allow_nobody_group":true,"allowed_system_groups":[],"default_for_system_groups":"role:nobody","default_group_name":"group_creator","require_system_group":false}`,
		"group can_leave_group":               `{"allow_everyone_group":true,"allow_internet_group":false,"allow_nobody_group":true,"allowed_system_groups":[],"default_for_system_groups":"role:nobody","default_group_name":"role:everyone","require_system_group":false}`,
	}
	for key, w := range want {
		kind, name, _ := strings.Cut(key, " ")
		if b, _ := json.Marshal(got[kind][name]); string(b) != w {
			t.Errorf("%s: %s\nwant %s", key, b, w)
		}
	}
	if len(got["realm"]) != len(realmGroupRules) || len(got["stream"]) != len(channelGroupSettings) || len(got["group"]) != len(userGroupSettingRules) {
		t.Errorf("%d realm, %d stream, %d group settings", len(got["realm"]), len(got["stream"]), len(got["group"]))
	}
	old, _ := newTestRealm(t, WithFeatureLevel(315, "test"))
	if _, ok := registerPermissionSettings(t, old)["realm"]["can_move_messages_between_topics_group"]; ok {
		t.Error("level 315 lists can_move_messages_between_topics_group")
	}
}

// The key and the checks agree: a realm or user group setting whose
// entry refuses role:everyone refuses it when set, one that allows it
// takes it.
func TestPermissionSettingsAgreeWithTheChecks(t *testing.T) {
	r, _ := newTestRealm(t)
	got := registerPermissionSettings(t, r)
	for name, s := range got["realm"] {
		if s["require_system_group"] == true {
			continue // their own lists, checked above
		}
		_, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{GroupSettings: map[string]GroupSettingChange{name: {New: NamedGroupSetting(gidEveryone)}}})
		if allowed := s["allow_everyone_group"] == true; allowed != (err == nil) {
			t.Errorf("realm %s: allow_everyone_group %v, setting role:everyone: %v", name, allowed, err)
		}
	}
	for name, s := range got["group"] {
		_, err := r.As(idDesdemona).CreateUserGroup(bg, CreateGroupRequest{Name: "g " + name, Description: "d", Members: []int{idHamlet},
			Settings: map[string]GroupSetting{name: NamedGroupSetting(gidEveryone)}})
		if allowed := s["allow_everyone_group"] == true; allowed != (err == nil) {
			t.Errorf("group %s: allow_everyone_group %v, setting role:everyone: %v", name, allowed, err)
		}
		if err != nil && !strings.Contains(err.Error(), "cannot be set to 'role:everyone' group") {
			t.Errorf("group %s: %v", name, err)
		}
	}
	for _, name := range group.SettingNames {
		if got["group"][name] == nil {
			t.Errorf("no entry for the group setting %s", name)
		}
	}
}
