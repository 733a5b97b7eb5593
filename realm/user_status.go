package realm

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/emoji"
	"github.com/minizulip/minizulip/realm/fixture"
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

// statusTable holds the users' statuses.
type statusTable struct {
	byUser map[int]*storedStatus // each user's status, once set
}

func (t *statusTable) clone() statusTable { return statusTable{byUser: clonePointerMap(t.byUser)} }

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

// UserStatus answers GET /users/{user_id}/status: the status of an
// active human user the caller may access (user_access.go), empty when
// none is set.
func (a *Actor) UserStatus(ctx context.Context, userID int) (ans UserStatus, err error) {
	r := a.r
	err = a.read(ctx, func(me *user.User) error {
		u, err := r.readableUser(me, userID, false, false)
		if err != nil {
			return err
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
	return a.write(ctx, func(me *user.User) error {
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
	return a.write(ctx, func(me *user.User) error {
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
	s := r.statuses.byUser[u.ID]
	if s == nil {
		s = &storedStatus{emoji: emoji.Unicode}
		if r.statuses.byUser == nil {
			r.statuses.byUser = map[int]*storedStatus{}
		}
		r.statuses.byUser[u.ID] = s
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
	r.emitToActiveUsers("user_status", func(q *Queue) *change {
		// From changeGuestAccessEvents, only those who may access u.
		if !r.hearsOfUser(r.users.byID[q.UserID()], u) {
			return nil
		}
		return c
	})
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
	s := r.statuses.byUser[u.ID]
	if s == nil {
		return UserStatus{}
	}
	out := UserStatus{Away: !u.Settings.PresenceEnabled, StatusText: s.text}
	if s.emojiName != "" {
		out.EmojiName, out.EmojiCode, out.ReactionType = s.emojiName, s.emojiCode, r.reactionTypeName(s.emoji)
	}
	return out
}

// dump adds the users' statuses to f, by user ID.
func (t *statusTable) dump(r *Realm, f *fixture.Document) error {
	for _, uid := range slices.Sorted(maps.Keys(t.byUser)) {
		s := t.byUser[uid]
		fs := fixture.UserStatus{UserID: uid, StatusText: s.text}
		if s.emojiName != "" {
			fs.EmojiName, fs.EmojiCode, fs.ReactionType = s.emojiName, s.emojiCode, s.emoji
		}
		f.UserStatuses = append(f.UserStatuses, fs)
	}
	return nil
}

// load checks each status of f as POST /users/me/status does: a
// human user, status text trimmed and within its limit, an emoji named
// (its code and type looked up when absent) that exists; a custom emoji
// deactivated since is kept, as statuses keep theirs. A user has one
// status.
func (t *statusTable) load(r *Realm, f *fixture.Document) error {
	for i, fs := range f.UserStatuses {
		at := fmt.Sprintf("user_statuses[%d]", i)
		u, err := r.fixtureHuman(at, fs.UserID)
		if err != nil {
			return err
		}
		if t.byUser[fs.UserID] != nil {
			return badItem(at+".user_id", "user %d has another status", fs.UserID)
		}
		text, err := checkStatusText(fs.StatusText)
		if err != nil {
			return badItem(at+".status_text", "%s", reason(err))
		}
		s := &storedStatus{text: text, emoji: emoji.Unicode}
		if fs.EmojiName == "" && (fs.EmojiCode != "" || fs.ReactionType != "") {
			return badItem(at, "Client must pass emoji_name if they pass either emoji_code or reaction_type.")
		}
		if fs.EmojiName != "" {
			code, typ := fs.EmojiCode, emoji.CanonicalType(fs.ReactionType)
			if code == "" || typ == "" {
				foundCode, foundType, err := r.emojiByName(fs.EmojiName)
				if err != nil {
					return badItem(at+".emoji_name", "%s", reason(err))
				}
				code, typ = cmp.Or(code, foundCode), cmp.Or(typ, foundType)
			}
			re, err := r.fixtureReaction(at, fixture.Reaction{UserID: u.ID, EmojiName: fs.EmojiName, EmojiCode: code, ReactionType: typ})
			if err != nil {
				return err
			}
			s.emojiName, s.emojiCode, s.emoji = re.EmojiName, re.EmojiCode, re.ReactionType
		}
		if t.byUser == nil {
			t.byUser = map[int]*storedStatus{}
		}
		t.byUser[u.ID] = s
	}
	return nil
}

// register fills the user_status section: the status of every active
// user who set a non-empty one, keyed by user ID.
func (t *statusTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if !req.fetches("user_status") {
		return
	}
	m := map[string]UserStatus{}
	for id := range t.byUser {
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

// fixtureHuman finds the human user an item at path names: statuses and
// presence are refused to bots, as their endpoints refuse bot requests.
func (r *Realm) fixtureHuman(path string, userID int) (*user.User, error) {
	u := r.realmUser(userID)
	if u == nil {
		return nil, badItem(path+".user_id", "no user %d", userID)
	}
	if u.IsBot() {
		return nil, badItem(path+".user_id", "This endpoint does not accept bot requests.")
	}
	return u, nil
}
