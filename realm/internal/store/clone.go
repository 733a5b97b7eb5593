package store

import (
	"maps"
	"slices"

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
// the write lock of s (cloning marks its pages and blocks shared), and no
// one may use s while Clone runs.
func (s *Store) Clone() *Store {
	return &Store{
		byID:           s.byID.clone(),
		byTopic:        s.byTopic.clone(),
		byChannel:      s.byChannel.clone(),
		byConversation: s.byConversation.clone(),
		bySender:       s.bySender.clone(),
		received:       cloneLists(s.received),
		unread:         cloneLists(s.unread),
		clients:        maps.Clone(s.clients),
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

// clone returns a table sharing t's pages. Both tables get a new owner
// mark, so each copies a page the first time it writes it (ownPage). It
// costs the number of pages.
func (t *idTable) clone() idTable {
	t.owner = new(byte)
	return idTable{pages: slices.Clone(t.pages), n: t.n, owner: new(byte)}
}

// ownPage returns page pi for writing: a private copy when the page was
// made before the last clone.
func (t *idTable) ownPage(pi int) *idPage {
	p := t.pages[pi]
	if p != nil && p.owner != t.owner {
		c := *p
		c.owner = t.owner
		t.pages[pi] = &c
		return &c
	}
	return p
}

func cloneLists(m map[int]*userMessages) map[int]*userMessages {
	out := make(map[int]*userMessages, len(m))
	for uid, l := range m {
		out[uid] = l.clone()
	}
	return out
}

// sharedBit marks, in a block's dead count, a block shared with a clone:
// it is copied before it is written (own). Counts never reach it
// (blocks hold at most 2*blockSize entries).
const sharedBit = 1 << 15

// clone returns a list sharing l's blocks; both lists then copy a block
// before writing it. It costs the number of blocks.
func (l *userMessages) clone() *userMessages {
	for i := range l.dead {
		l.dead[i] |= sharedBit
	}
	return &userMessages{
		blocks: slices.Clone(l.blocks),
		lastID: slices.Clone(l.lastID),
		dead:   slices.Clone(l.dead),
		n:      l.n,
	}
}

// own returns block bi for writing: a private copy when the block is
// shared with a clone.
func (l *userMessages) own(bi int) []userMessage {
	b := l.blocks[bi]
	if l.dead[bi]&sharedBit != 0 {
		nb := make([]userMessage, len(b), max(blockSize, len(b)))
		copy(nb, b)
		l.blocks[bi] = nb
		l.dead[bi] &^= sharedBit
		return nb
	}
	return b
}

// deadIn is the number of tombstones in block bi.
func (l *userMessages) deadIn(bi int) int { return int(l.dead[bi] &^ sharedBit) }

// Replace puts msgs in place of the stored messages with the same IDs in
// every index, so that a caller can change its own copies of messages a
// clone shares (personal copies hold IDs, not messages). Each message must
// be stored, under the same type, channel, topic, sender and, for a direct
// message, conversationID.
func (s *Store) Replace(msgs []*message.Message, conversationID func(*message.Message) int) {
	for _, m := range msgs {
		s.byID.Put(m)
		e := idEntry{m.ID, m}
		if m.Type == message.Channel {
			if tr := s.byTopic.tree(m.ChannelID, topic.Key(m.Topic)); tr != nil {
				tr.ReplaceOrInsert(e)
			}
			replaceIn(s.byChannel, m.ChannelID, e)
		} else {
			replaceIn(s.byConversation, conversationID(m), e)
		}
		replaceIn(s.bySender, m.SenderID, e)
	}
}

// replaceIn swaps e for the entry of the same ID in key's tree.
func replaceIn(k keyed, key int, e idEntry) {
	if t := k[key]; t != nil {
		t.ReplaceOrInsert(e)
	}
}
