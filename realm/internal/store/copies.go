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
const _ = uint16(removedBit - message.Historical<<1)

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

// blockSize is the number of entries a userMessages block holds before it
// splits.
const blockSize = 256

// userMessages is one user's personal copies of messages, ordered by
// message ID: a two-level B+tree specialised for the common case of
// appending a new, highest ID. Appends cost O(1); lookups, inserts and
// single removals O(log n + blockSize). Removals leave tombstones in
// place, so removing k scattered entries costs O(k log n) rather than a
// rewrite of every block they touch; a block is compacted when more than
// half of it is tombstones, or when an insert lands in it.
type userMessages struct {
	// blocks are ordered by ID, each sorted and holding at least one live
	// entry and no more tombstones than live entries.
	blocks [][]userMessage
	lastID []int64  // lastID[i] is the highest ID in blocks[i], tombstones included
	dead   []uint16 // dead[i] counts the tombstones of blocks[i]
	n      int      // live entries
}

// Len is the number of live entries.
func (l *userMessages) Len() int { return l.n }

// Max returns the entry with the highest ID.
func (l *userMessages) Max() (userMessage, bool) {
	if l.n == 0 {
		return 0, false
	}
	last := l.blocks[len(l.blocks)-1]
	for j := len(last) - 1; j >= 0; j-- {
		if !last[j].removed() {
			return last[j], true
		}
	}
	return 0, false // unreachable: every block holds a live entry
}

// blockFor returns the index of the block that holds id or would hold it.
func (l *userMessages) blockFor(id int64) int {
	i := sort.Search(len(l.lastID), func(i int) bool { return l.lastID[i] >= id })
	if i == len(l.blocks) && i > 0 {
		i--
	}
	return i
}

// search returns the position of id in block b, or where it would go.
func search(b []userMessage, id int64) int {
	return sort.Search(len(b), func(j int) bool { return b[j].id() >= id })
}

// Put inserts or replaces the entry with um's ID.
func (l *userMessages) Put(um userMessage) {
	id := um.id()
	if nb := len(l.blocks); nb == 0 {
		l.newBlock(0, um)
		l.n++
		return
	} else if last := l.blocks[nb-1]; last[len(last)-1].id() < id {
		if len(last) < blockSize {
			l.blocks[nb-1] = append(l.own(nb-1), um)
			l.lastID[nb-1] = id
		} else {
			l.newBlock(nb, um)
		}
		l.n++
		return
	}
	bi := l.blockFor(id)
	b := l.own(bi)
	j := search(b, id)
	if j < len(b) && b[j].id() == id {
		if b[j].removed() {
			l.dead[bi]--
			l.n++
		}
		b[j] = um
		return
	}
	if l.deadIn(bi) > 0 {
		b = l.compact(bi)
		j = search(b, id)
	}
	b = slices.Insert(b, j, um)
	l.n++
	l.blocks[bi] = b
	l.lastID[bi] = b[len(b)-1].id()
	if len(b) > 2*blockSize {
		half := len(b) / 2
		right := append(make([]userMessage, 0, blockSize), b[half:]...)
		l.blocks[bi] = b[:half:half]
		l.lastID[bi] = b[half-1].id()
		l.blocks = slices.Insert(l.blocks, bi+1, right)
		l.lastID = slices.Insert(l.lastID, bi+1, right[len(right)-1].id())
		l.dead = slices.Insert(l.dead, bi+1, 0)
	}
}

// newBlock inserts a block holding only um at index i.
func (l *userMessages) newBlock(i int, um userMessage) {
	b := make([]userMessage, 1, blockSize)
	b[0] = um
	l.blocks = slices.Insert(l.blocks, i, b)
	l.lastID = slices.Insert(l.lastID, i, um.id())
	l.dead = slices.Insert(l.dead, i, 0)
}

// Get returns the live entry with this ID.
func (l *userMessages) Get(id int64) (userMessage, bool) {
	if l.n == 0 {
		return 0, false
	}
	b := l.blocks[l.blockFor(id)]
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
	for bi := l.blockFor(from); bi < len(l.blocks); bi++ {
		b := l.blocks[bi]
		for j := search(b, from); j < len(b); j++ {
			if !b[j].removed() && !fn(b[j]) {
				return
			}
		}
	}
}

// Descend calls fn on live entries with ID < below, in descending order,
// until fn returns false.
func (l *userMessages) Descend(below int64, fn func(userMessage) bool) {
	if l.n == 0 {
		return
	}
	for bi := l.blockFor(below); bi >= 0; bi-- {
		b := l.blocks[bi]
		for j := search(b, below) - 1; j >= 0; j-- {
			if !b[j].removed() && !fn(b[j]) {
				return
			}
		}
	}
}

// each calls fn, in place, on the live entry of every listed ID the list
// holds; ids must be ascending. It makes one forward pass over the
// blocks. fn may change the entry's flags, never its ID.
func (l *userMessages) each(ids []int64, fn func(*userMessage)) {
	bi, j := 0, 0
	for _, id := range ids {
		for bi < len(l.blocks) && l.lastID[bi] < id {
			bi, j = bi+1, 0
		}
		if bi == len(l.blocks) {
			return
		}
		b := l.blocks[bi]
		j += search(b[j:], id)
		if j < len(b) && b[j].id() == id && !b[j].removed() {
			fn(&l.own(bi)[j])
		}
	}
}
