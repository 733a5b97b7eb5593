package realm

import "github.com/minizulip/minizulip/group"

// Below feature level 316 who may move messages between topics was the
// realm's edit_topic_policy enum, not can_move_messages_between_topics_group;
// a server of such a level announced a change of it as the update_dict
// event's edit_topic_policy. The realm keeps the group setting and, below
// 316, announces a change of it by the policy that names the same system
// group.

// editTopicPolicies are the edit_topic_policy values by the system group
// each stood for (Zulip's OpenAPI: 1 members, 2 administrators, 3 full
// members, 4 moderators, 5 everyone, 6 nobody).
var editTopicPolicies = map[string]int{
	group.Members:        1,
	group.Administrators: 2,
	group.FullMembers:    3,
	group.Moderators:     4,
	group.Everyone:       5,
	group.Nobody:         6,
}

// editTopicPolicy is the edit_topic_policy a value of
// can_move_messages_between_topics_group stands for; ok is false for a
// value no policy names (another group, an anonymous group).
func (r *Realm) editTopicPolicy(v any) (policy int, ok bool) {
	s, isSetting := v.(GroupSetting)
	if !isSetting || s.GroupID == 0 {
		return 0, false
	}
	if g := r.groups.byID[s.GroupID]; g != nil && g.IsSystem {
		policy, ok = editTopicPolicies[g.Name]
	}
	return policy, ok
}

// announceEditTopicPolicy sends, below feature level 316, the
// update_dict event of edit_topic_policy for a change of
// can_move_messages_between_topics_group from before to after, when the
// policy it stands for changed; it reports whether the level is below
// 316 (the group setting itself is then not announced).
func (r *Realm) announceEditTopicPolicy(before, after any, to []int) bool {
	if r.has(changeEditTopicPolicyRemoved) {
		return false
	}
	old, _ := r.editTopicPolicy(before)
	if p, ok := r.editTopicPolicy(after); ok && p != old {
		r.emit("realm", RealmUpdateDictEvent{Op: "update_dict", Property: "default", Data: map[string]any{"edit_topic_policy": p}}, to...)
	}
	return true
}
