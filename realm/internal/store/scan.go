package store

import (
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/topic"
)

// Scan walks one set of messages in ID order, through the index that holds
// exactly that set. The callbacks return false to stop.
type Scan struct {
	down func(below int64, fn func(*message.Message) bool)
	up   func(from int64, fn func(*message.Message) bool)
}

// Down calls fn on the messages with IDs < below, newest first.
func (sc Scan) Down(below int64, fn func(*message.Message) bool) { sc.down(below, fn) }

// Up calls fn on the messages with IDs >= from, oldest first.
func (sc Scan) Up(from int64, fn func(*message.Message) bool) { sc.up(from, fn) }

// All scans every stored message.
func (s *Store) All() Scan { return s.byID.scan() }

// Topic scans one topic of a channel, matched case-insensitively.
func (s *Store) Topic(channelID int, name string) Scan {
	return treeScan(s.byTopic.tree(channelID, topic.Key(name)), &s.byID)
}

// TopicHasEarlier reports whether a channel's topic holds a message
// older than id, without walking it.
func (s *Store) TopicHasEarlier(channelID int, name string, id int64) bool {
	tr := s.byTopic.tree(channelID, topic.Key(name))
	if tr == nil {
		return false
	}
	oldest, ok := tr.Min()
	return ok && oldest < id
}

// Channel scans one channel's messages.
func (s *Store) Channel(channelID int) Scan { return s.byChannel.scan(channelID, &s.byID) }

// Conversation scans one direct-message conversation.
func (s *Store) Conversation(conversationID int) Scan {
	return treeScan(s.byConversation[conversationID], &s.byID)
}

// Sender scans one user's sent messages.
func (s *Store) Sender(userID int) Scan { return treeScan(s.bySender[userID], &s.byID) }

// Received scans the messages userID has a copy of.
func (s *Store) Received(userID int) Scan { return s.listScan(s.received[userID]) }

// Unread scans userID's unread messages.
func (s *Store) Unread(userID int) Scan { return s.listScan(s.unread[userID]) }

// Empty scans nothing.
func Empty() Scan {
	nop := func(int64, func(*message.Message) bool) {}
	return Scan{down: nop, up: nop}
}

// listScan walks one user's copy list, finding each message by ID.
func (s *Store) listScan(t *userMessages) Scan {
	if t == nil {
		return Empty()
	}
	each := func(fn func(*message.Message) bool) func(userMessage) bool {
		return func(um userMessage) bool {
			m, ok := s.Message(um.id())
			return !ok || fn(m)
		}
	}
	return Scan{
		down: func(below int64, fn func(*message.Message) bool) { t.Descend(below, each(fn)) },
		up:   func(from int64, fn func(*message.Message) bool) { t.Ascend(from, each(fn)) },
	}
}
