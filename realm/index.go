package realm

import (
	"github.com/google/btree"
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/topic"
)

// btreeDegree is the fan-out of every message index.
const btreeDegree = 64

// userMessage is a user's personal copy of a message (Zulip's UserMessage):
// the message plus that user's flags. Trees hold it by value, so delivering
// a message allocates nothing per recipient; changing flags writes it back.
type userMessage struct {
	id    int64
	flags message.Flags
	msg   *message.Message
}

type topicEntry struct {
	channel int
	key     string // topic.Key of the topic
	id      int64
	msg     *message.Message
}

type keyedEntry struct {
	key int // channel, conversation or sender id
	id  int64
	msg *message.Message
}

// messageIndex holds every message in btrees ordered by id within each
// key, so that a fetch walks only the messages of the narrow it answers.
type messageIndex struct {
	byID           *btree.BTreeG[*message.Message]
	byTopic        *btree.BTreeG[topicEntry]
	byChannel      *btree.BTreeG[keyedEntry]
	byConversation *btree.BTreeG[keyedEntry]
	bySender       *btree.BTreeG[keyedEntry]
	// per user: every message delivered to them, and the unread subset
	// (append-optimized lists, since new messages always have the highest ID).
	byUser     map[int]*userMessages
	unreadUser map[int]*userMessages
}

func newMessageIndex() *messageIndex {
	return &messageIndex{
		byID: btree.NewG(btreeDegree, func(a, b *message.Message) bool { return a.ID < b.ID }),
		byTopic: btree.NewG(btreeDegree, func(a, b topicEntry) bool {
			if a.channel != b.channel {
				return a.channel < b.channel
			}
			if a.key != b.key {
				return a.key < b.key
			}
			return a.id < b.id
		}),
		byChannel:      btree.NewG(btreeDegree, keyedLess),
		byConversation: btree.NewG(btreeDegree, keyedLess),
		bySender:       btree.NewG(btreeDegree, keyedLess),
		byUser:         map[int]*userMessages{},
		unreadUser:     map[int]*userMessages{},
	}
}

func keyedLess(a, b keyedEntry) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	return a.id < b.id
}

func (ix *messageIndex) userTree(m map[int]*userMessages, userID int) *userMessages {
	t := m[userID]
	if t == nil {
		t = &userMessages{}
		m[userID] = t
	}
	return t
}

// insert adds a message to the shared indexes; convID is the conversation
// id of a direct message (0 for channel messages).
func (ix *messageIndex) insert(m *message.Message, convID int) {
	ix.byID.ReplaceOrInsert(m)
	if m.Type == message.Channel {
		ix.byTopic.ReplaceOrInsert(topicEntry{m.ChannelID, topic.Key(m.Topic), m.ID, m})
		ix.byChannel.ReplaceOrInsert(keyedEntry{m.ChannelID, m.ID, m})
	} else {
		ix.byConversation.ReplaceOrInsert(keyedEntry{convID, m.ID, m})
	}
	ix.bySender.ReplaceOrInsert(keyedEntry{m.SenderID, m.ID, m})
}

// remove deletes a message from every index, personal copies included.
func (ix *messageIndex) remove(m *message.Message, convID int, holders []int) {
	ix.byID.Delete(m)
	if m.Type == message.Channel {
		ix.byTopic.Delete(topicEntry{channel: m.ChannelID, key: topic.Key(m.Topic), id: m.ID})
		ix.byChannel.Delete(keyedEntry{key: m.ChannelID, id: m.ID})
	} else {
		ix.byConversation.Delete(keyedEntry{key: convID, id: m.ID})
	}
	ix.bySender.Delete(keyedEntry{key: m.SenderID, id: m.ID})
	for _, uid := range holders {
		if t := ix.byUser[uid]; t != nil {
			t.Delete(m.ID)
		}
		if t := ix.unreadUser[uid]; t != nil {
			t.Delete(m.ID)
		}
	}
}

