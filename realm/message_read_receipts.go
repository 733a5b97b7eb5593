package realm

import (
	"context"
	"slices"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// ReadReceipts answers GET /messages/{message_id}/read_receipts: the
// users who marked a message the caller may read as read, in ascending
// order. Never its sender, nor deactivated users, nor those who turned
// send_read_receipts off (bots included, as Zulip includes them). The
// realm's enable_read_receipts setting turns the endpoint off.
func (a *Actor) ReadReceipts(ctx context.Context, messageID int64) ([]int, error) {
	r := a.r
	var ids []int
	err := a.read(ctx, func(me *user.User) error {
		m := r.accessibleMessage(me, messageID)
		if m == nil {
			return invalidMessage()
		}
		if !r.settings.EnableReadReceipts {
			return BadRequest("Read receipts are disabled in this organization.")
		}
		ids = []int{}
		r.messages.store.Holders(m.ID, func(uid int, flags message.Flags) {
			u := r.users.byID[uid]
			if flags&message.Read != 0 && uid != m.SenderID && u != nil && u.IsActive && u.Settings.SendReadReceipts {
				ids = append(ids, uid)
			}
		})
		slices.Sort(ids)
		return nil
	})
	return ids, err
}
