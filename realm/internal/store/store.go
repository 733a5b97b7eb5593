// Package store is the realm's message store: every message, indexed so
// that a fetch walks only the messages of the narrow it answers, and each
// user's personal copies (Zulip's UserMessage rows) with their flags.
//
// The store has no lock of its own: the realm's lock guards it, read lock
// for the reading methods, write lock for Insert, Remove, Deliver and
// SetFlags. The ID table holds each message's current version; every
// other index holds IDs only. Messages are shared pointers, which the
// store changes only to share strings (Insert) and in Move. A caller
// that changes a message first puts its own copy in place with Replace,
// and never changes its ID, type, channel, topic, sender or participants
// (which the indexes are keyed by) but through Move, or by removing and
// inserting it again.
package store

import (
	"math"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/message"
)

// btreeDegree is the fan-out of every message index.
const btreeDegree = 64

// Store holds every message of a realm. The zero value is not usable; call
// New.
type Store struct {
	byID           idTable // constant-time lookups: copy lists hold only IDs
	byTopic        topics
	byChannel      channels
	byConversation keyed
	bySender       keyed
	// per user: every message delivered to them, and the unread subset
	// (append-optimized lists, since new messages always have the highest ID).
	received map[int]*userMessages
	unread   map[int]*userMessages
	// clients interns client names, so that messages sent from one client
	// share its name's string.
	clients map[string]string
	// lowWrite is the lowest message ID a write touched since WatchWrites,
	// removals left out while watching; removed are the IDs of the
	// messages removed meanwhile.
	lowWrite int64
	watching bool
	removed  []int64
}

// WatchWrites starts recording the lowest message ID the store's writes
// touch (LowestWrite) and the messages removed (Removed), until
// StopWatching: a data directory learns so whether a change only added
// messages, or removed some.
func (s *Store) WatchWrites() {
	s.lowWrite, s.watching, s.removed = math.MaxInt64, true, s.removed[:0]
}

// StopWatching ends what WatchWrites started.
func (s *Store) StopWatching() { s.watching, s.removed = false, nil }

// LowestWrite is the lowest message ID whose message or copies a write
// other than a removal changed since WatchWrites (math.MaxInt64 for none;
// 0 before any WatchWrites, for a store whose writes are unknown).
func (s *Store) LowestWrite() int64 { return s.lowWrite }

// Removed are the IDs of the messages removed since WatchWrites, in the
// order of their removal.
func (s *Store) Removed() []int64 { return s.removed }

// maxWatchedRemovals bounds the removals a watch lists; past it, a
// removal counts as a write (LowestWrite).
const maxWatchedRemovals = 100_000

// removing records the removal of message id.
func (s *Store) removing(id int64) {
	if s.watching && len(s.removed) < maxWatchedRemovals {
		s.removed = append(s.removed, id)
		return
	}
	s.wrote(id)
}

// wrote records a write touching message id.
func (s *Store) wrote(id int64) { s.lowWrite = min(s.lowWrite, id) }

// wroteIDs records a write touching the messages ids.
func (s *Store) wroteIDs(ids []int64) {
	for _, id := range ids {
		s.wrote(id)
	}
}

// wroteMessages records a write touching msgs.
func (s *Store) wroteMessages(msgs []*message.Message) {
	for _, m := range msgs {
		s.wrote(m.ID)
	}
}

// maxClientNames bounds the client names interned; names past it are
// stored as they come.
const maxClientNames = 1000

// Copy is one user's personal copy of a message: the message and that
// user's flags.
type Copy struct {
	Message *message.Message
	Flags   message.Flags
}

// New returns an empty store.
func New() *Store {
	return &Store{
		byTopic:        topics{},
		byChannel:      channels{},
		byConversation: keyed{},
		bySender:       keyed{},
		received:       map[int]*userMessages{},
		unread:         map[int]*userMessages{},
		clients:        map[string]string{},
	}
}

func list(m map[int]*userMessages, userID int) *userMessages {
	t := m[userID]
	if t == nil {
		t = &userMessages{}
		m[userID] = t
	}
	return t
}

// Len is the number of stored messages.
func (s *Store) Len() int { return s.byID.Len() }

// Message returns the stored message with this ID.
func (s *Store) Message(id int64) (*message.Message, bool) {
	return s.byID.Get(id)
}

// Insert adds a message to the shared indexes; conversationID identifies
// a direct message's conversation (it is ignored for channel messages).
// Personal copies are added with Deliver. IDs are the realm's: numbered
// from 1 without gaps (the ID table grows to the highest). Insert makes m
// share its topic
// and client name strings with the messages stored before it.
func (s *Store) Insert(m *message.Message, conversationID int) {
	s.wrote(m.ID)
	m.Client = s.internClient(m.Client)
	s.byID.Put(m)
	if m.Type == message.Channel {
		s.byTopic.insert(m, &s.byID)
		s.byChannel.insert(m.ChannelID, m.ID)
	} else {
		s.byConversation.insert(conversationID, m)
	}
	s.bySender.insert(m.SenderID, m)
}

// internClient returns the stored string equal to name, storing name if
// it is new and the table is not full.
func (s *Store) internClient(name string) string {
	if stored, ok := s.clients[name]; ok {
		return stored
	}
	if len(s.clients) < maxClientNames {
		name = strings.Clone(name) // not a slice of a larger request string
		s.clients[name] = name
	}
	return name
}

