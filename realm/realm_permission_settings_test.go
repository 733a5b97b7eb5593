package realm

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A new realm gives each permission setting Zulip's default system group
// (Realm.REALM_PERMISSION_GROUP_SETTINGS), as register shows it.
func TestRealmPermissionSettingsDefaults(t *testing.T) {
	r, _ := newTestRealm(t)
	st := realmState(t, r, idHamlet)
	for name, c := range map[string]struct {
		got  GroupSetting
		want int
	}{
		"can_access_all_users_group":          {st.RealmCanAccessAllUsersGroup, gidEveryone},
		"direct_message_initiator_group":      {st.RealmDirectMessageInitiatorGroup, gidEveryone},
		"direct_message_permission_group":     {st.RealmDirectMessagePermissionGroup, gidEveryone},
		"can_create_web_public_channel_group": {st.RealmCanCreateWebPublicChannelGroup, gidOwners},
		"can_create_bots_group":               {st.RealmCanCreateBotsGroup, gidMembers},
		"can_create_write_only_bots_group":    {st.RealmCanCreateWriteOnlyBotsGroup, gidMembers},
		"can_summarize_topics_group":          {st.RealmCanSummarizeTopicsGroup, gidEveryone},
		"can_manage_billing_group":            {st.RealmCanManageBillingGroup, gidAdministrators},
		"can_set_topics_policy_group":         {st.RealmCanSetTopicsPolicyGroup, gidMembers},
		"can_set_delete_message_policy_group": {st.RealmCanSetDeleteMessagePolicyGroup, gidModerators},
		"can_delete_any_message_group":        {st.RealmCanDeleteAnyMessageGroup, gidAdministrators},
	} {
		if !sameGroupSetting(c.got, NamedGroupSetting(c.want)) {
			t.Errorf("%s: %+v, want group %d", name, c.got, c.want)
		}
	}
	if st.ServerCanSummarizeTopics {
		t.Error("server_can_summarize_topics is true; the fake has no summaries")
	}
}

// The permission settings are kept in fixtures: a dump holds them, and a
// load gives them back.
func TestRealmPermissionSettingsSurviveFixtures(t *testing.T) {
	r, _ := newTestRealm(t)
	anon := GroupSetting{DirectMembers: []int{idHamlet}, DirectSubgroups: []int{gidModerators}}
	r.UpdateSettings(func(s *Settings) {
		s.CanAccessAllUsersGroup = NamedGroupSetting(gidMembers)
		s.DirectMessageInitiatorGroup = anon
		s.DirectMessagePermissionGroup = NamedGroupSetting(gidMembers)
		s.CanCreateWebPublicChannelGroup = NamedGroupSetting(gidModerators)
		s.CanCreateBotsGroup = anon
		s.CanCreateWriteOnlyBotsGroup = NamedGroupSetting(gidNobody)
		s.CanSummarizeTopicsGroup = NamedGroupSetting(gidNobody)
		s.CanManageBillingGroup = anon
		s.CanSetTopicsPolicyGroup = NamedGroupSetting(gidAdministrators)
		s.CanSetDeleteMessagePolicyGroup = anon
	})
	loaded, err := Load(mustDump(t, r))
	if err != nil {
		t.Fatal(err)
	}
	want, got := r.Settings().fixture().GroupSettings, loaded.Settings().fixture().GroupSettings
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("loaded settings (-dumped +loaded):\n%s", diff)
	}
	if got["can_set_delete_message_policy_group"].DirectMembers[0] != idHamlet {
		t.Fatalf("loaded %+v", got)
	}
}
