package realm

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/emoji"
	"github.com/minizulip/minizulip/user"
)

// maxStatusTextLength is Zulip's limit on status_text.
const maxStatusTextLength = 60

// UserStatus is a user's status as the API shows it: only the keys that
// are set. Away is the deprecated inverse of presence_enabled.
type UserStatus struct {
	Away         bool   `json:"away,omitempty"`
	StatusText   string `json:"status_text,omitempty"`
	EmojiName    string `json:"emoji_name,omitempty"`
	EmojiCode    string `json:"emoji_code,omitempty"`
	ReactionType string `json:"reaction_type,omitempty"`
}

// IsEmpty reports whether the status has no key set.
func (s UserStatus) IsEmpty() bool { return s == UserStatus{} }

// storedStatus is what a user last set with POST /users/me/status. A user
// who never set one has none, and shows the empty status.
type storedStatus struct {
	text                        string
	emojiName, emojiCode, emoji string // emoji is the reaction_type
}

// StatusUpdate is POST /users/me/status: nil fields are left as they are.
type StatusUpdate struct {
	// Away sets presence_enabled to its inverse (deprecated).
	Away         *bool
	StatusText   *string
	EmojiName    *string
	EmojiCode    *string
	ReactionType *string
}

// UserStatusEvent is a user_status event: the user and the fields the
// change set (an emptied emoji is sent as empty strings).
type UserStatusEvent struct {
	UserID       int     `json:"user_id"`
	Away         *bool   `json:"away,omitempty"`
	StatusText   *string `json:"status_text,omitempty"`
	EmojiName    *string `json:"emoji_name,omitempty"`
	EmojiCode    *string `json:"emoji_code,omitempty"`
	ReactionType *string `json:"reaction_type,omitempty"`
}

// GetUserStatus answers GET /users/{user_id}/status: the status of an
// active human user, empty when none is set.
func (a *Actor) GetUserStatus(ctx context.Context, userID int) (ans UserStatus, err error) {
	r := a.r
	err = a.read(func(me *user.User) error {
		u := r.realmUser(userID)
		if u == nil || u.IsBot() {
			return noSuchUser()
		}
		if !u.IsActive {
			return BadRequest("User is deactivated")
		}
		ans = r.statusOf(u)
		return nil
	})
	return ans, err
}

// UpdateStatus answers POST /users/me/status. Status text is trimmed and
// at most 60 characters; an emoji is named, and its code and namespace,
// when not given, are looked up from the name; an empty emoji_name clears
// the emoji. Every active user is told with a user_status event. Away,
// when given, sets presence_enabled to its inverse first.
func (a *Actor) UpdateStatus(ctx context.Context, req StatusUpdate) error {
	return a.write(func(me *user.User) error {
		if me.IsBot() {
			return BadRequest("This endpoint does not accept bot requests.")
		}
		return a.r.updateStatus(me, req)
	})
}

// UpdateStatusFor answers POST /users/{user_id}/status: an administrator
// sets another user's status, under the same rules as UpdateStatus.
func (a *Actor) UpdateStatusFor(ctx context.Context, userID int, req StatusUpdate) error {
	r := a.r
	return a.write(func(me *user.User) error {
		if !me.Role.IsAdmin() {
			return BadRequest("Insufficient permission")
		}
		target := r.realmUser(userID)
		if target == nil || target.IsBot() {
			return noSuchUser()
		}
		if !target.IsActive {
			return BadRequest("User is deactivated")
		}
		return r.updateStatus(target, req)
	})
}

// updateStatus checks and applies a status change of u and tells every
// active user. The caller holds the write lock.
func (r *Realm) updateStatus(u *user.User, req StatusUpdate) error {
	ev, err := r.checkStatusUpdate(req)
	if err != nil {
		return err
	}
	ev.UserID = u.ID
	if req.Away != nil {
		r.setPresenceEnabled(u, !*req.Away)
	}
	s := r.statuses[u.ID]
	if s == nil {
		s = &storedStatus{emoji: emoji.Unicode}
		if r.statuses == nil {
			r.statuses = map[int]*storedStatus{}
		}
		r.statuses[u.ID] = s
	}
	if ev.StatusText != nil {
		s.text = *ev.StatusText
	}
	if ev.EmojiName != nil {
		s.emojiName, s.emojiCode, s.emoji = *ev.EmojiName, *ev.EmojiCode, *ev.ReactionType
		spelled := r.reactionTypeName(s.emoji)
		ev.ReactionType = &spelled
	}
	c := &change{typ: "user_status", payload: ev}
	r.emitToActiveUsers("user_status", func(*Queue) *change { return c })
	return nil
}

// checkStatusUpdate validates a status change, filling in the emoji code
// and namespace, and returns the event announcing it (without user).
func (r *Realm) checkStatusUpdate(req StatusUpdate) (UserStatusEvent, error) {
	ev := UserStatusEvent{Away: req.Away}
	if req.StatusText != nil {
		text, err := checkStatusText(*req.StatusText)
		if err != nil {
			return ev, err
		}
		ev.StatusText = &text
	}
	if req.Away == nil && req.StatusText == nil && req.EmojiName == nil {
		return ev, BadRequest("Client did not pass any new values.")
	}
	if req.EmojiName == nil {
		if nonEmpty(req.EmojiCode) || nonEmpty(req.ReactionType) {
			return ev, BadRequest("Client must pass emoji_name if they pass either emoji_code or reaction_type.")
		}
		return ev, nil
	}
	name, code, typ := *req.EmojiName, "", emoji.Unicode
	if name != "" {
		if req.EmojiCode == nil || req.ReactionType == nil {
			foundCode, foundType, err := r.emojiByName(name)
			if err != nil {
				return ev, err
			}
			code, typ = foundCode, foundType
		}
		if req.EmojiCode != nil {
			code = *req.EmojiCode
		}
		if req.ReactionType != nil {
			typ = emoji.CanonicalType(*req.ReactionType)
		}
		if err := r.checkEmoji(name, code, typ); err != nil {
			return ev, err
		}
	}
	ev.EmojiName, ev.EmojiCode, ev.ReactionType = &name, &code, &typ
	return ev, nil
}

// checkStatusText trims a status text and checks its length.
func checkStatusText(raw string) (string, error) {
	text := strings.TrimSpace(raw)
	if utf8.RuneCountInString(text) > maxStatusTextLength {
		return "", BadRequest("status_text is too long (limit: %d characters)", maxStatusTextLength)
	}
	if err := noNull("status_text", text); err != nil {
		return "", err
	}
	return text, nil
}

func nonEmpty(s *string) bool { return s != nil && *s != "" }

// statusOf is u's status as others see it: empty when u never set one.
func (r *Realm) statusOf(u *user.User) UserStatus {
	s := r.statuses[u.ID]
	if s == nil {
		return UserStatus{}
	}
	out := UserStatus{Away: !u.Settings.PresenceEnabled, StatusText: s.text}
	if s.emojiName != "" {
		out.EmojiName, out.EmojiCode, out.ReactionType = s.emojiName, s.emojiCode, r.reactionTypeName(s.emoji)
	}
	return out
}

// fillUserStatus is the user_status section: the status of every active
// user who set a non-empty one, keyed by user ID.
func fillUserStatus(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	m := map[string]UserStatus{}
	for id := range r.statuses {
		u := r.realmUser(id)
		if u == nil || !u.IsActive {
			continue
		}
		if s := r.statusOf(u); !s.IsEmpty() {
			m[strconv.Itoa(id)] = s
		}
	}
	out.UserStatusState = &UserStatusState{UserStatus: m}
}
