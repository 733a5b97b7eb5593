package store

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/minizulip/minizulip/message"
)

// checkList verifies a copy list's structure and that its live entries
// are exactly want (ascending), through every reader.
func checkList(t *testing.T, step int, l *userMessages, want []int64) {
	t.Helper()
	if err := l.check(); err != nil {
		t.Fatalf("step %d: %v", step, err)
	}
	if l.Len() != len(want) {
		t.Fatalf("step %d: Len %d, want %d", step, l.Len(), len(want))
	}
	var up, down []int64
	l.Ascend(0, func(um userMessage) bool { up = append(up, um.id()); return true })
	l.Descend(maxCopyID, func(um userMessage) bool { down = append(down, um.id()); return true })
	slices.Reverse(down)
	if !slices.Equal(up, want) || !slices.Equal(down, want) {
		t.Fatalf("step %d: Ascend %d entries, Descend %d, want %d", step, len(up), len(down), len(want))
	}
	if m, ok := l.Max(); ok != (len(want) > 0) || ok && m.id() != want[len(want)-1] {
		t.Fatalf("step %d: Max %d %v", step, m.id(), ok)
	}
}

// TestTombstonesMatchSortedSet runs random puts, single and batch
// removals, flag changes and lookups on a list and on a plain sorted
// slice, checking after each step that tombstones never show through
// Get, Len, Max, Ascend, Descend or each, and that compaction keeps the
// list's structure.
func TestTombstonesMatchSortedSet(t *testing.T) {
	// One chunk, and several (chunks split, empty and are dropped).
	for _, c := range []struct{ span, steps int }{{4000, 600}, {3 * chunkBlocks * blockSize, 80}} {
		t.Run(fmt.Sprint("span=", c.span), func(t *testing.T) { tombstonesMatchSortedSet(t, c.span, c.steps) })
	}
}

func tombstonesMatchSortedSet(t *testing.T, span, steps int) {
	rng := rand.New(rand.NewPCG(5, 6))
	var l userMessages
	var want []int64
	run := span / 6 // the longest run of appends or removals
	for step := 0; step < steps; step++ {
		switch op := rng.IntN(10); {
		case op < 4: // a run of appends, or scattered inserts and revivals
			count := rng.IntN(300)
			if op < 2 {
				count = rng.IntN(run)
			}
			for range count {
				id := int64(rng.IntN(span))
				if op < 2 && len(want) > 0 {
					id = want[len(want)-1] + 1 + int64(rng.IntN(3))
				}
				l.Put(newUserMessage(id, message.Starred))
				if i, found := slices.BinarySearch(want, id); !found {
					want = slices.Insert(want, i, id)
				}
			}
		case op < 7: // a batch removal: a dense run and scattered IDs
			var ids []int64
			lo := int64(rng.IntN(span))
			for id := int64(0); id < int64(span)+5; id++ {
				if (id >= lo && id < lo+int64(rng.IntN(run))) || rng.IntN(6) == 0 {
					ids = append(ids, id)
				}
			}
			var exp []int64
			for _, id := range ids {
				if _, found := slices.BinarySearch(want, id); found {
					exp = append(exp, id)
				}
			}
			if gone := l.DeleteSorted(ids); !slices.Equal(gone, exp) {
				t.Fatalf("step %d: removed %d IDs, want %d", step, len(gone), len(exp))
			}
			want = slices.DeleteFunc(want, func(id int64) bool { _, found := slices.BinarySearch(exp, id); return found })
		case op < 8:
			id := int64(rng.IntN(span))
			i, found := slices.BinarySearch(want, id)
			if l.Delete(id) != found {
				t.Fatalf("step %d: Delete(%d) disagrees (%v)", step, id, found)
			}
			if found {
				want = slices.Delete(want, i, i+1)
			}
		case op < 9: // flags on a sample, tombstones skipped
			var ids []int64
			for id := int64(0); id < int64(span); id += int64(1 + rng.IntN(20)) {
				ids = append(ids, id)
			}
			touched := 0
			l.each(ids, func(um *userMessage) {
				if um.removed() {
					t.Fatalf("step %d: each visits tombstone %d", step, um.id())
				}
				*um = um.withFlags(message.Read)
				touched++
			})
			exp := 0
			for _, id := range ids {
				if _, found := slices.BinarySearch(want, id); found {
					exp++
				}
			}
			if touched != exp {
				t.Fatalf("step %d: each touched %d, want %d", step, touched, exp)
			}
		default:
			for range 50 {
				id := int64(rng.IntN(span))
				_, found := slices.BinarySearch(want, id)
				if um, ok := l.Get(id); ok != found || ok && (um.id() != id || um.removed()) {
					t.Fatalf("step %d: Get(%d) = %v, want %v", step, id, ok, found)
				}
			}
		}
		checkList(t, step, &l, want)
	}
}

