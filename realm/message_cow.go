package realm

import (
	"slices"

	"github.com/minizulip/minizulip/message"
)

// A stored message is never changed in place once a lock holding it has
// been released: every change (an edit, a move, a reaction) is made to a
// copy that replaces it in every index. So a message pointer read under
// the read lock is a frozen version, which readers may go on reading after
// releasing the lock (GetMessages builds its views that way), and which
// snapshots and forks (store.Clone) may share. Every change of a stored
// message goes through ownMessage or ownMessages first.

// ownMessage returns a copy of m, put in its place in every index, ready
// to be changed. The caller holds the write lock and uses the returned
// message from then on.
func (r *Realm) ownMessage(m *message.Message) *message.Message {
	return r.ownMessages([]*message.Message{m})[0]
}

// ownMessages is ownMessage for several messages, replaced in one pass.
// It returns the copies, in order; msgs itself is not changed.
func (r *Realm) ownMessages(msgs []*message.Message) []*message.Message {
	out := make([]*message.Message, len(msgs))
	var chunk []message.Message
	for i, m := range msgs {
		if len(chunk) == 0 {
			chunk = make([]message.Message, min(len(msgs)-i, copyChunk))
		}
		chunk[0] = *m
		out[i], chunk = &chunk[0], chunk[1:]
	}
	if len(out) > 0 {
		r.messages.store.Replace(out)
	}
	return out
}

// copyChunk is how many message copies ownMessages allocates at once:
// fewer allocations for a whole topic's move, while a superseded copy
// keeps at most this many others' memory alive.
const copyChunk = 32

// ownEditTargets gives an edit's target and moved messages their copies
// before applyEdit changes them, keeping the target's identity among the
// moved ones.
func (r *Realm) ownEditTargets(p *editPlan) {
	i := slices.Index(p.moved, p.target)
	if i < 0 {
		p.target = r.ownMessage(p.target)
		if len(p.moved) > 0 {
			p.moved = r.ownMessages(p.moved)
		}
		return
	}
	p.moved = r.ownMessages(p.moved)
	p.target = p.moved[i]
}
