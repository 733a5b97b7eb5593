package realm

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Each changed setting is its own event, in the form Zulip sends for it:
// op update with property and value for most, update_dict for
// allow_message_editing, message_content_edit_limit_seconds and
// group-valued settings; a time limit turned off comes first, as null.
func TestUpdateSettingsEventForms(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm"}})
	r.UpdateSettings(func(s *Settings) {
		s.Name = "Elsinore"
		s.Description = "A castle"
		s.AllowMessageEditing = false
		s.EnableReadReceipts = !s.EnableReadReceipts
		s.MessageContentEditLimitSeconds = nil
		s.MessageContentDeleteLimitSeconds = intPtr(60)
		s.CanResolveTopicsGroup = NamedGroupSetting(gidModerators)
	})
	r.UpdateSettings(func(s *Settings) {}) // no change, no event
	st := r.Settings()
	want := []map[string]any{
		{"type": "realm", "op": "update_dict", "property": "default", "data": map[string]any{"message_content_edit_limit_seconds": nil}},
		{"type": "realm", "op": "update", "property": "name", "value": "Elsinore"},
		{"type": "realm", "op": "update", "property": "description", "value": "A castle"},
		{"type": "realm", "op": "update_dict", "property": "default", "data": map[string]any{"allow_message_editing": false}},
		{"type": "realm", "op": "update", "property": "enable_read_receipts", "value": st.EnableReadReceipts},
		{"type": "realm", "op": "update", "property": "message_content_delete_limit_seconds", "value": float64(60)},
		{"type": "realm", "op": "update_dict", "property": "default", "data": map[string]any{"can_resolve_topics_group": float64(gidModerators)}},
	}
	evs := pending(t, r, idHamlet, q, -1)
	var got []map[string]any
	for _, ev := range evs {
		j := eventJSON(t, ev)
		delete(j, "id")
		got = append(got, j)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
}

// Every setting apiValues reports is announced when it changes: a key
// missing from realmSettingForms would be dropped silently.
func TestEverySettingIsAnnounced(t *testing.T) {
	var s Settings
	announced := map[string]bool{"topics_policy": true, moderationRequestChannelProperty: true, signupAnnouncementsProperty: true,
		newChannelAnnouncementsProperty: true}
	// allow_edit_history is announced for the edit history policy below
	// feature level 358.
	announced["allow_edit_history"] = true
	announced["authentication_methods"] = true // after the group settings
	for _, f := range realmSettingForms {
		announced[f.name] = true
	}
	for _, g := range s.groupSettings() {
		announced[g.name] = true
	}
	for name := range s.apiValues() {
		if !announced[name] {
			t.Errorf("%s changes are never announced", name)
		}
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

// A mandatory_topics change is the update_dict of topics_policy and
// mandatory_topics from feature level 392 on, as Zulip's topics_policy
// event; below it, Zulip's update of mandatory_topics.
func TestMandatoryTopicsEventByLevel(t *testing.T) {
	for _, c := range []struct {
		level int
		want  map[string]any
	}{
		{496, map[string]any{"type": "realm", "op": "update_dict", "property": "default",
			"data": map[string]any{"mandatory_topics": true, "topics_policy": "disable_empty_topic"}}},
		{392, map[string]any{"type": "realm", "op": "update_dict", "property": "default",
			"data": map[string]any{"mandatory_topics": true, "topics_policy": "disable_empty_topic"}}},
		{391, map[string]any{"type": "realm", "op": "update", "property": "mandatory_topics", "value": true}},
	} {
		r, _ := newTestRealm(t, WithFeatureLevel(c.level, "x"))
		q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm"}})
		r.UpdateSettings(func(s *Settings) { s.MandatoryTopics = true })
		evs := pending(t, r, idHamlet, q, -1)
		if len(evs) != 1 {
			t.Fatalf("level %d: events %+v", c.level, evs)
		}
		j := eventJSON(t, evs[0])
		delete(j, "id")
		if diff := cmp.Diff(c.want, j); diff != "" {
			t.Errorf("level %d: event (-want +got):\n%s", c.level, diff)
		}
	}
}
