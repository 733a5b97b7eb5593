package store

import (
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/topic"
)

// topics indexes channel messages by channel and topic: one small btree
// of message IDs per topic (names matched case-insensitively), so that a
// whole topic moves or goes by re-filing its tree, not message by message.
type topics map[int]map[string]*idTree

// tree returns the tree of a topic key, nil when it has no message.
func (t topics) tree(channelID int, key string) *idTree { return t[channelID][key] }

// treeFor returns the tree of a topic key, creating it.
func (t topics) treeFor(channelID int, key string) *idTree {
	byKey := t[channelID]
	if byKey == nil {
		byKey = map[string]*idTree{}
		t[channelID] = byKey
	}
	tr := byKey[key]
	if tr == nil {
		tr = newIDTree()
		byKey[key] = tr
	}
	return tr
}

// insert files m under its topic. When the topic's newest message (found
// in byID) spells the name the same way, m takes that message's string,
// so a topic's name is stored once, not once a message.
func (t topics) insert(m *message.Message, byID *idTable) {
	tr := t.treeFor(m.ChannelID, topic.Key(m.Topic))
	if id, ok := tr.Max(); ok {
		if newest, ok := byID.Get(id); ok && newest.Topic == m.Topic {
			m.Topic = newest.Topic
		}
	}
	tr.ReplaceOrInsert(m.ID)
}

func (t topics) remove(m *message.Message) {
	key := topic.Key(m.Topic)
	tr := t.tree(m.ChannelID, key)
	if tr == nil {
		return
	}
	tr.Delete(m.ID)
	if tr.Len() == 0 {
		t.drop(m.ChannelID, key)
	}
}

// drop forgets a topic's tree.
func (t topics) drop(channelID int, key string) {
	delete(t[channelID], key)
	if len(t[channelID]) == 0 {
		delete(t, channelID)
	}
}

// move re-files msgs, all of one topic (channelID, key), under
// (toChannel, toKey). When they are the whole topic, its tree moves (or
// merges into the destination's) instead of each message.
func (t topics) move(msgs []*message.Message, channelID int, key string, toChannel int, toKey string) {
	if channelID == toChannel && key == toKey {
		return
	}
	src := t.tree(channelID, key)
	if src == nil {
		return
	}
	if src.Len() != len(msgs) {
		dst := t.treeFor(toChannel, toKey)
		for _, m := range msgs {
			src.Delete(m.ID)
			dst.ReplaceOrInsert(m.ID)
		}
		if src.Len() == 0 {
			t.drop(channelID, key)
		}
		return
	}
	t.drop(channelID, key)
	dst := t.tree(toChannel, toKey)
	if dst == nil {
		t.treeFor(toChannel, toKey) // makes the map entries
		t[toChannel][toKey] = src
		return
	}
	small, big := src, dst
	if small.Len() > big.Len() {
		small, big = big, small
	}
	small.Ascend(func(id int64) bool { big.ReplaceOrInsert(id); return true })
	t[toChannel][toKey] = big
}
