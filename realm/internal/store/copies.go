package store

import (
	"slices"
	"sort"

	"github.com/minizulip/minizulip/message"
)

// userMessage is a user's personal copy of a message (Zulip's
// UserMessage) packed in one word: the message ID in the high 48 bits and
// that user's flags in the low 16. The message itself is found through
// the store's ID index, so a copy costs 8 bytes per recipient and
// delivering allocates nothing per recipient. The top flag bit marks a
// tombstone: a removed entry its block has not compacted away yet.
type userMessage uint64

const (
	// flagBits is the width of the flags part of a userMessage.
	flagBits = 16
	// removedBit marks a tombstone.
	removedBit = 1 << (flagBits - 1)
	// maxCopyID is the highest message ID a userMessage can hold.
	maxCopyID = 1<<(63-flagBits) - 1
)

// Every message flag lies below removedBit (this fails to compile when
// the message package grows a flag that would collide with it).
const _ = uint16(removedBit - message.LastFlag<<1)

// newUserMessage packs a copy of message id with these flags.
func newUserMessage(id int64, flags message.Flags) userMessage {
	return userMessage(uint64(id)<<flagBits | uint64(flags&^removedBit))
}

// id is the message's ID.
func (um userMessage) id() int64 { return int64(um >> flagBits) }

// flags are the user's flags on the message.
func (um userMessage) flags() message.Flags { return message.Flags(uint16(um)) &^ removedBit }

// withFlags returns the copy with its flags replaced.
func (um userMessage) withFlags(f message.Flags) userMessage {
	return um&^(1<<flagBits-1) | userMessage(f&^removedBit)
}

// removed reports whether the entry is a tombstone.
func (um userMessage) removed() bool { return um&removedBit != 0 }

// blockSize is the number of entries appends put in a copy list block
// before they start a new one; inserts split a block past twice as many.
const blockSize = 256

// chunkBlocks is the number of blocks appends put in a chunk before they
// start a new one; inserts split a chunk past twice as many.
const chunkBlocks = 64

// userMessages is one user's personal copies of messages, ordered by
// message ID: a three-level B+tree specialised for the common case of
// appending a new, highest ID. Entries sit in sorted blocks, blocks in
// chunks (copy_chunk.go), and the list indexes its chunks by their last
// ID. Appends cost O(1); lookups, inserts and single removals
// O(log n + blockSize + chunkBlocks). Removals leave tombstones in place
// (copies_remove.go).
//
// The chunk level is what makes a clone cheap (clone.go): a clone shares
// the chunk index and every chunk, and a side writing after a clone
// copies only the index, the chunk and the block it writes, about
// n/(blockSize*chunkBlocks) + chunkBlocks + blockSize words.
type userMessages struct {
	// chunks are ordered by ID, each holding at least one block.
	chunks []*copyChunk
	lastID []int64 // lastID[i] is the highest ID in chunks[i], tombstones included
	n      int     // live entries
	// owner marks the chunks this list may write in place; sharedIndex
	// says chunks and lastID are shared with a clone, to be copied before
	// they are written (clone.go).
	owner       *byte
	sharedIndex bool
}

// Len is the number of live entries.
func (l *userMessages) Len() int { return l.n }

// Max returns the entry with the highest ID.
func (l *userMessages) Max() (userMessage, bool) {
	if l.n == 0 {
		return 0, false
	}
	return l.chunks[len(l.chunks)-1].max()
}

