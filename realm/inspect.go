package realm

import (
	"context"

	"github.com/minizulip/minizulip/user"
)

// MessageCount is the number of stored messages, for tests that assert
// that a rejected request stored nothing.
func (r *Realm) MessageCount() int {
	var n int
	_ = r.view(func() error {
		n = r.messages.store.Len()
		return nil
	})
	return n
}

// LastMessage returns the newest stored message as userID would fetch it
// (raw Markdown content), for tests that inspect what was sent.
func (r *Realm) LastMessage(ctx context.Context, userID int) (Message, bool) {
	res, err := r.As(userID).Messages(ctx, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 1, IncludeAnchor: true})
	if err != nil || len(res.Messages) == 0 {
		return Message{}, false
	}
	return res.Messages[0], true
}

// UpdateUserSettings changes a user's personal settings directly, for
// tests and embedders; it reports whether the user exists.
func (r *Realm) UpdateUserSettings(userID int, fn func(*user.Settings)) bool {
	found := false
	_ = r.update(func() error {
		if u := r.users.byID[userID]; u != nil {
			fn(&u.Settings)
			found = true
		}
		return nil
	})
	return found
}

// UserEmail is a user's delivery email, the address they log in with.
func (r *Realm) UserEmail(userID int) (email string, ok bool) {
	_ = r.view(func() error {
		if u := r.users.byID[userID]; u != nil {
			email, ok = u.DeliveryEmail, true
		}
		return nil
	})
	return email, ok
}

// LoginEmail is an account to log in with, for banners and examples: the
// active human administrator (owners included) with the lowest ID, else
// the active human with the lowest ID; empty when there is none.
func (r *Realm) LoginEmail() string {
	var admin, human string
	_ = r.view(func() error {
		for _, u := range r.users.sorted() {
			if !u.IsActive || u.IsBot() || u.IsSystemBot {
				continue
			}
			if human == "" {
				human = u.DeliveryEmail
			}
			if admin == "" && u.Role.IsAdmin() {
				admin = u.DeliveryEmail
			}
		}
		return nil
	})
	if admin != "" {
		return admin
	}
	return human
}