// Remove deletes a message from every index, personal copies included,
// and returns the users who held a copy, in ascending order.
func (s *Store) Remove(m *message.Message, conversationID int) (holders []int) {
	s.removing(m.ID)
	s.byID.Delete(m.ID)
	if m.Type == message.Channel {
		s.byTopic.remove(m)
		s.byChannel.remove(m.ChannelID, m.ID)
	} else {
		s.byConversation.remove(conversationID, m.ID)
	}
	s.bySender.remove(m.SenderID, m.ID)
	for uid, t := range s.received {
		if t.Delete(m.ID) {
			holders = append(holders, uid)
			if u := s.unread[uid]; u != nil {
				u.Delete(m.ID)
			}
		}
	}
	slices.Sort(holders)
	return holders
}

// Deliver gives userID a personal copy of m with the given flags. Copies
// hold message IDs up to 2^47-1 (the realm numbers messages from 1).
func (s *Store) Deliver(userID int, m *message.Message, flags message.Flags) {
	s.wrote(m.ID)
	um := newUserMessage(m.ID, flags)
	list(s.received, userID).Put(um)
	if flags&message.Read == 0 {
		list(s.unread, userID).Put(um)
	}
}

// Copy returns userID's copy of message id.
func (s *Store) Copy(userID int, id int64) (Copy, bool) {
	t := s.received[userID]
	if t == nil {
		return Copy{}, false
	}
	um, ok := t.Get(id)
	if !ok {
		return Copy{}, false
	}
	return s.copyOf(um)
}

// copyOf resolves a copy list entry to its message.
func (s *Store) copyOf(um userMessage) (Copy, bool) {
	m, ok := s.Message(um.id())
	return Copy{Message: m, Flags: um.flags()}, ok
}

// eachCopy adapts fn to walk a copy list, skipping (never expected)
// entries whose message is gone.
func (s *Store) eachCopy(fn func(Copy) bool) func(userMessage) bool {
	return func(um userMessage) bool {
		c, ok := s.copyOf(um)
		return !ok || fn(c)
	}
}

// HasCopy reports whether userID received message id.
func (s *Store) HasCopy(userID int, id int64) bool {
	t := s.received[userID]
	if t == nil {
		return false
	}
	_, ok := t.Get(id)
	return ok
}

// SetFlags stores new flags on userID's copy of message id, keeping the
// unread index in step. It reports whether the user has such a copy.
func (s *Store) SetFlags(userID int, id int64, flags message.Flags) bool {
	s.wrote(id)
	t := s.received[userID]
	if t == nil {
		return false
	}
	um, ok := t.Get(id)
	if !ok {
		return false
	}
	wasRead := um.flags()&message.Read != 0
	um = um.withFlags(flags)
	t.Put(um)
	switch isRead := flags&message.Read != 0; {
	case isRead && !wasRead:
		s.unread[userID].Delete(id)
	default:
		if !isRead {
			list(s.unread, userID).Put(um)
		}
	}
	return true
}

// NewestCopyID is the ID of the newest message userID received.
func (s *Store) NewestCopyID(userID int) (int64, bool) {
	if t := s.received[userID]; t != nil {
		if um, ok := t.Max(); ok {
			return um.id(), true
		}
	}
	return 0, false
}

// Copies calls fn on userID's copies with IDs >= from, oldest first, until
// fn returns false.
func (s *Store) Copies(userID int, from int64, fn func(Copy) bool) {
	if t := s.received[userID]; t != nil {
		t.Ascend(from, s.eachCopy(fn))
	}
}

// CopiesDescending calls fn on userID's copies with IDs < below, newest
// first, until fn returns false.
func (s *Store) CopiesDescending(userID int, below int64, fn func(Copy) bool) {
	if t := s.received[userID]; t != nil {
		t.Descend(below, s.eachCopy(fn))
	}
}

// UnreadCopies calls fn on userID's unread copies, oldest first, until fn
// returns false.
func (s *Store) UnreadCopies(userID int, fn func(Copy) bool) {
	if t := s.unread[userID]; t != nil {
		t.Ascend(0, s.eachCopy(fn))
	}
}

// SetFlag sets (on) or clears one flag on userID's copies of the listed
// messages, keeping the unread index in step: the batch form of SetFlags,
// for marking a topic or a range read at once. ids must be ascending and
// without repeats; IDs the user holds no copy of are skipped. Marking k
// copies read costs one pass over the blocks holding them, not a block
// shift per message.
func (s *Store) SetFlag(userID int, ids []int64, flag message.Flags, on bool) {
	s.wroteIDs(ids)
	t := s.received[userID]
	if t == nil || len(ids) == 0 {
		return
	}
	apply := func(um *userMessage) {
		if on {
			*um = um.withFlags(um.flags() | flag)
		} else {
			*um = um.withFlags(um.flags() &^ flag)
		}
	}
	switch {
	case flag == message.Read && on:
		t.each(ids, apply)
		if u := s.unread[userID]; u != nil {
			u.removeSorted(ids, nil)
		}
	case flag == message.Read:
		u := list(s.unread, userID)
		t.each(ids, func(um *userMessage) {
			apply(um)
			u.Put(*um)
		})
	default:
		t.each(ids, apply)
		if u := s.unread[userID]; u != nil {
			u.each(ids, apply)
		}
	}
}

// Holders calls fn with each user holding a copy of message id and that
// copy's flags, in no particular order. It looks at every user's copies,
// so it suits rare questions (read receipts), not hot paths.
func (s *Store) Holders(id int64, fn func(userID int, flags message.Flags)) {
	for uid, l := range s.received {
		if um, ok := l.Get(id); ok {
			fn(uid, um.flags())
		}
	}
}
