package store

import "github.com/minizulip/minizulip/message"

// pageSize is the number of message IDs one idTable page covers.
const pageSize = 1024

// idTable finds a message by ID in constant time: a list of pages, each
// covering pageSize consecutive IDs. The realm numbers messages from 1
// without gaps, so the table costs about one pointer a message, against
// a B-tree's two words and half-empty nodes, and a lookup is two memory
// reads, however many messages there are: copy lists hold only IDs and
// find their messages here. Pages left empty by removals are freed.
type idTable struct {
	pages []*idPage // pages[i] covers IDs [i*pageSize, (i+1)*pageSize); nil when empty
	n     int
	// owner marks the pages this table may write in place, and
	// sharedPages says pages is shared with a clone: a clone gives both
	// tables new marks, and each copies the list before changing it
	// (clone.go).
	owner       *byte
	sharedPages bool
}

// idPage holds the messages of pageSize consecutive IDs.
type idPage struct {
	msgs  [pageSize]*message.Message
	n     int
	owner *byte // the table that may write it in place
}

// Len is the number of messages.
func (t *idTable) Len() int { return t.n }

// Get returns the message with this ID.
func (t *idTable) Get(id int64) (*message.Message, bool) {
	if id < 0 || id/pageSize >= int64(len(t.pages)) {
		return nil, false
	}
	p := t.pages[id/pageSize]
	if p == nil || p.msgs[id%pageSize] == nil {
		return nil, false
	}
	return p.msgs[id%pageSize], true
}

// Put stores m under its ID, replacing any message there. IDs must be
// non-negative.
func (t *idTable) Put(m *message.Message) {
	pi := int(m.ID / pageSize)
	if pi >= len(t.pages) {
		t.ownPages()
		t.pages = append(t.pages, make([]*idPage, pi+1-len(t.pages))...)
	}
	p := t.ownPage(pi)
	if p == nil {
		p = &idPage{owner: t.owner}
		t.ownPages()
		t.pages[pi] = p
	}
	if p.msgs[m.ID%pageSize] == nil {
		p.n++
		t.n++
	}
	p.msgs[m.ID%pageSize] = m
}

// Delete removes the message with this ID, freeing its page when that
// empties it.
func (t *idTable) Delete(id int64) {
	if id < 0 || id/pageSize >= int64(len(t.pages)) {
		return
	}
	pi := id / pageSize
	p := t.pages[pi]
	if p == nil || p.msgs[id%pageSize] == nil {
		return
	}
	p = t.ownPage(int(pi))
	p.msgs[id%pageSize] = nil
	p.n--
	t.n--
	if p.n == 0 {
		t.ownPages()
		t.pages[pi] = nil
		for len(t.pages) > 0 && t.pages[len(t.pages)-1] == nil {
			t.pages = t.pages[:len(t.pages)-1]
		}
	}
}

// Ascend calls fn on the messages with IDs >= from, in ascending order,
// until fn returns false.
func (t *idTable) Ascend(from int64, fn func(*message.Message) bool) {
	from = max(from, 0)
	for pi := from / pageSize; pi < int64(len(t.pages)); pi++ {
		p := t.pages[pi]
		if p == nil {
			continue
		}
		j := int64(0)
		if pi == from/pageSize {
			j = from % pageSize
		}
		for ; j < pageSize; j++ {
			if m := p.msgs[j]; m != nil && !fn(m) {
				return
			}
		}
	}
}

// Descend calls fn on the messages with IDs < below, in descending
// order, until fn returns false.
func (t *idTable) Descend(below int64, fn func(*message.Message) bool) {
	if below <= 0 {
		return
	}
	last := below - 1
	pi := min(last/pageSize, int64(len(t.pages))-1)
	for ; pi >= 0; pi-- {
		p := t.pages[pi]
		if p == nil {
			continue
		}
		j := int64(pageSize - 1)
		if pi == last/pageSize {
			j = last % pageSize
		}
		for ; j >= 0; j-- {
			if m := p.msgs[j]; m != nil && !fn(m) {
				return
			}
		}
	}
}

// scan walks the table.
func (t *idTable) scan() Scan {
	return Scan{down: t.Descend, up: t.Ascend}
}
