package store

import (
	"github.com/google/btree"
	"github.com/minizulip/minizulip/message"
)

// keyed indexes messages by one key (a channel, a direct-message
// conversation or a sender): one btree of message IDs per key. The trees
// hold IDs only, resolved through the ID table, so a new version of a
// message (see Replace) changes the ID table alone. Each
// key's tree holds only that key's messages, so inserting, removing or
// walking them costs in the size of that channel, conversation or
// sender's history, never in the size of the realm.
type keyed map[int]*idTree

// idTree holds the IDs of one set of messages: a key's messages, or a
// topic's.
type idTree = btree.BTreeG[int64]

func newIDTree() *idTree {
	return btree.NewG(btreeDegree, func(a, b int64) bool { return a < b })
}

// insert files m under key.
func (k keyed) insert(key int, m *message.Message) {
	t := k[key]
	if t == nil {
		t = newIDTree()
		k[key] = t
	}
	t.ReplaceOrInsert(m.ID)
}

// remove takes message id out of key's tree, dropping the tree when it
// empties.
func (k keyed) remove(key int, id int64) {
	t := k[key]
	if t == nil {
		return
	}
	t.Delete(id)
	if t.Len() == 0 {
		delete(k, key)
	}
}

// treeScan walks the messages of one idTree, found by ID in byID; a nil
// tree scans nothing.
func treeScan(t *idTree, byID *idTable) Scan {
	if t == nil {
		return Empty()
	}
	each := func(fn func(*message.Message) bool) func(int64) bool {
		return func(id int64) bool {
			m, ok := byID.Get(id)
			return !ok || fn(m)
		}
	}
	return Scan{
		down: func(below int64, fn func(*message.Message) bool) { t.DescendLessOrEqual(below-1, each(fn)) },
		up:   func(from int64, fn func(*message.Message) bool) { t.AscendGreaterOrEqual(from, each(fn)) },
	}
}
