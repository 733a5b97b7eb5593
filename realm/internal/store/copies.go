package store

import (
	"slices"
	"sort"

	"github.com/minizulip/minizulip/message"
)

// userMessage is a user's personal copy of a message (Zulip's UserMessage):
// the message plus that user's flags. Lists hold it by value, so
// delivering a message allocates nothing per recipient; changing flags
// writes it back.
type userMessage struct {
	id    int64
	flags message.Flags
	msg   *message.Message
}

// blockSize is the number of entries a userMessages block holds before it
// splits.
const blockSize = 256

// userMessages is one user's personal copies of messages, ordered by
// message ID: a two-level B+tree specialised for the common case of
// appending a new, highest ID. Appends cost O(1); lookups, inserts and
// removals O(log n + blockSize).
type userMessages struct {
	blocks [][]userMessage // each sorted and non-empty; blocks ordered by ID
	lastID []int64         // lastID[i] is the highest ID of blocks[i]
	n      int
	// shared[i] marks blocks[i] as shared with a clone, to be copied
	// before it is written (own, in clone.go); nil when never cloned.
	shared []bool
}

// Len is the number of entries.
func (l *userMessages) Len() int { return l.n }

// Max returns the entry with the highest ID.
func (l *userMessages) Max() (userMessage, bool) {
	if l.n == 0 {
		return userMessage{}, false
	}
	last := l.blocks[len(l.blocks)-1]
	return last[len(last)-1], true
}

// blockFor returns the index of the block that holds id or would hold it.
func (l *userMessages) blockFor(id int64) int {
	i := sort.Search(len(l.lastID), func(i int) bool { return l.lastID[i] >= id })
	if i == len(l.blocks) && i > 0 {
		i--
	}
	return i
}

// Put inserts or replaces the entry with um's ID.
func (l *userMessages) Put(um userMessage) {
	if nb := len(l.blocks); nb > 0 {
		last := l.blocks[nb-1]
		if last[len(last)-1].id < um.id {
			if len(last) < blockSize {
				l.blocks[nb-1] = append(l.own(nb-1), um)
				l.lastID[nb-1] = um.id
			} else {
				l.newBlock(len(l.blocks), um)
			}
			l.n++
			return
		}
	} else {
		l.newBlock(0, um)
		l.n++
		return
	}
	bi := l.blockFor(um.id)
	b := l.own(bi)
	j := sort.Search(len(b), func(j int) bool { return b[j].id >= um.id })
	if j < len(b) && b[j].id == um.id {
		b[j] = um
		return
	}
	b = append(b, userMessage{})
	copy(b[j+1:], b[j:])
	b[j] = um
	l.n++
	l.blocks[bi] = b
	l.lastID[bi] = b[len(b)-1].id
	if len(b) > 2*blockSize {
		half := len(b) / 2
		right := append(make([]userMessage, 0, blockSize), b[half:]...)
		l.blocks[bi] = b[:half:half]
		l.lastID[bi] = b[half-1].id
		l.blocks = slices.Insert(l.blocks, bi+1, right)
		l.lastID = slices.Insert(l.lastID, bi+1, right[len(right)-1].id)
		l.blockInserted(bi + 1)
	}
}

// newBlock inserts a block holding only um at index i.
func (l *userMessages) newBlock(i int, um userMessage) {
	b := make([]userMessage, 1, blockSize)
	b[0] = um
	l.blocks = slices.Insert(l.blocks, i, b)
	l.lastID = slices.Insert(l.lastID, i, um.id)
	l.blockInserted(i)
}

// Get returns the entry with this ID.
func (l *userMessages) Get(id int64) (userMessage, bool) {
	if l.n == 0 {
		return userMessage{}, false
	}
	b := l.blocks[l.blockFor(id)]
	j := sort.Search(len(b), func(j int) bool { return b[j].id >= id })
	if j < len(b) && b[j].id == id {
		return b[j], true
	}
	return userMessage{}, false
}

// Delete removes the entry with this ID and reports whether it existed.
func (l *userMessages) Delete(id int64) bool {
	if l.n == 0 {
		return false
	}
	bi := l.blockFor(id)
	b := l.blocks[bi]
	j := sort.Search(len(b), func(j int) bool { return b[j].id >= id })
	if j == len(b) || b[j].id != id {
		return false
	}
	b = l.own(bi)
	b = append(b[:j], b[j+1:]...)
	l.n--
	if len(b) == 0 {
		l.blocks = slices.Delete(l.blocks, bi, bi+1)
		l.lastID = slices.Delete(l.lastID, bi, bi+1)
		l.blockDeleted(bi)
	} else {
		l.blocks[bi] = b
		l.lastID[bi] = b[len(b)-1].id
	}
	return true
}

// Ascend calls fn on entries with ID >= from, in ascending order, until fn
// returns false.
func (l *userMessages) Ascend(from int64, fn func(userMessage) bool) {
	if l.n == 0 {
		return
	}
	for bi := l.blockFor(from); bi < len(l.blocks); bi++ {
		b := l.blocks[bi]
		j := sort.Search(len(b), func(j int) bool { return b[j].id >= from })
		for ; j < len(b); j++ {
			if !fn(b[j]) {
				return
			}
		}
	}
}

// Descend calls fn on entries with ID < below, in descending order, until
// fn returns false.
func (l *userMessages) Descend(below int64, fn func(userMessage) bool) {
	if l.n == 0 {
		return
	}
	for bi := l.blockFor(below); bi >= 0; bi-- {
		b := l.blocks[bi]
		j := sort.Search(len(b), func(j int) bool { return b[j].id >= below }) - 1
		for ; j >= 0; j-- {
			if !fn(b[j]) {
				return
			}
		}
	}
}

// each calls fn, in place, on the entry of every listed ID the list holds;
// ids must be ascending. It makes one forward pass over the blocks.
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
		j += sort.Search(len(b)-j, func(k int) bool { return b[j+k].id >= id })
		if j < len(b) && b[j].id == id {
			fn(&l.own(bi)[j])
		}
	}
}

// removeSorted deletes the entries of the listed IDs (ascending) that the
// list holds, compacting each block it touches once, and reports how many
// it removed. Removing k entries costs O(k + the touched blocks' sizes)
// rather than a block shift per entry.
func (l *userMessages) removeSorted(ids []int64) int {
	removed, kept, i := 0, 0, 0
	for bi, b := range l.blocks {
		if i < len(ids) && ids[i] <= l.lastID[bi] {
			b = l.own(bi)
			w := 0
			for _, um := range b {
				for i < len(ids) && ids[i] < um.id {
					i++
				}
				if i < len(ids) && ids[i] == um.id {
					i++
					continue
				}
				b[w] = um
				w++
			}
			removed += len(b) - w
			clear(b[w:]) // drop the message pointers for the collector
			b = b[:w]
		}
		if len(b) > 0 {
			l.blocks[kept], l.lastID[kept] = b, b[len(b)-1].id
			if l.shared != nil {
				l.shared[kept] = l.shared[bi]
			}
			kept++
		}
	}
	clear(l.blocks[kept:])
	l.blocks, l.lastID = l.blocks[:kept], l.lastID[:kept]
	if l.shared != nil {
		l.shared = l.shared[:kept]
	}
	l.n -= removed
	return removed
}
