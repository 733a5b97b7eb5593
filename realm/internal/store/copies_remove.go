package store

import (
	"slices"
	"sort"
)

// This file holds the removal of entries from a userMessages list. A
// removal marks the entry a tombstone and leaves it in place, so that a
// batch of k removals scattered over a long list costs O(k log n): no
// block is rewritten for a few of its entries. A block is compacted once
// its tombstones outnumber its live entries, which keeps every scan at
// most twice the live entries' length and the wasted memory below half.
// Emptied blocks are dropped from their chunk, and emptied chunks from
// the list.

// Delete removes the entry with this ID and reports whether it existed.
func (l *userMessages) Delete(id int64) bool {
	if l.n == 0 {
		return false
	}
	ci := l.chunkFor(id)
	c := l.chunks[ci]
	bi := c.blockFor(id)
	b := c.blocks[bi]
	j := search(b, id)
	if j == len(b) || b[j].id() != id || b[j].removed() {
		return false
	}
	c = l.ownChunk(ci)
	c.own(bi)[j] |= removedBit
	c.dead[bi]++
	l.n--
	if c.settle(bi) {
		c.sweep(bi, bi)
	}
	if len(c.blocks) == 0 {
		l.chunks = slices.Delete(l.chunks, ci, ci+1)
		l.lastID = slices.Delete(l.lastID, ci, ci+1)
	} else {
		l.lastID[ci] = c.last()
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
// only the blocks left more than half tombstones are compacted, and only
// the chunks holding a removed entry are copied after a clone.
func (l *userMessages) removeSorted(ids []int64, removed func(id int64)) int {
	count, emptied := 0, false
	for ci := 0; l.n > 0 && len(ids) > 0; ci++ {
		if ci = l.nextChunk(ci, ids[0]); ci == len(l.chunks) {
			break
		}
		k := sort.Search(len(ids), func(k int) bool { return ids[k] > l.lastID[ci] })
		if n := l.removeIn(ci, ids[:k], removed); n > 0 {
			count += n
			l.n -= n
			if c := l.chunks[ci]; len(c.blocks) > 0 {
				l.lastID[ci] = c.last()
			} else {
				emptied = true
			}
		}
		ids = ids[k:]
	}
	if emptied {
		l.dropEmptyChunks()
	}
	return count
}

// removeIn is removeSorted for the IDs of chunk ci (at least one), which
// it copies (ownChunk) only when one of them is there to remove. An
// emptied chunk stays, without blocks, for the caller to drop.
func (l *userMessages) removeIn(ci int, ids []int64, removed func(id int64)) int {
	c := l.chunks[ci]
	count := 0
	emptiedFrom, emptiedTo := -1, -1 // the range of blocks left empty
	settle := func(bi int) {
		if count > 0 && c.settle(bi) { // before any removal, c may be shared
			if emptiedFrom < 0 {
				emptiedFrom = bi
			}
			emptiedTo = bi
		}
	}
	bi, j := c.blockFor(ids[0]), 0
	for _, id := range ids {
		if id > c.lastID[bi] {
			settle(bi)
			next := bi + 1 + sort.Search(len(c.lastID)-bi-1, func(k int) bool { return c.lastID[bi+1+k] >= id })
			if next == len(c.blocks) {
				bi = -1
				break
			}
			bi, j = next, 0
		}
		b := c.blocks[bi]
		j = gallop(b, j, id)
		if j < len(b) && b[j].id() == id && !b[j].removed() {
			if count == 0 {
				c = l.ownChunk(ci)
			}
			c.own(bi)[j] |= removedBit
			c.dead[bi]++
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
		c.sweep(emptiedFrom, emptiedTo)
	}
	return count
}

// dropEmptyChunks drops the chunks removals left without blocks.
func (l *userMessages) dropEmptyChunks() {
	kept := 0
	for ci, c := range l.chunks {
		if len(c.blocks) > 0 {
			l.chunks[kept], l.lastID[kept] = c, l.lastID[ci]
			kept++
		}
	}
	clear(l.chunks[kept:])
	l.chunks, l.lastID = l.chunks[:kept], l.lastID[:kept]
}

// settle compacts block bi when its tombstones outnumber its live
// entries, and reports whether that left it empty (for sweep to drop).
// The chunk is the list's own.
func (c *copyChunk) settle(bi int) (emptied bool) {
	if d := c.deadIn(bi); d == 0 || 2*d <= len(c.blocks[bi]) {
		return false
	}
	return len(c.compact(bi)) == 0
}

// compact drops block bi's tombstones and returns the block. An emptied
// block stays in place, with its last ID, until sweep drops it.
func (c *copyChunk) compact(bi int) []userMessage {
	b := c.own(bi)
	w := 0
	for _, um := range b {
		if !um.removed() {
			b[w] = um
			w++
		}
	}
	b = b[:w]
	c.blocks[bi], c.dead[bi] = b, 0
	if w > 0 {
		c.lastID[bi] = b[w-1].id()
	}
	return b
}

// sweep drops the empty blocks, all of which lie between blocks from and
// to (inclusive): it packs that range and moves the blocks after it down,
// so a batch removal costs a move of the chunk's blocks once, not a pass
// per block.
func (c *copyChunk) sweep(from, to int) {
	kept := from
	for bi := from; bi <= to; bi++ {
		if len(c.blocks[bi]) > 0 {
			c.blocks[kept], c.lastID[kept], c.dead[kept] = c.blocks[bi], c.lastID[bi], c.dead[bi]
			kept++
		}
	}
	n := kept + copy(c.blocks[kept:], c.blocks[to+1:])
	copy(c.lastID[kept:], c.lastID[to+1:])
	copy(c.dead[kept:], c.dead[to+1:])
	clear(c.blocks[n:])
	c.blocks, c.lastID, c.dead = c.blocks[:n], c.lastID[:n], c.dead[:n]
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