// deliver gives userID a personal copy of m with the given flags.
func (ix *messageIndex) deliver(userID int, m *message.Message, flags message.Flags) {
	um := userMessage{id: m.ID, flags: flags, msg: m}
	ix.userTree(ix.byUser, userID).Put(um)
	if flags&message.Read == 0 {
		ix.userTree(ix.unreadUser, userID).Put(um)
	}
}

// personal returns userID's copy of message id.
func (ix *messageIndex) personal(userID int, id int64) (userMessage, bool) {
	t := ix.byUser[userID]
	if t == nil {
		return userMessage{}, false
	}
	return t.Get(id)
}

// hasPersonal reports whether userID received message id.
func (ix *messageIndex) hasPersonal(userID int, id int64) bool {
	_, ok := ix.personal(userID, id)
	return ok
}

// setFlags stores new flags on userID's copy of message id, keeping the
// unread index in step. It reports whether the user has such a copy.
func (ix *messageIndex) setFlags(userID int, id int64, flags message.Flags) bool {
	um, ok := ix.personal(userID, id)
	if !ok {
		return false
	}
	wasRead := um.flags&message.Read != 0
	um.flags = flags
	ix.byUser[userID].Put(um)
	switch isRead := flags&message.Read != 0; {
	case isRead && !wasRead:
		ix.unreadUser[userID].Delete(id)
	case !isRead && wasRead:
		ix.userTree(ix.unreadUser, userID).Put(um)
	case !isRead:
		ix.unreadUser[userID].Put(um)
	}
	return true
}

// walker iterates a set of messages in id order: down walks ids < below in
// descending order, up walks ids >= from in ascending order. The callback
// returns false to stop.
type walker struct {
	down func(below int64, fn func(*message.Message) bool)
	up   func(from int64, fn func(*message.Message) bool)
}

func (ix *messageIndex) allWalker() walker {
	return walker{
		down: func(below int64, fn func(*message.Message) bool) {
			ix.byID.DescendLessOrEqual(&message.Message{ID: below - 1}, fn)
		},
		up: func(from int64, fn func(*message.Message) bool) {
			ix.byID.AscendGreaterOrEqual(&message.Message{ID: from}, fn)
		},
	}
}

func (ix *messageIndex) topicWalker(channel int, name string) walker {
	key := topic.Key(name)
	return walker{
		down: func(below int64, fn func(*message.Message) bool) {
			ix.byTopic.DescendRange(topicEntry{channel: channel, key: key, id: below - 1}, topicEntry{channel: channel, key: key, id: -1},
				func(e topicEntry) bool { return fn(e.msg) })
		},
		up: func(from int64, fn func(*message.Message) bool) {
			ix.byTopic.AscendRange(topicEntry{channel: channel, key: key, id: from}, topicEntry{channel: channel, key: key + "\x00", id: -1},
				func(e topicEntry) bool { return fn(e.msg) })
		},
	}
}

func keyedWalker(t *btree.BTreeG[keyedEntry], key int) walker {
	return walker{
		down: func(below int64, fn func(*message.Message) bool) {
			t.DescendRange(keyedEntry{key: key, id: below - 1}, keyedEntry{key: key, id: -1},
				func(e keyedEntry) bool { return fn(e.msg) })
		},
		up: func(from int64, fn func(*message.Message) bool) {
			t.AscendRange(keyedEntry{key: key, id: from}, keyedEntry{key: key + 1, id: -1},
				func(e keyedEntry) bool { return fn(e.msg) })
		},
	}
}

func userWalker(t *userMessages) walker {
	if t == nil {
		nop := func(int64, func(*message.Message) bool) {}
		return walker{down: nop, up: nop}
	}
	return walker{
		down: func(below int64, fn func(*message.Message) bool) {
			t.Descend(below, func(um userMessage) bool { return fn(um.msg) })
		},
		up: func(from int64, fn func(*message.Message) bool) {
			t.Ascend(from, func(um userMessage) bool { return fn(um.msg) })
		},
	}
}
