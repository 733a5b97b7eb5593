package store

import (
	"fmt"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/topic"
)

// Verify checks every index of the store against a full scan of the
// messages by ID, for tests: every message is reachable through its topic,
// channel or conversation, and sender; every index key walked holds
// exactly the messages of that key, all stored; each listed user's copy
// lists keep their structure (blocks, chunks, counts), and the copies
// are in ID order, of stored messages, and agree with Copy, HasCopy,
// NewestCopyID, Received and Unread. conversationOf gives a direct
// message's conversation ID (the realm keeps them). It only reads, under
// the realm's read lock, and reports the first inconsistency.
//
// Keys are the ones the full scan finds; an index entry under a key no
// stored message has is not looked for.
func (s *Store) Verify(conversationOf func(*message.Message) int, users []int) error {
	type topicRef struct {
		channel int
		key     string
	}
	var (
		all           []*message.Message
		channels      = map[int]int{}
		topics        = map[topicRef]int{}
		conversations = map[int]int{}
		senders       = map[int]int{}
		err           error
	)
	var last int64
	s.All().Up(0, func(m *message.Message) bool {
		if m.ID <= last {
			err = fmt.Errorf("messages by ID: %d after %d", m.ID, last)
			return false
		}
		last = m.ID
		if got, ok := s.Message(m.ID); !ok || got != m {
			err = fmt.Errorf("message %d: Message gives %p, the scan %p", m.ID, got, m)
			return false
		}
		all = append(all, m)
		if m.Type == message.Channel {
			channels[m.ChannelID]++
			topics[topicRef{m.ChannelID, topic.Key(m.Topic)}]++
		} else {
			conversations[conversationOf(m)]++
		}
		senders[m.SenderID]++
		return true
	})
	if err != nil {
		return err
	}
	if len(all) != s.Len() {
		return fmt.Errorf("Len is %d, the scan finds %d", s.Len(), len(all))
	}
	for _, m := range all {
		if m.Type == message.Channel {
			if !holds(s.Topic(m.ChannelID, m.Topic), m) {
				return fmt.Errorf("message %d missing from topic %d/%q", m.ID, m.ChannelID, m.Topic)
			}
			if !holds(s.Channel(m.ChannelID), m) {
				return fmt.Errorf("message %d missing from channel %d", m.ID, m.ChannelID)
			}
		} else if !holds(s.Conversation(conversationOf(m)), m) {
			return fmt.Errorf("message %d missing from conversation %d", m.ID, conversationOf(m))
		}
		if !holds(s.Sender(m.SenderID), m) {
			return fmt.Errorf("message %d missing from sender %d", m.ID, m.SenderID)
		}
	}
	for ref, n := range topics {
		if err := s.checkKey(fmt.Sprintf("topic %d/%q", ref.channel, ref.key), s.byTopic.tree(ref.channel, ref.key), n, func(m *message.Message) bool {
			return m.Type == message.Channel && m.ChannelID == ref.channel && topic.Key(m.Topic) == ref.key
		}); err != nil {
			return err
		}
	}
	if err := s.checkChannels(channels); err != nil {
		return err
	}
	for id, n := range conversations {
		if err := s.checkKey(fmt.Sprintf("conversation %d", id), s.byConversation[id], n, func(m *message.Message) bool {
			return m.Type == message.Direct && conversationOf(m) == id
		}); err != nil {
			return err
		}
	}
	for id, n := range senders {
		if err := s.checkKey(fmt.Sprintf("sender %d", id), s.bySender[id], n, func(m *message.Message) bool {
			return m.SenderID == id
		}); err != nil {
			return err
		}
	}
	for _, uid := range users {
		if err := s.checkCopies(uid); err != nil {
			return err
		}
	}
	return nil
}

// holds reports whether sc walks m.
func holds(sc Scan, m *message.Message) bool {
	found := false
	sc.Up(m.ID, func(got *message.Message) bool {
		found = got == m
		return false
	})
	return found
}

