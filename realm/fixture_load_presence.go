package realm

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/minizulip/minizulip/emoji"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// This file dumps and loads users' statuses and presence.

// dumpPresence adds the users' statuses (by user ID) and presence (in
// update order) to f; the caller holds the lock.
func (r *Realm) dumpPresence(f *fixture.Document) {
	for _, uid := range slices.Sorted(maps.Keys(r.statuses)) {
		s := r.statuses[uid]
		fs := fixture.UserStatus{UserID: uid, StatusText: s.text}
		if s.emojiName != "" {
			fs.EmojiName, fs.EmojiCode, fs.ReactionType = s.emojiName, s.emojiCode, s.emoji
		}
		f.UserStatuses = append(f.UserStatuses, fs)
	}
	recs := slices.SortedFunc(maps.Keys(r.presence), func(a, b int) int {
		return r.presence[a].updateID - r.presence[b].updateID
	})
	for _, uid := range recs {
		rec := r.presence[uid]
		fp := fixture.Presence{UserID: uid, IdleTimestamp: rec.lastConnected.Unix()}
		if !rec.lastActive.IsZero() {
			fp.ActiveTimestamp = rec.lastActive.Unix()
		}
		f.Presence = append(f.Presence, fp)
	}
}

// loadPresence adds the document's user statuses, then its presence.
// The realm's seeded presence (WithSeededPresence) is not made: the
// document's is the realm's.
func (r *Realm) loadPresence(f *fixture.Document) error {
	if err := r.loadStatuses(f); err != nil {
		return err
	}
	return r.loadPresenceRecords(f)
}

// loadStatuses checks each status as POST /users/me/status does: a
// human user, status text trimmed and within its limit, an emoji named
// (its code and type looked up when absent) that exists; a custom emoji
// deactivated since is kept, as statuses keep theirs. A user has one
// status.
func (r *Realm) loadStatuses(f *fixture.Document) error {
	for i, fs := range f.UserStatuses {
		at := fmt.Sprintf("user_statuses[%d]", i)
		u, err := r.fixtureHuman(at, fs.UserID)
		if err != nil {
			return err
		}
		if r.statuses[fs.UserID] != nil {
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
		if r.statuses == nil {
			r.statuses = map[int]*storedStatus{}
		}
		r.statuses[u.ID] = s
	}
	return nil
}

// loadPresenceRecords checks each presence: a human user listed once, a
// last report, and a last active report no later than it. The updates
// are numbered in the order listed.
func (r *Realm) loadPresenceRecords(f *fixture.Document) error {
	for i, fp := range f.Presence {
		at := fmt.Sprintf("presence[%d]", i)
		u, err := r.fixtureHuman(at, fp.UserID)
		if err != nil {
			return err
		}
		if r.presence[u.ID] != nil {
			return badItem(at+".user_id", "user %d has another presence", u.ID)
		}
		if fp.IdleTimestamp <= 0 {
			return badItem(at+".idle_timestamp", "%d is not a time", fp.IdleTimestamp)
		}
		if fp.ActiveTimestamp < 0 || fp.ActiveTimestamp > fp.IdleTimestamp {
			return badItem(at+".active_timestamp", "%d is not a time at or before idle_timestamp %d", fp.ActiveTimestamp, fp.IdleTimestamp)
		}
		rec := &presenceRecord{lastConnected: time.Unix(fp.IdleTimestamp, 0), updateID: i + 1}
		if fp.ActiveTimestamp > 0 {
			rec.lastActive = time.Unix(fp.ActiveTimestamp, 0)
		}
		if r.presence == nil {
			r.presence = map[int]*presenceRecord{}
		}
		r.presence[u.ID] = rec
	}
	r.presenceUpdates = len(f.Presence)
	return nil
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
