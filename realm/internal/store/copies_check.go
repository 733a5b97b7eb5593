package store

import "fmt"

// check verifies a copy list's structure, for Verify and tests: chunks
// and blocks in ID order, none empty or oversized, last IDs and
// tombstone counts exact, the live count right, and the list's own
// chunks (writable in place) only in an index of its own.
func (l *userMessages) check() error {
	if len(l.chunks) != len(l.lastID) {
		return fmt.Errorf("%d chunks, %d last IDs", len(l.chunks), len(l.lastID))
	}
	live := 0
	prev := int64(-1)
	for ci, c := range l.chunks {
		if c.owner == l.owner && l.sharedIndex {
			return fmt.Errorf("chunk %d is the list's own, in a shared index", ci)
		}
		n := len(c.blocks)
		switch {
		case n == 0 || n > 2*chunkBlocks:
			return fmt.Errorf("chunk %d holds %d blocks", ci, n)
		case len(c.lastID) != n || len(c.dead) != n:
			return fmt.Errorf("chunk %d: %d blocks, %d last IDs, %d dead counts", ci, n, len(c.lastID), len(c.dead))
		case l.lastID[ci] != c.last():
			return fmt.Errorf("chunk %d: last ID %d, its last block's %d", ci, l.lastID[ci], c.last())
		}
		for bi, b := range c.blocks {
			dead := 0
			for j, um := range b {
				if um.id() <= prev {
					return fmt.Errorf("chunk %d block %d entry %d: ID %d after %d", ci, bi, j, um.id(), prev)
				}
				prev = um.id()
				if um.removed() {
					dead++
				}
			}
			switch {
			case len(b) == 0 || len(b) > 2*blockSize:
				return fmt.Errorf("chunk %d block %d holds %d entries", ci, bi, len(b))
			case dead != c.deadIn(bi):
				return fmt.Errorf("chunk %d block %d has %d tombstones, counted %d", ci, bi, dead, c.deadIn(bi))
			case 2*dead > len(b):
				return fmt.Errorf("chunk %d block %d is %d/%d tombstones, not compacted", ci, bi, dead, len(b))
			case c.lastID[bi] != b[len(b)-1].id():
				return fmt.Errorf("chunk %d block %d: last ID %d, holds %d", ci, bi, c.lastID[bi], b[len(b)-1].id())
			}
			live += len(b) - dead
		}
	}
	if live != l.n {
		return fmt.Errorf("Len %d, %d live entries", l.n, live)
	}
	return nil
}
