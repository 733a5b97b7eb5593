package realm

import (
	"slices"

	"github.com/minizulip/minizulip/message"
)

// Stored messages are shared between a realm and its snapshots and forks
// (store.Clone). A realm therefore changes in place only the messages it
// owns: those created since its last snapshot, fork or restore, and those
// it has already copied since. Every in-place change of a stored message
// goes through ownMessage or ownMessages first.

// messageOwnership says which stored messages a realm may change in
// place. The zero value owns every message (a realm never cloned).
type messageOwnership struct {
	// from: messages with this ID or higher were created after the last
	// clone, so nothing else holds them.
	from int64
	// copied are the older messages already replaced by own copies.
	copied map[int64]bool
}

// owns reports whether message id may be changed in place.
func (o *messageOwnership) owns(id int64) bool { return id >= o.from || o.copied[id] }

// shareAll records that every message stored so far is now shared (the
// realm was just cloned); nextID is the ID the next message will get.
func (o *messageOwnership) shareAll(nextID int64) { *o = messageOwnership{from: nextID} }

// ownMessage returns m ready to be changed in place: m itself when the
// realm owns it, else a copy put in its place in every index. The caller
// holds the write lock and uses the returned message from then on.
func (r *Realm) ownMessage(m *message.Message) *message.Message {
	if r.msgOwner.owns(m.ID) {
		return m
	}
	return r.ownMessages([]*message.Message{m})[0]
}

// ownMessages is ownMessage for several messages, replaced in one pass
// over the users' copies. It returns the messages to change, in order;
// msgs itself is not changed.
func (r *Realm) ownMessages(msgs []*message.Message) []*message.Message {
	out := slices.Clone(msgs)
	var replaced []*message.Message
	for i, m := range msgs {
		if r.msgOwner.owns(m.ID) {
			continue
		}
		c := *m
		out[i] = &c
		replaced = append(replaced, &c)
		if r.msgOwner.copied == nil {
			r.msgOwner.copied = map[int64]bool{}
		}
		r.msgOwner.copied[m.ID] = true
	}
	if len(replaced) > 0 {
		r.messages.Replace(replaced, func(m *message.Message) int {
			return r.conversations[joinIDs(m.DMUserIDs)].id
		})
	}
	return out
}

// ownEditTargets makes an edit's target and moved messages the realm's
// own before applyEdit changes them, keeping the target's identity among
// the moved ones.
func (r *Realm) ownEditTargets(p *editPlan) {
	if len(p.moved) == 0 {
		p.target = r.ownMessage(p.target)
		return
	}
	owned := r.ownMessages(p.moved)
	for i, m := range p.moved {
		if m == p.target {
			p.target = owned[i]
		}
	}
	p.moved = owned
	p.target = r.ownMessage(p.target) // when it was not among the moved
}
