package store

import "github.com/minizulip/minizulip/message"

// TopicHeads calls fn with the newest message of each topic of a channel,
// in no particular order, until fn returns false. It reads the per-topic
// index only: one step per topic, whatever the number of messages.
func (s *Store) TopicHeads(channelID int, fn func(newest *message.Message) bool) {
	for _, tr := range s.byTopic[channelID] {
		id, ok := tr.Max()
		if !ok {
			continue
		}
		if m, ok := s.byID.Get(id); ok && !fn(m) {
			return
		}
	}
}