// flatBlocks lists a copy list's blocks, chunk after chunk, with their
// tombstone counts.
func flatBlocks(l *userMessages) (blocks [][]userMessage, dead []int) {
	for _, c := range l.chunks {
		for bi, b := range c.blocks {
			blocks, dead = append(blocks, b), append(dead, c.deadIn(bi))
		}
	}
	return blocks, dead
}

// TestScatteredRemovalLeavesTombstones checks that removing a few
// entries of each block marks them in place (no block rewritten), that a
// later insert into such a block compacts it, and that a block more
// than half removed is compacted at once.
func TestScatteredRemovalLeavesTombstones(t *testing.T) {
	var l userMessages
	var all []int64
	for id := int64(1); id <= 4*blockSize; id++ {
		l.Put(newUserMessage(id*2, 0)) // even IDs: odd ones are free for inserts
		all = append(all, id*2)
	}
	var every10 []int64
	for i := 0; i < len(all); i += 10 {
		every10 = append(every10, all[i])
	}
	if n := l.removeSorted(every10, nil); n != len(every10) {
		t.Fatalf("removed %d", n)
	}
	blocks, dead := flatBlocks(&l)
	for bi, b := range blocks {
		if len(b) != blockSize || dead[bi] == 0 {
			t.Fatalf("block %d: %d entries, %d tombstones: scattered removals should only mark", bi, len(b), dead[bi])
		}
	}
	want := slices.DeleteFunc(slices.Clone(all), func(id int64) bool { return slices.Contains(every10, id) })
	checkList(t, 0, &l, want)

	// An insert into the first block compacts it first.
	firstLive := blockSize - int(dead[0])
	l.Put(newUserMessage(5, message.Read))
	blocks, dead = flatBlocks(&l)
	if dead[0] != 0 || len(blocks[0]) != firstLive+1 {
		t.Fatalf("first block: %d entries, %d tombstones after an insert", len(blocks[0]), dead[0])
	}
	i, _ := slices.BinarySearch(want, 5)
	want = slices.Insert(want, i, 5)
	checkList(t, 1, &l, want)

	// Removing most of the second block compacts it; the others keep
	// their tombstones.
	second := slices.Clone(want[blockSize : blockSize+200])
	l.removeSorted(second, nil)
	want = slices.DeleteFunc(want, func(id int64) bool { return slices.Contains(second, id) })
	checkList(t, 2, &l, want)
	blocks, dead = flatBlocks(&l)
	if dead[1] != 0 || len(blocks[1]) > blockSize/2 {
		t.Fatalf("second block: %d entries, %d tombstones", len(blocks[1]), dead[1])
	}

	// A removed copy can be delivered again: the tombstone revives.
	id := every10[len(every10)-1]
	l.Put(newUserMessage(id, message.Starred))
	if um, ok := l.Get(id); !ok || um.flags() != message.Starred {
		t.Fatalf("revived %d: %v %v", id, um.flags(), ok)
	}
	i, _ = slices.BinarySearch(want, id)
	want = slices.Insert(want, i, id)
	checkList(t, 3, &l, want)
}

// TestUserMessagePacking checks that IDs and flags survive packing.
func TestUserMessagePacking(t *testing.T) {
	all := message.Read | message.Starred | message.Collapsed | message.Mentioned | message.WildcardMentioned | message.HasAlertWord | message.Historical
	for _, id := range []int64{0, 1, 1 << 40, maxCopyID} {
		for _, f := range []message.Flags{0, message.Read, all} {
			um := newUserMessage(id, f)
			if um.id() != id || um.flags() != f || um.removed() {
				t.Fatalf("(%d, %v) came back as (%d, %v, removed %v)", id, f, um.id(), um.flags(), um.removed())
			}
			if dead := um | removedBit; dead.id() != id || dead.flags() != f || !dead.removed() {
				t.Fatalf("tombstone of (%d, %v) reads (%d, %v)", id, f, dead.id(), dead.flags())
			}
			if got := um.withFlags(message.Starred); got.id() != id || got.flags() != message.Starred {
				t.Fatalf("withFlags on %d: %v", id, got.flags())
			}
		}
	}
}
