package store

import (
	"github.com/google/btree"
	"github.com/minizulip/minizulip/message"
)

// keyed indexes messages by one key (a channel, a direct-message
// conversation or a sender): one btree of message IDs per key. Each
// key's tree holds only that key's messages, so inserting, removing or
// walking them costs in the size of that channel, conversation or
// sender's history, never in the size of the realm.
type keyed map[int]*idTree

// idTree holds one set of messages by ID: a key's messages, or a topic's.
type idTree = btree.BTreeG[idEntry]

// idEntry is one message of an idTree.
type idEntry struct {
	id  int64
	msg *message.Message
}

func newIDTree() *idTree {
	return btree.NewG(btreeDegree, func(a, b idEntry) bool { return a.id < b.id })
}

// insert files m under key.
func (k keyed) insert(key int, m *message.Message) {
	t := k[key]
	if t == nil {
		t = newIDTree()
		k[key] = t
	}
	t.ReplaceOrInsert(idEntry{m.ID, m})
}

// remove takes message id out of key's tree, dropping the tree when it
// empties.
func (k keyed) remove(key int, id int64) {
	t := k[key]
	if t == nil {
		return
	}
	t.Delete(idEntry{id: id})
	if t.Len() == 0 {
		delete(k, key)
	}
}

// scan walks key's messages.
func (k keyed) scan(key int) Scan { return treeScan(k[key]) }

// treeScan walks one idTree; a nil tree scans nothing.
func treeScan(t *idTree) Scan {
	if t == nil {
		return Empty()
	}
	return Scan{
		down: func(below int64, fn func(*message.Message) bool) {
			t.DescendLessOrEqual(idEntry{id: below - 1}, func(e idEntry) bool { return fn(e.msg) })
		},
		up: func(from int64, fn func(*message.Message) bool) {
			t.AscendGreaterOrEqual(idEntry{id: from}, func(e idEntry) bool { return fn(e.msg) })
		},
	}
}
