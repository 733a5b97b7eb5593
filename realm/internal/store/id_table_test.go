package store

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/minizulip/minizulip/message"
)

// TestIDTableMatchesSortedSet runs random puts and deletes (whole pages
// emptied among them) on an idTable and a sorted slice, and compares
// every reader after each step.
func TestIDTableMatchesSortedSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var tab idTable
	var want []int64
	const span = 5 * pageSize
	for step := 0; step < 400; step++ {
		switch op := rng.IntN(3); op {
		case 0:
			for range rng.IntN(400) {
				id := int64(rng.IntN(span))
				tab.Put(&message.Message{ID: id})
				if i, found := slices.BinarySearch(want, id); !found {
					want = slices.Insert(want, i, id)
				}
			}
		default: // a run (emptying pages) or scattered IDs
			lo := int64(rng.IntN(span))
			hi := lo + int64(rng.IntN(2*pageSize))
			if op == 2 {
				hi = lo + 1
			}
			for id := lo; id < hi; id++ {
				tab.Delete(id)
			}
			want = slices.DeleteFunc(want, func(id int64) bool { return id >= lo && id < hi })
		}
		if tab.Len() != len(want) {
			t.Fatalf("step %d: Len %d, want %d", step, tab.Len(), len(want))
		}
		for _, p := range tab.pages {
			if p != nil && p.n == 0 {
				t.Fatalf("step %d: an empty page is kept", step)
			}
		}
		if n := len(tab.pages); n > 0 && tab.pages[n-1] == nil {
			t.Fatalf("step %d: trailing empty page", step)
		}
		for range 20 {
			id := int64(rng.IntN(span+pageSize)) - 5
			m, ok := tab.Get(id)
			if _, found := slices.BinarySearch(want, id); ok != found || ok && m.ID != id {
				t.Fatalf("step %d: Get(%d) = %v, want %v", step, id, ok, found)
			}
		}
		pivot := int64(rng.IntN(span+pageSize)) - 5
		var up, down []int64
		tab.Ascend(pivot, func(m *message.Message) bool { up = append(up, m.ID); return true })
		tab.Descend(pivot, func(m *message.Message) bool { down = append(down, m.ID); return true })
		i, _ := slices.BinarySearch(want, pivot)
		wantDown := slices.Clone(want[:i])
		slices.Reverse(wantDown)
		if !slices.Equal(up, want[i:]) || !slices.Equal(down, wantDown) {
			t.Fatalf("step %d: around %d: up %d, down %d entries; want %d, %d", step, pivot, len(up), len(down), len(want)-i, i)
		}
	}
	// Stopping early.
	var first []int64
	tab.Ascend(0, func(m *message.Message) bool { first = append(first, m.ID); return len(first) < 3 })
	if len(want) >= 3 && !slices.Equal(first, want[:3]) {
		t.Fatalf("stopping after three: %v", first)
	}
}
