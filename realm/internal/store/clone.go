package store

import (
	"slices"
	"sort"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/topic"
)

// This file holds the store's copy-on-write cloning, which realm snapshots
// and forks rest on. A clone shares everything with its original: the
// message indexes are btrees, whose Clone is lazy (each side copies a node
// the first time it writes it), and each user's copy lists share their
// blocks, a side copying a block the first time it writes it (own). So a
// clone costs the number of index keys and list blocks, not of messages.
//
// Messages are shared too: the store never changes a message, and a caller
// about to change a stored message that a clone may share replaces it
// first with its own copy (Replace).

// Clone returns a store holding the same messages and copies as s, which
// either may then change without the other seeing it. The caller holds
// the write lock of s (cloning marks its nodes and blocks shared), and no
// one may use s while Clone runs.
func (s *Store) Clone() *Store {
	return &Store{
		byID:           s.byID.Clone(),
		byTopic:        s.byTopic.clone(),
		byChannel:      s.byChannel.clone(),
		byConversation: s.byConversation.clone(),
		bySender:       s.bySender.clone(),
		received:       cloneLists(s.received),
		unread:         cloneLists(s.unread),
	}
}

func (k keyed) clone() keyed {
	out := make(keyed, len(k))
	for key, t := range k {
		out[key] = t.Clone()
	}
	return out
}

func (t topics) clone() topics {
	out := make(topics, len(t))
	for ch, byKey := range t {
		c := make(map[string]*idTree, len(byKey))
		for key, tr := range byKey {
			c[key] = tr.Clone()
		}
		out[ch] = c
	}
	return out
}

func cloneLists(m map[int]*userMessages) map[int]*userMessages {
	out := make(map[int]*userMessages, len(m))
	for uid, l := range m {
		out[uid] = l.clone()
	}
	return out
}

// clone returns a list sharing l's blocks; both lists then copy a block
// before writing it. It costs the number of blocks.
func (l *userMessages) clone() *userMessages {
	if len(l.shared) != len(l.blocks) {
		l.shared = make([]bool, len(l.blocks))
	}
	for i := range l.shared {
		l.shared[i] = true
	}
	return &userMessages{
		blocks: slices.Clone(l.blocks),
		lastID: slices.Clone(l.lastID),
		shared: slices.Clone(l.shared),
		n:      l.n,
	}
}

// own returns block bi for writing: a private copy when the block is
// shared with a clone.
func (l *userMessages) own(bi int) []userMessage {
	b := l.blocks[bi]
	if l.shared != nil && l.shared[bi] {
		nb := make([]userMessage, len(b), max(blockSize, len(b)))
		copy(nb, b)
		l.blocks[bi], l.shared[bi] = nb, false
		return nb
	}
	return b
}

// blockInserted keeps the shared marks in step with a block inserted at
// index i (a new block, owned).
func (l *userMessages) blockInserted(i int) {
	if l.shared != nil {
		l.shared = slices.Insert(l.shared, i, false)
	}
}

// blockDeleted keeps the shared marks in step with the block deleted at
// index i.
func (l *userMessages) blockDeleted(i int) {
	if l.shared != nil {
		l.shared = slices.Delete(l.shared, i, i+1)
	}
}

// Replace puts msgs in place of the stored messages with the same IDs, in
// every index and in every user's copies (flags kept), so that a caller
// can change its own copies of messages a clone shares. Each message must
// be stored, under the same type, channel, topic, sender and, for a direct
// message, conversationID.
func (s *Store) Replace(msgs []*message.Message, conversationID func(*message.Message) int) {
	if len(msgs) == 0 {
		return
	}
	byID := make(map[int64]*message.Message, len(msgs))
	ids := make([]int64, 0, len(msgs))
	for _, m := range msgs {
		e := idEntry{m.ID, m}
		s.byID.ReplaceOrInsert(e)
		if m.Type == message.Channel {
			if tr := s.byTopic.tree(m.ChannelID, topic.Key(m.Topic)); tr != nil {
				tr.ReplaceOrInsert(e)
			}
			replaceIn(s.byChannel, m.ChannelID, e)
		} else {
			replaceIn(s.byConversation, conversationID(m), e)
		}
		replaceIn(s.bySender, m.SenderID, e)
		byID[m.ID] = m
		ids = append(ids, m.ID)
	}
	slices.Sort(ids)
	for _, lists := range []map[int]*userMessages{s.received, s.unread} {
		for _, l := range lists {
			l.replace(ids, byID)
		}
	}
}

// replaceIn swaps e for the entry of the same ID in key's tree.
func replaceIn(k keyed, key int, e idEntry) {
	if t := k[key]; t != nil {
		t.ReplaceOrInsert(e)
	}
}

// replace points the entries of the listed IDs (ascending) at their new
// messages, copying the blocks it writes that a clone shares.
func (l *userMessages) replace(ids []int64, msgs map[int64]*message.Message) {
	if l.n == 0 {
		return
	}
	for _, id := range ids {
		bi := l.blockFor(id)
		b := l.blocks[bi]
		j := sort.Search(len(b), func(j int) bool { return b[j].id >= id })
		if j < len(b) && b[j].id == id {
			l.own(bi)[j].msg = msgs[id]
		}
	}
}
