package store

import (
	"math"
	"slices"
	"testing"

	"github.com/minizulip/minizulip/message"
)

// While watched, removals are listed apart from the other writes, which
// set LowestWrite; StopWatching forgets them, and past the bound a
// removal counts as a write.
func TestWatchListsRemovalsApart(t *testing.T) {
	s, msgs := fixture(t)
	conv := func(*message.Message) int { return 7 }
	s.WatchWrites()
	s.RemoveMany([]*message.Message{msgs[5], msgs[1]}, conv)
	s.Remove(msgs[3], 7)
	if low := s.LowestWrite(); low != math.MaxInt64 {
		t.Errorf("LowestWrite after removals = %d, want none", low)
	}
	if got := s.Removed(); !slices.Equal(got, []int64{5, 1, 3}) {
		t.Errorf("Removed = %v, want [5 1 3]", got)
	}
	s.SetFlags(10, 2, message.Read)
	if low := s.LowestWrite(); low != 2 {
		t.Errorf("LowestWrite after a flag = %d, want 2", low)
	}
	s.StopWatching()
	s.Remove(msgs[4], 0)
	s.WatchWrites()
	if low, got := s.LowestWrite(), s.Removed(); low != math.MaxInt64 || len(got) != 0 {
		t.Errorf("a new watch starts with LowestWrite %d, Removed %v", low, got)
	}

	s, msgs = fixture(t)
	s.WatchWrites()
	s.removed = make([]int64, maxWatchedRemovals) // the bound reached
	s.Remove(msgs[2], 0)
	if low := s.LowestWrite(); low != 2 || len(s.Removed()) != maxWatchedRemovals {
		t.Errorf("past the bound: LowestWrite %d, %d removals listed; want 2 and the bound", low, len(s.Removed()))
	}
}
