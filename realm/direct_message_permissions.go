package realm

import (
	"slices"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// Who may send direct messages, as Zulip's check_can_send_direct_message
// decides from feature level 270: every direct message needs a member of
// direct_message_permission_group among its sender and recipients, and
// one from a user outside direct_message_initiator_group may only go to
// a conversation that already has messages. Bots, and messages only to
// bots or to oneself, are exempt. Below level 270 the realm's
// private_message_policy is its default, 1 (enabled): anyone may.

// hasRealmPermission reports whether u holds the realm permission the
// group-valued setting name gives, its value v: u is in the group, and
// is no guest unless the setting may be role:everyone (Zulip's
// user_has_permission_for_group_setting).
func (r *Realm) hasRealmPermission(name string, v GroupSetting, u *user.User) bool {
	if u.IsGuest() && !realmGroupRules[name].allowEveryone {
		return false
	}
	return r.settingHas(v, u.ID)
}

// checkDirectMessagePermission applies direct_message_permission_group
// to a direct message from sender to the users ids (sender included),
// and reports whether the conversation must already have messages
// (checked when the message is committed, conversationHasMessages).
func (r *Realm) checkDirectMessagePermission(sender *user.User, ids []int) (mustHaveMessages bool, err error) {
	if !r.has(changeDirectMessageGroups) || sender.IsBot() {
		return false, nil
	}
	if !slices.ContainsFunc(ids, func(id int) bool {
		u := r.users.byID[id]
		return id != sender.ID && u != nil && !u.IsBot()
	}) {
		return false, nil
	}
	s := r.settings
	if !slices.ContainsFunc(ids, func(id int) bool {
		u := r.users.byID[id]
		return u != nil && r.hasRealmPermission("direct_message_permission_group", s.DirectMessagePermissionGroup, u)
	}) {
		if g := r.groups.byID[s.DirectMessagePermissionGroup.GroupID]; g != nil && g.IsSystem && g.Name == group.Nobody {
			return false, BadRequest("Direct messages are disabled in this organization.")
		}
		return false, BadRequest("This conversation does not include any users who can authorize it.")
	}
	return !r.hasRealmPermission("direct_message_initiator_group", s.DirectMessageInitiatorGroup, sender), nil
}

// conversationHasMessages reports whether the direct-message
// conversation of exactly these users holds a message.
func (r *Realm) conversationHasMessages(ids []int) bool {
	c := r.recipients.conversations[conversationKey(ids)]
	if c == nil {
		return false
	}
	found := false
	r.messages.store.Conversation(c.id).Up(0, func(*message.Message) bool {
		found = true
		return false
	})
	return found
}

// errDirectMessageInitiation refuses a first direct message from a user
// outside direct_message_initiator_group.
func errDirectMessageInitiation() error {
	return BadRequest("You do not have permission to initiate direct message conversations.")
}
