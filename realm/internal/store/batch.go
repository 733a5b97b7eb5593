package store

import (
	"slices"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/topic"
)

// This file holds the store's batch operations, which whole-topic moves
// and topic deletion use: they touch each index once per message and
// each user's copies once per batch, never once per message per user.

// Move re-files channel messages under another channel, topic and
// recipient: it changes each message's ChannelID, Topic and RecipientID
// and keeps the channel and topic indexes in step (the old channel's
// entries stay, stale: see channels). Personal copies keep
// pointing at the same messages, so they need no change.
func (s *Store) Move(msgs []*message.Message, channelID int, topicName string, recipientID int) {
	s.wroteMessages(msgs)
	newKey := topic.Key(topicName)
	// Re-file the topic index once per source topic (a move takes one
	// topic, or part of one, but nothing here relies on it).
	type source struct {
		channel int
		key     string
	}
	type group struct {
		source
		msgs []*message.Message
	}
	var groups []group
	index := map[source]int{}
	cur := -1
	var last *message.Message // messages of one topic come in runs: key each run once
	for _, m := range msgs {
		if m.Type != message.Channel {
			continue
		}
		if last == nil || m.ChannelID != last.ChannelID || m.Topic != last.Topic {
			src := source{m.ChannelID, topic.Key(m.Topic)}
			var ok bool
			if cur, ok = index[src]; !ok {
				cur = len(groups)
				index[src] = cur
				groups = append(groups, group{source: src})
			}
		}
		last = m
		groups[cur].msgs = append(groups[cur].msgs, m)
	}
	for _, g := range groups {
		s.byTopic.move(g.msgs, g.channel, g.key, channelID, newKey)
	}
	// Only a move to another channel re-files channel entries: a rename
	// allocates nothing here.
	var left map[int]bool
	var arriving []int64
	for _, m := range msgs {
		if m.Type != message.Channel {
			continue
		}
		if m.ChannelID != channelID {
			if arriving == nil {
				left, arriving = map[int]bool{}, make([]int64, 0, len(msgs))
			}
			s.byChannel.leave(m.ChannelID)
			left[m.ChannelID] = true
			arriving = append(arriving, m.ID)
		}
		m.ChannelID, m.Topic, m.RecipientID = channelID, topicName, recipientID
	}
	if len(arriving) > 0 {
		if !slices.IsSorted(arriving) {
			slices.Sort(arriving)
		}
		s.byChannel.insertMany(channelID, arriving)
	}
	for id := range left {
		s.byChannel.compact(id, &s.byID)
	}
}

// RemoveMany deletes messages from every index, personal copies
// included; conversationID gives each direct message's conversation. It
// returns, for each user who held a copy of any of them, the IDs of the
// copies removed, ascending.
func (s *Store) RemoveMany(msgs []*message.Message, conversationID func(*message.Message) int) map[int][]int64 {
	ids := make([]int64, 0, len(msgs))
	for _, m := range msgs {
		s.removing(m.ID)
		s.byID.Delete(m.ID)
		if m.Type == message.Channel {
			s.byTopic.remove(m)
			s.byChannel.remove(m.ChannelID, m.ID)
		} else {
			s.byConversation.remove(conversationID(m), m.ID)
		}
		s.bySender.remove(m.SenderID, m.ID)
		ids = append(ids, m.ID)
	}
	slices.Sort(ids)
	removed := map[int][]int64{}
	for uid, l := range s.received {
		if gone := l.DeleteSorted(ids); len(gone) > 0 {
			removed[uid] = gone
			if u := s.unread[uid]; u != nil {
				u.removeSorted(gone, nil)
			}
		}
	}
	return removed
}

// Undeliver removes userID's copies of the given messages (IDs
// ascending) and returns the IDs of the copies that existed.
func (s *Store) Undeliver(userID int, ids []int64) []int64 {
	s.wroteIDs(ids)
	l := s.received[userID]
	if l == nil {
		return nil
	}
	gone := l.DeleteSorted(ids)
	if u := s.unread[userID]; u != nil && len(gone) > 0 {
		u.removeSorted(gone, nil)
	}
	return gone
}
