package realm

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUpdateSettingsEmitsUpdateDict(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm"}})
	r.UpdateSettings(func(s *Settings) {
		s.AllowMessageEditing = false
		s.MessageContentEditLimitSeconds = nil
	})
	r.UpdateSettings(func(s *Settings) {}) // no change, no event
	evs := pending(t, r, idHamlet, q, -1)
	if len(evs) != 1 {
		t.Fatalf("events %+v", evs)
	}
	j := eventJSON(t, evs[0])
	data := j["data"].(map[string]any)
	if j["op"] != "update_dict" || j["property"] != "default" || len(data) != 2 || data["allow_message_editing"] != false ||
		data["message_content_edit_limit_seconds"] != nil {
		t.Fatalf("event %v", j)
	}
	if _, ok := data["message_content_edit_limit_seconds"]; !ok {
		t.Fatal("a limit set to unlimited is sent as null")
	}
}

// realmState is the realm section of userID's register answer.
func realmState(t *testing.T, r *Realm, userID int) *RealmState {
	t.Helper()
	state, err := r.As(userID).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm"}})
	if err != nil {
		t.Fatal(err)
	}
	return state.RealmState
}

// realm_wildcard_mention_policy is derived from can_mention_many_users_group
// as Zulip derives it: the system group's policy, everyone (1) otherwise.
func TestRegisterWildcardMentionPolicyFollowsGroupSetting(t *testing.T) {
	r, _ := newTestRealm(t)
	for _, c := range []struct {
		setting GroupSetting
		want    int
	}{
		{NamedGroupSetting(15), 1}, // role:everyone
		{NamedGroupSetting(14), 2}, // role:members
		{NamedGroupSetting(13), 3}, // role:fullmembers
		{NamedGroupSetting(11), 5}, // role:administrators
		{NamedGroupSetting(9), 6},  // role:nobody
		{NamedGroupSetting(12), 7}, // role:moderators
		{NamedGroupSetting(10), 1}, // role:owners had no policy
		{NamedGroupSetting(17), 1}, // hamletcharacters
		{GroupSetting{DirectMembers: []int{idIago}}, 1},
	} {
		r.UpdateSettings(func(s *Settings) { s.CanMentionManyUsersGroup = c.setting })
		if got := realmState(t, r, idHamlet).RealmWildcardMentionPolicy; got != c.want {
			t.Errorf("can_mention_many_users_group %+v: realm_wildcard_mention_policy %d, want %d", c.setting, got, c.want)
		}
	}
}

// Register sends every group-valued realm setting, and topics_policy from
// feature level 392 on.
func TestRegisterRealmGroupSettingsAndTopicsPolicy(t *testing.T) {
	r, _ := newTestRealm(t, WithSettings(func(s *Settings) { s.MandatoryTopics = true }))
	st := realmState(t, r, idHamlet)
	if st.RealmCanCreateGroups.GroupID != 14 || st.RealmCanManageAllGroups.GroupID != 10 {
		t.Fatalf("can_create_groups %+v, can_manage_all_groups %+v", st.RealmCanCreateGroups, st.RealmCanManageAllGroups)
	}
	if st.RealmTopicsPolicy != "disable_empty_topic" || !st.RealmMandatoryTopics {
		t.Fatalf("topics_policy %q, mandatory_topics %v", st.RealmTopicsPolicy, st.RealmMandatoryTopics)
	}
	old, _ := newTestRealm(t, WithFeatureLevel(391, "11.0-dev"))
	if st := realmState(t, old, idHamlet); st.RealmTopicsPolicy != "" {
		t.Fatalf("realm_topics_policy %q at feature level 391", st.RealmTopicsPolicy)
	}
}

// A mandatory_topics change carries topics_policy along from feature
// level 392 on, as Zulip's event does.
func TestUpdateDictCarriesTopicsPolicyFromLevel392(t *testing.T) {
	for _, c := range []struct {
		level int
		want  map[string]any
	}{
		{496, map[string]any{"mandatory_topics": true, "topics_policy": "disable_empty_topic"}},
		{391, map[string]any{"mandatory_topics": true}},
	} {
		r, _ := newTestRealm(t, WithFeatureLevel(c.level, "x"))
		q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm"}})
		r.UpdateSettings(func(s *Settings) { s.MandatoryTopics = true })
		evs := pending(t, r, idHamlet, q, -1)
		if len(evs) != 1 {
			t.Fatalf("level %d: events %+v", c.level, evs)
		}
		if diff := cmp.Diff(c.want, eventJSON(t, evs[0])["data"]); diff != "" {
			t.Errorf("level %d: data (-want +got):\n%s", c.level, diff)
		}
	}
}
