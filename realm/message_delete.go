package realm

import (
	"context"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// DeleteMessage deletes a message (DELETE /messages/{id}). Members of
// can_delete_any_message_group (administrators below feature level 281)
// may delete any message; others only their own (or their bots'), while
// can_delete_own_message_group allows it and the delete time limit has not
// passed.
func (a *Actor) DeleteMessage(ctx context.Context, id int64) error {
	r := a.r
	return a.logged("delete_message", id).write(ctx, func(me *user.User) error {
		m := r.accessibleMessage(me, id)
		if m == nil {
			return invalidMessage()
		}
		if !r.mayDeleteAnyMessage(me) {
			own := m.SenderID == me.ID
			if sender := r.users.byID[m.SenderID]; sender != nil && sender.IsBot() && sender.BotOwnerID == me.ID {
				own = true
			}
			if !own || !r.settingHas(r.settings.CanDeleteOwnMessageGroup, me.ID) {
				return BadRequest("You don't have permission to delete this message")
			}
			if limit := r.settings.MessageContentDeleteLimitSeconds; limit != nil &&
				r.clock.Now().Unix()-m.Timestamp > int64(*limit) {
				return BadRequest("The time limit for deleting this message has passed")
			}
		}
		r.removeMessage(m)
		return nil
	})
}

// removeMessage drops m from every index and keeps the channel's
// first_message_id current. The caller holds the write lock.
func (r *Realm) removeMessage(m *message.Message) { r.removeMessages([]*message.Message{m}) }

// mayDeleteAnyMessage is Zulip's can_delete_any_message_group from feature
// level 281; before, organization administrators.
func (r *Realm) mayDeleteAnyMessage(u *user.User) bool {
	if !r.has(changeDeleteAnyMessageGroup) {
		return u.Role.IsAdmin()
	}
	return r.hasRealmPermission("can_delete_any_message_group", r.settings.CanDeleteAnyMessageGroup, u)
}
