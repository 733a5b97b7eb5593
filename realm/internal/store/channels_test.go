package store

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/message"
)

// channelStore stores n messages in channel 1, topic "t<i%3>", and
// returns them by ID.
func channelStore(t *testing.T, n int) (*Store, []*message.Message) {
	t.Helper()
	s := New()
	msgs := []*message.Message{nil}
	for id := int64(1); id <= int64(n); id++ {
		m := &message.Message{ID: id, Type: message.Channel, ChannelID: 1, Topic: fmt.Sprint("t", id%3), SenderID: 10}
		s.Insert(m, 0)
		msgs = append(msgs, m)
	}
	return s, msgs
}

// verifyChannels checks the store and the up and down scans of channels 1
// and 2 against the wanted IDs.
func verifyChannels(t *testing.T, s *Store, want1, want2 []int64) {
	t.Helper()
	if err := s.Verify(func(*message.Message) int { return 0 }, nil); err != nil {
		t.Fatal(err)
	}
	for ch, want := range map[int][]int64{1: want1, 2: want2} {
		up, down := collect(s.Channel(ch), 0, 1<<40)
		if diff := cmp.Diff(want, up); diff != "" {
			t.Errorf("channel %d up (-want +got):\n%s", ch, diff)
		}
		for i, j := 0, len(down)-1; i < j; i, j = i+1, j-1 {
			down[i], down[j] = down[j], down[i]
		}
		if diff := cmp.Diff(want, down); diff != "" {
			t.Errorf("channel %d down, reversed (-want +got):\n%s", ch, diff)
		}
	}
}

func TestMoveLeavesStaleEntriesThatScansSkip(t *testing.T) {
	s, msgs := channelStore(t, 9)
	// Topic t1 (1, 4, 7) moves to channel 2: its entries stay in channel
	// 1's tree, stale, and the scans skip them.
	s.Move([]*message.Message{msgs[1], msgs[4], msgs[7]}, 2, "t1", 200)
	if got := s.byChannel[1]; got.stale != 3 || got.ids.Len() != 9 {
		t.Fatalf("channel 1 after the move: %d entries, %d stale; want 9 and 3", got.ids.Len(), got.stale)
	}
	verifyChannels(t, s, []int64{2, 3, 5, 6, 8, 9}, []int64{1, 4, 7})

	// Moving it back brings the stale entries back to life; channel 2,
	// left with stale entries only, loses its tree.
	s.Move([]*message.Message{msgs[1], msgs[4], msgs[7]}, 1, "t1", 100)
	if got := s.byChannel[1]; got.stale != 0 || got.ids.Len() != 9 {
		t.Fatalf("channel 1 after the move back: %d entries, %d stale; want 9 and 0", got.ids.Len(), got.stale)
	}
	if s.byChannel[2] != nil {
		t.Fatal("channel 2 kept a tree of stale entries")
	}
	verifyChannels(t, s, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9}, nil)
}

func TestStaleEntriesAreCompactedWhenTheyOutnumberLiveOnes(t *testing.T) {
	s, msgs := channelStore(t, 9)
	s.Move([]*message.Message{msgs[1], msgs[4], msgs[7]}, 2, "t1", 200)
	// Four stale of nine: kept. Then topic t2 (2, 5, 8) leaves too: six
	// stale of nine, so the tree is rebuilt with the three live ones.
	s.Move([]*message.Message{msgs[2], msgs[5], msgs[8]}, 2, "t2", 200)
	if got := s.byChannel[1]; got.stale != 0 || got.ids.Len() != 3 {
		t.Fatalf("channel 1 after compaction: %d entries, %d stale; want 3 and 0", got.ids.Len(), got.stale)
	}
	verifyChannels(t, s, []int64{3, 6, 9}, []int64{1, 2, 4, 5, 7, 8})
}

func TestRemovingAMovedMessageLeavesItsStaleEntryHarmless(t *testing.T) {
	s, msgs := channelStore(t, 9)
	s.Move([]*message.Message{msgs[1], msgs[4], msgs[7]}, 2, "t1", 200)
	s.Remove(msgs[4], 0)
	s.RemoveMany([]*message.Message{msgs[7], msgs[9]}, nil)
	verifyChannels(t, s, []int64{2, 3, 5, 6, 8}, []int64{1})
	// Deleting the last live message of channel 2 drops its tree.
	s.Remove(msgs[1], 0)
	if s.byChannel[2] != nil {
		t.Fatal("channel 2 kept a tree after its last message went")
	}
	verifyChannels(t, s, []int64{2, 3, 5, 6, 8}, nil)
}

func TestCloneKeepsItsOwnStaleCount(t *testing.T) {
	s, msgs := channelStore(t, 9)
	c := s.Clone()
	moved := make([]*message.Message, 0, 3)
	for _, id := range []int64{1, 4, 7} {
		m := *msgs[id]
		moved = append(moved, &m)
	}
	s.Replace(moved)
	s.Move(moved, 2, "t1", 200)
	if c.byChannel[1].stale != 0 || s.byChannel[1].stale != 3 {
		t.Fatalf("stale counts: clone %d, original %d; want 0 and 3", c.byChannel[1].stale, s.byChannel[1].stale)
	}
	verifyChannels(t, c, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9}, nil)
	verifyChannels(t, s, []int64{2, 3, 5, 6, 8, 9}, []int64{1, 4, 7})
}

func TestVerifyCatchesAWrongStaleCount(t *testing.T) {
	s, msgs := channelStore(t, 9)
	s.Move([]*message.Message{msgs[1]}, 2, "t1", 200)
	s.byChannel[1].stale = 0
	if err := s.Verify(func(*message.Message) int { return 0 }, nil); err == nil {
		t.Fatal("Verify passed a stale count of 0 with one stale entry")
	}
}

func TestAMoveBackRevivesStaleEntriesAndFilesNewOnes(t *testing.T) {
	s, msgs := channelStore(t, 12)
	// 1, 4, 7, 10 leave; then 4 and 7 come back with 2 and 3 from a
	// second channel that never was in channel 1: the walk finds the
	// stale ones and files the new ones.
	s.Move([]*message.Message{msgs[1], msgs[4], msgs[7], msgs[10]}, 2, "t1", 200)
	s.Move([]*message.Message{msgs[2], msgs[3]}, 3, "t2", 300)
	s.Move([]*message.Message{msgs[2], msgs[3], msgs[4], msgs[7]}, 1, "back", 100)
	if got := s.byChannel[1]; got.stale != 2 {
		t.Fatalf("channel 1: %d stale entries, want 2 (1 and 10)", got.stale)
	}
	verifyChannels(t, s, []int64{2, 3, 4, 5, 6, 7, 8, 9, 11, 12}, []int64{1, 10})
}
