package store

import "sort"

// This file holds the removal of entries from a userMessages list. A
// removal marks the entry a tombstone and leaves it in place, so that a
// batch of k removals scattered over a long list costs O(k log n): no
// block is rewritten for a few of its entries. A block is compacted once
// its tombstones outnumber its live entries, which keeps every scan at
// most twice the live entries' length and the wasted memory below half.

// Delete removes the entry with this ID and reports whether it existed.
func (l *userMessages) Delete(id int64) bool {
	if l.n == 0 {
		return false
	}
	bi := l.blockFor(id)
	b := l.blocks[bi]
	j := search(b, id)
	if j == len(b) || b[j].id() != id || b[j].removed() {
		return false
	}
	b = l.own(bi)
	b[j] |= removedBit
	l.dead[bi]++
	l.n--
	if l.settle(bi) {
		l.sweep(bi, bi)
	}
	return true
}

// DeleteSorted removes the entries whose IDs are in ids (ascending) and
// returns the IDs it removed.
func (l *userMessages) DeleteSorted(ids []int64) []int64 {
	var gone []int64
	l.removeSorted(ids, func(id int64) { gone = append(gone, id) })
	return gone
}

// removeSorted removes the entries whose IDs are in ids (ascending),
// calling removed, if not nil, with each ID it removed, and returns how
// many it removed. Each ID costs a search from the previous one's place;
// only the blocks left more than half tombstones are compacted.
func (l *userMessages) removeSorted(ids []int64, removed func(id int64)) int {
	if l.n == 0 || len(ids) == 0 {
		return 0
	}
	count := 0
	emptiedFrom, emptiedTo := -1, -1 // the range of blocks left empty
	settle := func(bi int) {
		if l.settle(bi) {
			if emptiedFrom < 0 {
				emptiedFrom = bi
			}
			emptiedTo = bi
		}
	}
	bi, j := l.blockFor(ids[0]), 0
	for _, id := range ids {
		if id > l.lastID[bi] {
			settle(bi)
			next := bi + 1 + sort.Search(len(l.lastID)-bi-1, func(k int) bool { return l.lastID[bi+1+k] >= id })
			if next == len(l.blocks) {
				bi = -1
				break
			}
			bi, j = next, 0
		}
		b := l.blocks[bi]
		j = gallop(b, j, id)
		if j < len(b) && b[j].id() == id && !b[j].removed() {
			b = l.own(bi)
			b[j] |= removedBit
			l.dead[bi]++
			l.n--
			count++
			if removed != nil {
				removed(id)
			}
			j++
		}
	}
	if bi >= 0 {
		settle(bi)
	}
	if emptiedFrom >= 0 {
		l.sweep(emptiedFrom, emptiedTo)
	}
	return count
}

// settle compacts block bi when its tombstones outnumber its live
// entries, and reports whether that left it empty (for sweep to drop).
func (l *userMessages) settle(bi int) (emptied bool) {
	if d := l.deadIn(bi); d == 0 || 2*d <= len(l.blocks[bi]) {
		return false
	}
	return len(l.compact(bi)) == 0
}

// compact drops block bi's tombstones and returns the block. An emptied
// block stays in place, with its last ID, until sweep drops it.
func (l *userMessages) compact(bi int) []userMessage {
	b := l.own(bi)
	w := 0
	for _, um := range b {
		if !um.removed() {
			b[w] = um
			w++
		}
	}
	b = b[:w]
	l.blocks[bi], l.dead[bi] = b, 0
	if w > 0 {
		l.lastID[bi] = b[w-1].id()
	}
	return b
}

// sweep drops the empty blocks, all of which lie between blocks from and
// to (inclusive): it packs that range and moves the blocks after it down,
// so a batch removal costs a move of the block list once, not a pass over
// it (removals come newest first, where the tail is short).
func (l *userMessages) sweep(from, to int) {
	kept := from
	for bi := from; bi <= to; bi++ {
		if len(l.blocks[bi]) > 0 {
			l.blocks[kept], l.lastID[kept], l.dead[kept] = l.blocks[bi], l.lastID[bi], l.dead[bi]
			kept++
		}
	}
	n := kept + copy(l.blocks[kept:], l.blocks[to+1:])
	copy(l.lastID[kept:], l.lastID[to+1:])
	copy(l.dead[kept:], l.dead[to+1:])
	clear(l.blocks[n:])
	l.blocks, l.lastID, l.dead = l.blocks[:n], l.lastID[:n], l.dead[:n]
}

// gallop returns the position of id in block b, or where it would go,
// searching from position j (at or below it): IDs removed in a batch are
// often next to each other, so it first looks at j, then at exponentially
// growing steps, then binary-searches the last step.
func gallop(b []userMessage, j int, id int64) int {
	if j >= len(b) || b[j].id() >= id {
		return j
	}
	step := 1
	for j+step < len(b) && b[j+step].id() < id {
		j += step
		step *= 2
	}
	// b[j] < id, and b[j+step] >= id or past the end.
	hi := min(j+step, len(b))
	return j + 1 + search(b[j+1:hi], id)
}
