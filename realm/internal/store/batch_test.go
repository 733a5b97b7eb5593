package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/message"
)

func TestMoveRefilesTopicAndChannel(t *testing.T) {
	s, msgs := fixture(t)
	// Rename channel 1's "Castle" topic (messages 1 and 5) to "keep",
	// then move message 2 to channel 2.
	s.Move([]*message.Message{msgs[1], msgs[5]}, 1, "keep", 100)
	s.Move([]*message.Message{msgs[2]}, 2, "moat", 200)
	for name, c := range map[string]struct {
		sc   Scan
		want []int64
	}{
		"old topic":    {s.Topic(1, "castle"), nil},
		"new topic":    {s.Topic(1, "KEEP"), []int64{1, 5}},
		"channel 1":    {s.Channel(1), []int64{1, 5}},
		"channel 2":    {s.Channel(2), []int64{2, 4}},
		"moved topic":  {s.Topic(2, "moat"), []int64{2}},
		"copies stay":  {s.Received(10), []int64{1, 2, 3, 4}},
		"conversation": {s.Conversation(7), []int64{3}},
	} {
		up, _ := collect(c.sc, 0, 0)
		if diff := cmp.Diff(c.want, up); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	if m := msgs[1]; m.Topic != "keep" || m.RecipientID != 100 || msgs[2].ChannelID != 2 {
		t.Fatalf("moved messages carry their new place: %+v %+v", m, msgs[2])
	}
}

func TestRemoveManyRemovesCopiesOnce(t *testing.T) {
	s, msgs := fixture(t)
	s.SetFlags(11, 5, message.Starred) // unread
	removed := s.RemoveMany([]*message.Message{msgs[5], msgs[1], msgs[3]}, func(*message.Message) int { return 7 })
	want := map[int][]int64{10: {1, 3}, 11: {1, 3, 5}}
	if diff := cmp.Diff(want, removed); diff != "" {
		t.Fatalf("removed copies (-want +got):\n%s", diff)
	}
	if s.Len() != 2 {
		t.Fatalf("Len = %d, want 2", s.Len())
	}
	for name, sc := range map[string]Scan{"topic": s.Topic(1, "castle"), "conversation": s.Conversation(7), "unread 11": s.Unread(11)} {
		up, _ := collect(sc, 0, 0)
		if name == "unread 11" {
			if diff := cmp.Diff([]int64{2}, up); diff != "" {
				t.Errorf("%s (-want +got):\n%s", name, diff)
			}
			continue
		}
		if len(up) != 0 {
			t.Errorf("%s still lists %v", name, up)
		}
	}
}

func TestDeleteSortedAcrossBlocks(t *testing.T) {
	l := &userMessages{}
	for id := int64(1); id <= 3*blockSize; id++ {
		l.Put(newUserMessage(id, 0))
	}
	var ids []int64
	for id := int64(0); id <= 3*blockSize+5; id += 3 {
		ids = append(ids, id) // 0 and the last few do not exist
	}
	gone := l.DeleteSorted(ids)
	if len(gone) != blockSize {
		t.Fatalf("removed %d, want %d", len(gone), blockSize)
	}
	if l.Len() != 2*blockSize {
		t.Fatalf("Len = %d", l.Len())
	}
	prev := int64(0)
	count := 0
	l.Ascend(0, func(um userMessage) bool {
		if um.id()%3 == 0 || um.id() <= prev {
			t.Fatalf("entry %d after %d", um.id(), prev)
		}
		prev = um.id()
		count++
		return true
	})
	if count != 2*blockSize {
		t.Fatalf("walked %d", count)
	}
	// Emptying whole blocks drops them.
	var all []int64
	l.Ascend(0, func(um userMessage) bool { all = append(all, um.id()); return true })
	l.DeleteSorted(all)
	if l.Len() != 0 || len(l.chunks) != 0 {
		t.Fatalf("left %d entries in %d chunks", l.Len(), len(l.chunks))
	}
}

func TestMoveMergesWholeTopics(t *testing.T) {
	s, msgs := fixture(t)
	// Channel 1's "moat" (message 2) merges whole into "castle" (1, 5);
	// then part of the merged topic (message 5) leaves it.
	s.Move([]*message.Message{msgs[2]}, 1, "Castle", 100)
	if up, _ := collect(s.Topic(1, "castle"), 0, 0); !cmp.Equal(up, []int64{1, 2, 5}) {
		t.Fatalf("merged topic %v", up)
	}
	if up, _ := collect(s.Topic(1, "moat"), 0, 0); len(up) != 0 {
		t.Fatalf("old topic %v", up)
	}
	s.Move([]*message.Message{msgs[5]}, 1, "split", 100)
	for name, want := range map[string][]int64{"castle": {1, 2}, "split": {5}} {
		if up, down := collect(s.Topic(1, name), 0, 6); !cmp.Equal(up, want) || len(down) != len(want) {
			t.Errorf("%s: up %v down %v, want %v", name, up, down, want)
		}
	}
	// Removing a topic's last message forgets it.
	s.RemoveMany([]*message.Message{msgs[5]}, nil)
	if _, ok := s.byTopic[1]["split"]; ok {
		t.Fatal("an emptied topic keeps its tree")
	}
}
