package realm

import (
	"context"

	"github.com/minizulip/minizulip/user"
)

// MessageCount is the number of stored messages, for tests that assert
// that a rejected request stored nothing.
func (r *Realm) MessageCount() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.messages.byID.Len()
}

// LastMessage returns the newest stored message as userID would fetch it
// (raw Markdown content), for tests that inspect what was sent.
func (r *Realm) LastMessage(ctx context.Context, userID int) (Message, bool) {
	res, err := r.As(userID).GetMessages(ctx, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 1, IncludeAnchor: true})
	if err != nil || len(res.Messages) == 0 {
		return Message{}, false
	}
	return res.Messages[0], true
}

// UpdateUserSettings changes a user's personal settings directly, for
// tests and embedders; it reports whether the user exists.
func (r *Realm) UpdateUserSettings(userID int, fn func(*user.Settings)) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	u := r.users[userID]
	if u == nil {
		return false
	}
	fn(&u.Settings)
	return true
}
