package store

import "slices"

// copyChunk is a run of a copy list's blocks (userMessages): the unit a
// list copies when it writes one of its chunks for the first time after
// a clone (clone.go). Appends fill a chunk to chunkBlocks blocks; inserts
// split it past twice as many, and removals drop the blocks they empty.
type copyChunk struct {
	// blocks are ordered by ID, each sorted and holding at least one live
	// entry and no more tombstones than live entries.
	blocks [][]userMessage
	lastID []int64  // lastID[i] is the highest ID in blocks[i], tombstones included
	dead   []uint16 // dead[i] counts the tombstones of blocks[i], plus sharedBit (clone.go)
	owner  *byte    // the list that may write it in place
}

// newCopyChunk returns a chunk holding only um, for the list owner.
func newCopyChunk(um userMessage, owner *byte) *copyChunk {
	c := &copyChunk{owner: owner}
	c.newBlock(0, um)
	return c
}

// last is the highest ID in the chunk, tombstones included.
func (c *copyChunk) last() int64 { return c.lastID[len(c.lastID)-1] }

// full reports whether an append would need a new chunk.
func (c *copyChunk) full() bool {
	return len(c.blocks) >= chunkBlocks && len(c.blocks[len(c.blocks)-1]) >= blockSize
}

// max returns the chunk's live entry with the highest ID.
func (c *copyChunk) max() (userMessage, bool) {
	last := c.blocks[len(c.blocks)-1]
	for j := len(last) - 1; j >= 0; j-- {
		if !last[j].removed() {
			return last[j], true
		}
	}
	return 0, false // unreachable: every block holds a live entry
}

// blockFor returns the index of the block that holds id or would hold it.
func (c *copyChunk) blockFor(id int64) int { return atLeast(c.lastID, id) }

// seek moves position j of block bi forward to id: to the block that
// holds id or would hold it, and to its place there. ok reports a live
// entry with that ID.
func (c *copyChunk) seek(bi, j int, id int64) (int, int, bool) {
	for bi < len(c.lastID) && c.lastID[bi] < id {
		bi, j = bi+1, 0
	}
	if bi == len(c.lastID) {
		return bi, j, false
	}
	b := c.blocks[bi]
	j += search(b[j:], id)
	return bi, j, j < len(b) && b[j].id() == id && !b[j].removed()
}

// ascend is Ascend within the chunk; it reports whether fn asked for more.
func (c *copyChunk) ascend(from int64, fn func(userMessage) bool) bool {
	for bi := c.blockFor(from); bi < len(c.blocks); bi++ {
		b := c.blocks[bi]
		for j := search(b, from); j < len(b); j++ {
			if !b[j].removed() && !fn(b[j]) {
				return false
			}
		}
	}
	return true
}

// descend is Descend within the chunk; it reports whether fn asked for
// more.
func (c *copyChunk) descend(below int64, fn func(userMessage) bool) bool {
	for bi := c.blockFor(below); bi >= 0; bi-- {
		b := c.blocks[bi]
		for j := search(b, below) - 1; j >= 0; j-- {
			if !b[j].removed() && !fn(b[j]) {
				return false
			}
		}
	}
	return true
}

// append adds um, whose ID is above every other, to a chunk not full.
func (c *copyChunk) append(um userMessage) {
	nb := len(c.blocks)
	if len(c.blocks[nb-1]) < blockSize {
		c.blocks[nb-1] = append(c.own(nb-1), um)
		c.lastID[nb-1] = um.id()
		return
	}
	c.newBlock(nb, um)
}

// put inserts or replaces the entry with um's ID, which is not above the
// chunk's last, and reports whether that added a live entry. A block
// grown past twice blockSize splits in two.
func (c *copyChunk) put(um userMessage) (added bool) {
	id := um.id()
	bi := c.blockFor(id)
	b := c.own(bi)
	j := search(b, id)
	if j < len(b) && b[j].id() == id {
		added = b[j].removed()
		if added {
			c.dead[bi]--
		}
		b[j] = um
		return added
	}
	if c.deadIn(bi) > 0 {
		b = c.compact(bi)
		j = search(b, id)
	}
	b = slices.Insert(b, j, um)
	c.blocks[bi] = b
	c.lastID[bi] = b[len(b)-1].id()
	if len(b) > 2*blockSize {
		half := len(b) / 2
		right := append(make([]userMessage, 0, blockSize), b[half:]...)
		c.blocks[bi] = b[:half:half]
		c.lastID[bi] = b[half-1].id()
		c.blocks = slices.Insert(c.blocks, bi+1, right)
		c.lastID = slices.Insert(c.lastID, bi+1, right[len(right)-1].id())
		c.dead = slices.Insert(c.dead, bi+1, 0)
	}
	return true
}

// newBlock inserts a block holding only um at index i.
func (c *copyChunk) newBlock(i int, um userMessage) {
	b := make([]userMessage, 1, blockSize)
	b[0] = um
	c.blocks = slices.Insert(c.blocks, i, b)
	c.lastID = slices.Insert(c.lastID, i, um.id())
	c.dead = slices.Insert(c.dead, i, 0)
}

// splitOff moves the blocks from index i on to a new chunk of the same
// owner and returns it. The blocks keep their shared marks.
func (c *copyChunk) splitOff(i int) *copyChunk {
	right := &copyChunk{
		blocks: append(make([][]userMessage, 0, chunkBlocks), c.blocks[i:]...),
		lastID: append(make([]int64, 0, chunkBlocks), c.lastID[i:]...),
		dead:   append(make([]uint16, 0, chunkBlocks), c.dead[i:]...),
		owner:  c.owner,
	}
	clear(c.blocks[i:])
	c.blocks, c.lastID, c.dead = c.blocks[:i:i], c.lastID[:i:i], c.dead[:i:i]
	return right
}

// deadIn is the number of tombstones in block bi.
func (c *copyChunk) deadIn(bi int) int { return int(c.dead[bi] &^ sharedBit) }