// atLeast returns the index of the first of the ascending lastIDs at or
// above id, or the last index when all are below it: the block or chunk
// that holds id or would hold it.
func atLeast(lastIDs []int64, id int64) int {
	lo, hi := 0, len(lastIDs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if lastIDs[m] < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == len(lastIDs) && lo > 0 {
		lo--
	}
	return lo
}

// chunkFor returns the index of the chunk that holds id or would hold it.
func (l *userMessages) chunkFor(id int64) int { return atLeast(l.lastID, id) }

// nextChunk returns the index of the first chunk from ci on whose last ID
// is at or above id, or len(l.chunks) when there is none.
func (l *userMessages) nextChunk(ci int, id int64) int {
	return ci + sort.Search(len(l.lastID)-ci, func(k int) bool { return l.lastID[ci+k] >= id })
}

// search returns the position of id in block b, or where it would go.
func search(b []userMessage, id int64) int {
	lo, hi := 0, len(b)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if b[m].id() < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// Put inserts or replaces the entry with um's ID.
func (l *userMessages) Put(um userMessage) {
	id := um.id()
	nc := len(l.chunks)
	if nc > 0 && l.lastID[nc-1] < id {
		c := l.chunks[nc-1]
		nb := len(c.blocks)
		if b := c.blocks[nb-1]; len(b) < blockSize && c.owner == l.owner && c.dead[nb-1]&sharedBit == 0 {
			// the common case: into the last block, the list's own
			c.blocks[nb-1] = append(b, um)
			c.lastID[nb-1], l.lastID[nc-1] = id, id
			l.n++
			return
		}
		if !c.full() {
			l.ownChunk(nc - 1).append(um)
			l.lastID[nc-1] = id
			l.n++
			return
		}
	}
	if nc == 0 || l.lastID[nc-1] < id {
		l.ownIndex()
		l.chunks = append(l.chunks, newCopyChunk(um, l.owner))
		l.lastID = append(l.lastID, id)
		l.n++
		return
	}
	ci := l.chunkFor(id)
	c := l.ownChunk(ci)
	if c.put(um) {
		l.n++
	}
	l.lastID[ci] = c.last()
	if len(c.blocks) > 2*chunkBlocks {
		right := c.splitOff(len(c.blocks) / 2)
		l.lastID[ci] = c.last()
		l.chunks = slices.Insert(l.chunks, ci+1, right)
		l.lastID = slices.Insert(l.lastID, ci+1, right.last())
	}
}

// Get returns the live entry with this ID.
func (l *userMessages) Get(id int64) (userMessage, bool) {
	if l.n == 0 {
		return 0, false
	}
	c := l.chunks[l.chunkFor(id)]
	b := c.blocks[c.blockFor(id)]
	j := search(b, id)
	if j < len(b) && b[j].id() == id && !b[j].removed() {
		return b[j], true
	}
	return 0, false
}

// Ascend calls fn on live entries with ID >= from, in ascending order,
// until fn returns false.
func (l *userMessages) Ascend(from int64, fn func(userMessage) bool) {
	if l.n == 0 {
		return
	}
	for ci := l.chunkFor(from); ci < len(l.chunks); ci++ {
		if !l.chunks[ci].ascend(from, fn) {
			return
		}
	}
}

// Descend calls fn on live entries with ID < below, in descending order,
// until fn returns false.
func (l *userMessages) Descend(below int64, fn func(userMessage) bool) {
	if l.n == 0 {
		return
	}
	for ci := l.chunkFor(below); ci >= 0; ci-- {
		if !l.chunks[ci].descend(below, fn) {
			return
		}
	}
}

// each calls fn, in place, on the live entry of every listed ID the list
// holds; ids must be ascending. It makes one forward pass over the
// chunks holding them. fn may change the entry's flags, never its ID.
func (l *userMessages) each(ids []int64, fn func(*userMessage)) {
	for ci := 0; len(ids) > 0; ci++ {
		if ci = l.nextChunk(ci, ids[0]); ci == len(l.chunks) {
			return
		}
		k := sort.Search(len(ids), func(k int) bool { return ids[k] > l.lastID[ci] })
		l.eachIn(ci, ids[:k], fn)
		ids = ids[k:]
	}
}

// eachIn is each for the IDs of chunk ci, which it copies (ownChunk) only
// when one of them is there to change.
func (l *userMessages) eachIn(ci int, ids []int64, fn func(*userMessage)) {
	c := l.chunks[ci]
	bi, j := c.blockFor(ids[0]), 0
	for i, id := range ids {
		var ok bool
		if bi, j, ok = c.seek(bi, j, id); !ok {
			continue
		}
		c = l.ownChunk(ci)
		fn(&c.own(bi)[j])
		for _, id := range ids[i+1:] {
			if bi, j, ok = c.seek(bi, j, id); ok {
				fn(&c.own(bi)[j])
			}
		}
		return
	}
}
