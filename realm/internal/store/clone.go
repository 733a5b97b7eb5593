package store

import (
	"maps"
	"slices"

	"github.com/minizulip/minizulip/message"
)

// This file holds the store's copy-on-write cloning, which realm snapshots
// and forks rest on. A clone shares everything with its original: the
// message indexes are btrees, whose Clone is lazy (each side copies a node
// the first time it writes it), the ID table shares its pages and each
// user's copy lists their chunks and blocks, a side copying one the first
// time it writes it. So a clone costs the number of index keys and users,
// not of messages.
//
// Messages are shared too: the store never changes a message, and a caller
// about to change a stored message that a clone may share replaces it
// first with its own copy (Replace).

// Clone returns a store holding the same messages and copies as s, which
// either may then change without the other seeing it. The caller holds
// the write lock of s (cloning gives s's table and lists new owner marks),
// and no one may use s while Clone runs.
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

// clone returns a table sharing t's page list and pages. Both tables get
// a new owner mark, so each copies a page the first time it writes it
// (ownPage), and the page list the first time it changes a page of it
// (ownPages). It costs the same whatever the number of messages.
func (t *idTable) clone() idTable {
	t.owner, t.sharedPages = new(byte), true
	return idTable{pages: t.pages, n: t.n, owner: new(byte), sharedPages: true}
}

// ownPages makes the page list the table's own, to write.
func (t *idTable) ownPages() {
	if t.sharedPages {
		t.pages = slices.Clone(t.pages)
		t.sharedPages = false
	}
}

// ownPage returns page pi for writing: a private copy when the page was
// made before the last clone.
func (t *idTable) ownPage(pi int) *idPage {
	p := t.pages[pi]
	if p != nil && p.owner != t.owner {
		c := *p
		c.owner = t.owner
		t.ownPages()
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

// clone returns a list sharing l's chunk index and chunks. Both lists get
// a new owner mark, so each copies the index the first time it writes it
// (ownIndex) and a chunk the first time it writes that (ownChunk); a
// chunk's copy marks its blocks shared, so a block too is copied the
// first time it is written (own). Nothing a clone shares is written
// again, by either side, and the clone costs the same whatever the
// list's length.
func (l *userMessages) clone() *userMessages {
	l.owner, l.sharedIndex = new(byte), true
	return &userMessages{chunks: l.chunks, lastID: l.lastID, n: l.n, owner: new(byte), sharedIndex: true}
}

// ownIndex makes the chunk index the list's own, to write.
func (l *userMessages) ownIndex() {
	if l.sharedIndex {
		l.chunks, l.lastID = slices.Clone(l.chunks), slices.Clone(l.lastID)
		l.sharedIndex = false
	}
}

// ownChunk returns chunk ci for writing: a private copy when the chunk is
// not the list's own (it was made before the last clone). The list's own
// chunks are only in an index of its own.
func (l *userMessages) ownChunk(ci int) *copyChunk {
	if c := l.chunks[ci]; c.owner == l.owner {
		return c
	}
	return l.copyChunk(ci)
}

// copyChunk puts a copy of chunk ci, for the list to write, in its place
// (ownChunk's slow path, kept apart so that ownChunk inlines).
func (l *userMessages) copyChunk(ci int) *copyChunk {
	l.ownIndex()
	c := l.chunks[ci].copyFor(l.owner)
	l.chunks[ci] = c
	return c
}

// sharedBit marks, in a chunk's dead count, a block the chunk may share
// with another: it is copied before it is written (own). Counts never
// reach it (blocks hold at most 2*blockSize entries).
const sharedBit = 1 << 15

// copyFor returns a copy of c for the list owner, sharing c's blocks,
// each marked shared in the copy. c itself is not written.
func (c *copyChunk) copyFor(owner *byte) *copyChunk {
	d := &copyChunk{blocks: slices.Clone(c.blocks), lastID: slices.Clone(c.lastID), dead: slices.Clone(c.dead), owner: owner}
	for i := range d.dead {
		d.dead[i] |= sharedBit
	}
	return d
}

// own returns block bi for writing: a private copy when the block is
// shared.
func (c *copyChunk) own(bi int) []userMessage {
	if c.dead[bi]&sharedBit != 0 {
		return c.copyBlock(bi)
	}
	return c.blocks[bi]
}

// copyBlock puts a private copy of block bi in its place (own's slow
// path, kept apart so that own inlines).
func (c *copyChunk) copyBlock(bi int) []userMessage {
	b := c.blocks[bi]
	nb := make([]userMessage, len(b), max(blockSize, len(b)))
	copy(nb, b)
	c.blocks[bi] = nb
	c.dead[bi] &^= sharedBit
	return nb
}

// Replace puts msgs in place of the stored messages with the same IDs,
// so that a caller can change its own copies of messages a clone shares.
// Every index holds IDs, found through the ID table, so only the table
// changes. Each message must be stored, under the same type, channel,
// topic, sender and participants.
func (s *Store) Replace(msgs []*message.Message) {
	s.wroteMessages(msgs)
	for _, m := range msgs {
		s.byID.Put(m)
	}
}
