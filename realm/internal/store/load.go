package store

import (
	"sync"

	"github.com/minizulip/minizulip/message"
)

// InsertAscending stores msgs, of ascending IDs all above the stored
// ones, as Insert does one by one (conversationIDs[i] is msgs[i]'s
// conversation, for direct messages): loading a realm's messages, it fills
// the ID table first, then builds the channel and topic indexes and the
// conversation and sender indexes side by side, on two cores where there
// are two.
func (s *Store) InsertAscending(msgs []*message.Message, conversationIDs []int) {
	s.wroteMessages(msgs)
	for _, m := range msgs {
		m.Client = s.internClient(m.Client)
		s.byID.Put(m)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for _, m := range msgs {
			if m.Type == message.Channel {
				s.byTopic.insert(m, &s.byID)
				s.byChannel.insert(m.ChannelID, m.ID)
			}
		}
	}()
	for i, m := range msgs {
		if m.Type != message.Channel {
			s.byConversation.insert(conversationIDs[i], m)
		}
		s.bySender.insert(m.SenderID, m)
	}
	wg.Wait()
}