// checkKey walks one index key's tree: n message IDs in order, all
// stored, all of the key.
func (s *Store) checkKey(name string, t *idTree, n int, ofKey func(*message.Message) bool) error {
	count := 0
	var last int64
	var err error
	if t == nil {
		return fmt.Errorf("%s has no index", name)
	}
	t.Ascend(func(id int64) bool {
		m, ok := s.Message(id)
		switch {
		case id <= last:
			err = fmt.Errorf("%s: %d after %d", name, id, last)
		case !ok:
			err = fmt.Errorf("%s holds message %d, which is not stored", name, id)
		case !ofKey(m):
			err = fmt.Errorf("%s holds message %d, which is not of it", name, id)
		}
		last = id
		count++
		return err == nil
	})
	if err == nil && count != n {
		err = fmt.Errorf("%s holds %d messages, the full scan %d", name, count, n)
	}
	return err
}

// checkCopies checks one user's copies against the stored messages and
// the user's unread index.
func (s *Store) checkCopies(uid int) error {
	for i, l := range []*userMessages{s.received[uid], s.unread[uid]} {
		if l == nil {
			continue
		}
		if err := l.check(); err != nil {
			return fmt.Errorf("user %d's %s list: %w", uid, []string{"received", "unread"}[i], err)
		}
	}
	var copies, unread []Copy
	var last int64
	var err error
	s.Copies(uid, 0, func(c Copy) bool {
		stored, ok := s.Message(c.Message.ID)
		got, has := s.Copy(uid, c.Message.ID)
		switch {
		case c.Message.ID <= last:
			err = fmt.Errorf("user %d's copies: %d after %d", uid, c.Message.ID, last)
		case !ok || stored != c.Message:
			err = fmt.Errorf("user %d holds a copy of message %d, which is not stored", uid, c.Message.ID)
		case !has || got != c || !s.HasCopy(uid, c.Message.ID):
			err = fmt.Errorf("user %d's copy of %d: walked %+v, Copy gives %+v", uid, c.Message.ID, c, got)
		}
		last = c.Message.ID
		copies = append(copies, c)
		if c.Flags&message.Read == 0 {
			unread = append(unread, c)
		}
		return err == nil
	})
	if err != nil {
		return err
	}
	if newest, ok := s.NewestCopyID(uid); ok != (len(copies) > 0) || ok && newest != copies[len(copies)-1].Message.ID {
		return fmt.Errorf("user %d: NewestCopyID %d %v, copies end at %d", uid, newest, ok, last)
	}
	if err := sameMessages(fmt.Sprintf("user %d's received", uid), s.Received(uid), copies); err != nil {
		return err
	}
	return sameMessages(fmt.Sprintf("user %d's unread", uid), s.Unread(uid), unread)
}

// sameMessages checks that sc walks exactly want's messages, in order.
func sameMessages(name string, sc Scan, want []Copy) error {
	i := 0
	var err error
	sc.Up(0, func(m *message.Message) bool {
		if i >= len(want) || want[i].Message != m {
			err = fmt.Errorf("%s: message %d at position %d is not expected there", name, m.ID, i)
			return false
		}
		i++
		return true
	})
	if err == nil && i != len(want) {
		err = fmt.Errorf("%s walks %d messages, want %d", name, i, len(want))
	}
	return err
}

// checkChannels checks every channel tree: live entries are the channel's
// messages (n of them, as the full scan counted), every other entry is
// counted stale, no tree is left with stale entries only, and no channel
// with messages lacks a tree.
func (s *Store) checkChannels(counts map[int]int) error {
	for id := range counts {
		if s.byChannel[id] == nil {
			return fmt.Errorf("channel %d has no index", id)
		}
	}
	for id, t := range s.byChannel {
		live, stale := 0, 0
		var last int64
		var err error
		t.ids.Ascend(func(mid int64) bool {
			if mid <= last {
				err = fmt.Errorf("channel %d: %d after %d", id, mid, last)
				return false
			}
			last = mid
			if m, ok := s.Message(mid); ok && inChannel(m, id) {
				live++
			} else {
				stale++
			}
			return true
		})
		switch {
		case err != nil:
			return err
		case live != counts[id]:
			return fmt.Errorf("channel %d holds %d messages, the full scan %d", id, live, counts[id])
		case stale != t.stale:
			return fmt.Errorf("channel %d holds %d stale entries, counted %d", id, stale, t.stale)
		case live == 0:
			return fmt.Errorf("channel %d is kept with stale entries only", id)
		}
	}
	return nil
}
