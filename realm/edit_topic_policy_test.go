package realm

import "testing"

// Below feature level 316 a change of who may move messages between
// topics is announced as edit_topic_policy (the policy naming the same
// system group); from 316 on as can_move_messages_between_topics_group.
func TestEditTopicPolicyEventFollowsFeatureLevel(t *testing.T) {
	for _, level := range []int{changeEditTopicPolicyRemoved.Level() - 1, changeEditTopicPolicyRemoved.Level()} {
		t.Run(itoa(level), func(t *testing.T) {
			e := newRealmUpdateEnv(t, WithFeatureLevel(level, "test"))
			set := func(gid int) {
				e.update(idDesdemona, RealmUpdate{GroupSettings: map[string]GroupSettingChange{
					"can_move_messages_between_topics_group": {New: NamedGroupSetting(gid)}}})
			}
			set(gidModerators)
			data := e.lastData()
			if level < changeEditTopicPolicyRemoved.Level() {
				if len(data) != 1 || data["edit_topic_policy"] != float64(4) {
					t.Fatalf("level %d: %v, want edit_topic_policy 4", level, data)
				}
				set(gidNobody)
				if data := e.lastData(); data["edit_topic_policy"] != float64(6) {
					t.Fatalf("level %d: %v, want edit_topic_policy 6", level, data)
				}
				// Owners: no policy names it, and below 326 the setting
				// refuses it (allow_owners_group false); nothing is announced.
				_, err := e.r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{GroupSettings: map[string]GroupSettingChange{
					"can_move_messages_between_topics_group": {New: NamedGroupSetting(gidOwners)}}})
				wantCode(t, err, CodeBadRequest, "'can_move_messages_between_topics_group' setting cannot be set to 'role:owners' group.")
				if evs := e.next(idHamlet, e.hamletQ); len(evs) != 0 {
					t.Fatalf("level %d: owners announced: %v", level, eventJSON(t, evs[0]))
				}
				return
			}
			if _, ok := data["edit_topic_policy"]; ok || data["can_move_messages_between_topics_group"] != float64(gidModerators) {
				t.Fatalf("level %d: %v", level, data)
			}
		})
	}
}
