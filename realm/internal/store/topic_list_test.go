package store

import (
	"slices"
	"testing"

	"github.com/minizulip/minizulip/message"
)

func TestTopicHeads(t *testing.T) {
	s := New()
	add := func(id int64, channel int, topicName string) *message.Message {
		m := &message.Message{ID: id, Type: message.Channel, ChannelID: channel, Topic: topicName}
		s.Insert(m, 0)
		return m
	}
	add(1, 1, "alpha")
	add(2, 1, "beta")
	add(3, 2, "alpha")
	newestAlpha := add(4, 1, "ALPHA")
	gone := add(5, 1, "gamma")
	s.Remove(gone, 0)
	heads := map[string]int64{}
	s.TopicHeads(1, func(m *message.Message) bool { heads[m.Topic] = m.ID; return true })
	if len(heads) != 2 || heads["ALPHA"] != newestAlpha.ID || heads["beta"] != 2 {
		t.Fatalf("heads of channel 1: %v", heads)
	}
	var seen []int64
	s.TopicHeads(1, func(m *message.Message) bool { seen = append(seen, m.ID); return false })
	if len(seen) != 1 || !slices.Contains([]int64{2, 4}, seen[0]) {
		t.Fatalf("stopping after one topic: %v", seen)
	}
	s.TopicHeads(9, func(*message.Message) bool { t.Fatal("channel 9 has no topic"); return true })
}
