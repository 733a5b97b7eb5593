package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestUserMessagesMatchesSortedSet checks the block list against a plain
// sorted slice under random inserts, appends, replaces and deletes.
func TestUserMessagesMatchesSortedSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var l userMessages
	var want []int64
	for step := 0; step < 20000; step++ {
		id := int64(rng.IntN(3000))
		switch rng.IntN(4) {
		case 0, 1:
			if step%3 == 0 && len(want) > 0 {
				id = want[len(want)-1] + 1 // the common append path
			}
			l.Put(newUserMessage(id, 1))
			if i, found := slices.BinarySearch(want, id); !found {
				want = slices.Insert(want, i, id)
			}
		case 2:
			deleted := l.Delete(id)
			i, found := slices.BinarySearch(want, id)
			if deleted != found {
				t.Fatalf("step %d: Delete(%d) = %v, want %v", step, id, deleted, found)
			}
			if found {
				want = slices.Delete(want, i, i+1)
			}
		case 3:
			_, ok := l.Get(id)
			if _, found := slices.BinarySearch(want, id); ok != found {
				t.Fatalf("step %d: Get(%d) = %v, want %v", step, id, ok, found)
			}
		}
		if l.Len() != len(want) {
			t.Fatalf("step %d: Len %d, want %d", step, l.Len(), len(want))
		}
	}
	var got []int64
	l.Ascend(0, func(um userMessage) bool { got = append(got, um.id()); return true })
	if !slices.Equal(got, want) {
		t.Fatal("Ascend order differs from the sorted set")
	}
	var down []int64
	pivot := want[len(want)/2]
	l.Descend(pivot, func(um userMessage) bool { down = append(down, um.id()); return true })
	if len(down) != len(want)/2 || down[0] != want[len(want)/2-1] || down[len(down)-1] != want[0] {
		t.Fatalf("Descend below %d: %d entries", pivot, len(down))
	}
	if m, ok := l.Max(); !ok || m.id() != want[len(want)-1] {
		t.Fatal("Max")
	}
	if um, ok := l.Get(want[0]); !ok || um.flags() != 1 {
		t.Fatal("Get's flags")
	}
}

// TestRemoveSortedMatchesOneByOne checks the batch removal against
// removing the same IDs one at a time, on lists of many blocks (some of
// them emptied whole) and with IDs the list does not hold.
func TestRemoveSortedMatchesOneByOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 50; round++ {
		var batch, single userMessages
		n := rng.IntN(3000)
		for id := int64(1); id <= int64(n); id++ {
			if rng.IntN(4) > 0 {
				batch.Put(newUserMessage(id, 0))
				single.Put(newUserMessage(id, 0))
			}
		}
		var ids []int64
		runStart := int64(rng.IntN(n + 1))
		for id := int64(0); id <= int64(n)+2; id++ {
			// a dense run (whole blocks go) and scattered picks
			if (id >= runStart && id < runStart+600) || rng.IntN(5) == 0 {
				ids = append(ids, id)
			}
		}
		want := 0
		for _, id := range ids {
			if single.Delete(id) {
				want++
			}
		}
		if got := batch.removeSorted(ids, nil); got != want {
			t.Fatalf("round %d: removed %d, want %d", round, got, want)
		}
		var got, exp []int64
		batch.Ascend(0, func(um userMessage) bool { got = append(got, um.id()); return true })
		single.Ascend(0, func(um userMessage) bool { exp = append(exp, um.id()); return true })
		if !slices.Equal(got, exp) || batch.Len() != single.Len() {
			t.Fatalf("round %d: %d entries left, want %d", round, batch.Len(), single.Len())
		}
		if err := batch.check(); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		// The list stays usable: appends and inserts after a removal.
		batch.Put(newUserMessage(int64(n)+10, 0))
		batch.Put(newUserMessage(runStart, 0))
		if _, ok := batch.Get(runStart); !ok {
			t.Fatalf("round %d: insert after removal lost", round)
		}
	}
}
