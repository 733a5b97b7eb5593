package store

import "github.com/minizulip/minizulip/message"

// channels indexes channel messages by channel: one btree of message IDs
// per channel. A message moved to another channel is not taken out of its
// old channel's tree at once: the ID stays there as a stale entry, which
// scans skip (the ID table says where the message is now), and which a
// move back finds again. A tree is rebuilt without its stale entries when
// they outnumber the live ones, so a scan never walks more than twice the
// channel's messages, and a move out of a large channel costs nothing per
// message there.
type channels map[int]*channelTree

// channelTree is one channel's IDs: its messages, and stale entries of
// messages that have left it.
type channelTree struct {
	ids   *idTree
	stale int
}

// insert files message id under channelID; an entry it left there stale
// comes back to life.
func (c channels) insert(channelID int, id int64) {
	t := c[channelID]
	if t == nil {
		t = &channelTree{ids: newIDTree()}
		c[channelID] = t
	}
	if _, had := t.ids.ReplaceOrInsert(id); had {
		t.stale--
	}
}

// insertMany files ascending message IDs under channelID. When the channel
// holds stale entries and the batch is not much smaller than its tree (a
// topic moved back where it came from), one walk through the tree finds
// the entries already there, instead of a search from the root for each.
func (c channels) insertMany(channelID int, ids []int64) {
	t := c[channelID]
	if t == nil || t.stale == 0 || len(ids)*reviveWalkRatio < t.ids.Len() {
		for _, id := range ids {
			c.insert(channelID, id)
		}
		return
	}
	var missing []int64
	j := 0
	t.ids.AscendGreaterOrEqual(ids[0], func(id int64) bool {
		for j < len(ids) && ids[j] < id {
			missing = append(missing, ids[j])
			j++
		}
		if j < len(ids) && ids[j] == id {
			t.stale--
			j++
		}
		return j < len(ids)
	})
	missing = append(missing, ids[j:]...)
	for _, id := range missing {
		c.insert(channelID, id)
	}
}

// reviveWalkRatio bounds the walk of insertMany: it walks a tree of at
// most this many entries per ID inserted.
const reviveWalkRatio = 16

// leave records that one message of channelID has moved elsewhere: its
// entry stays, stale. Call compact once the moves are done.
func (c channels) leave(channelID int) {
	if t := c[channelID]; t != nil {
		t.stale++
	}
}

// remove takes a deleted message's entry out of its channel's tree,
// dropping the tree when only stale entries are left.
func (c channels) remove(channelID int, id int64) {
	t := c[channelID]
	if t == nil {
		return
	}
	t.ids.Delete(id)
	if t.ids.Len() == t.stale {
		delete(c, channelID)
	}
}

// compact rebuilds channelID's tree without its stale entries when they
// outnumber the live ones; byID tells where each message is now.
func (c channels) compact(channelID int, byID *idTable) {
	t := c[channelID]
	if t == nil || 2*t.stale <= t.ids.Len() {
		return
	}
	if t.ids.Len() == t.stale {
		delete(c, channelID)
		return
	}
	live := newIDTree()
	t.ids.Ascend(func(id int64) bool {
		if m, ok := byID.Get(id); ok && inChannel(m, channelID) {
			live.ReplaceOrInsert(id)
		}
		return true
	})
	c[channelID] = &channelTree{ids: live}
}

// inChannel reports whether m is a message of channelID.
func inChannel(m *message.Message, channelID int) bool {
	return m.Type == message.Channel && m.ChannelID == channelID
}

// scan walks channelID's messages, skipping stale entries.
func (c channels) scan(channelID int, byID *idTable) Scan {
	t := c[channelID]
	if t == nil {
		return Empty()
	}
	if t.stale == 0 {
		return treeScan(t.ids, byID)
	}
	sc := treeScan(t.ids, byID)
	live := func(fn func(*message.Message) bool) func(*message.Message) bool {
		return func(m *message.Message) bool { return !inChannel(m, channelID) || fn(m) }
	}
	return Scan{
		down: func(below int64, fn func(*message.Message) bool) { sc.down(below, live(fn)) },
		up:   func(from int64, fn func(*message.Message) bool) { sc.up(from, live(fn)) },
	}
}

func (c channels) clone() channels {
	out := make(channels, len(c))
	for key, t := range c {
		out[key] = &channelTree{ids: t.ids.Clone(), stale: t.stale}
	}
	return out
}
