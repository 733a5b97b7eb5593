package realm

import (
	"strconv"

	"github.com/minizulip/minizulip/user"
)

// PresenceEvent is a presence event in one of its three shapes: the
// modern one (Presences only) for queues declaring the
// simplified_presence_events capability (feature level 419), and the
// legacy one (UserID, ServerTimestamp, Presence) for the others, with the
// user's Email unless the queue registered with slim_presence.
type PresenceEvent struct {
	UserID          int                             `json:"user_id,omitempty"`
	Email           string                          `json:"email,omitempty"`
	ServerTimestamp float64                         `json:"server_timestamp,omitempty"`
	Presence        map[string]LegacyClientPresence `json:"presence,omitempty"`
	Presences       map[string]ModernPresence       `json:"presences,omitempty"`
}

// emitPresence tells every active user's queues of u's presence, in the
// shape each queue asked for. The caller holds the write lock.
func (r *Realm) emitPresence(u *user.User, rec *presenceRecord) {
	if r.events.Empty() {
		return
	}
	website := r.legacyPresence(u, rec)
	ts := serverTimestamp(r.clock.Now())
	simplified := &change{typ: "presence", payload: PresenceEvent{
		Presences: map[string]ModernPresence{strconv.Itoa(u.ID): modernPresence(u, rec)}}}
	slim := &change{typ: "presence", payload: PresenceEvent{UserID: u.ID, ServerTimestamp: ts,
		Presence: map[string]LegacyClientPresence{"website": website}}}
	legacy := &change{typ: "presence", payload: PresenceEvent{UserID: u.ID, Email: r.apiEmail(u), ServerTimestamp: ts,
		Presence: map[string]LegacyClientPresence{"website": website}}}
	modernEvents := r.has(changeSimplifiedPresenceEvents)
	r.emitToActiveUsers("presence", func(q *Queue) *change {
		opts := &q.Config().opts
		switch {
		case modernEvents && opts.Capabilities.SimplifiedPresenceEvents:
			return simplified
		case opts.SlimPresence:
			return slim
		}
		return legacy
	})
}

// emitToActiveUsers offers a change to the queues of every active user
// of the realm; pick chooses the change each queue gets (its shape may
// depend on the queue's options), or nil for none. It walks the open
// queues, not the users, so a large realm costs only what its clients do.
// An event the realm's feature level does not have is sent to none.
// The caller holds the write lock.
func (r *Realm) emitToActiveUsers(typ string, pick func(q *Queue) *change) {
	r.events.PublishAll(typ, func(q *Queue) (queued, bool) {
		if u := r.users.byID[q.UserID()]; u == nil || !u.IsActive || u.IsSystemBot {
			return queued{}, false
		}
		c := pick(q)
		// As every other path to the queues: an event newer than the
		// realm's level is not sent (feature_changes.go).
		return queued{c: c}, c != nil && r.eventAtLevel(c.typ, c.payload)
	})
}
