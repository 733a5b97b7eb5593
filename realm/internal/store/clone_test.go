package store

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/message"
)

// listModel is a plain sorted map of a userMessages, for comparison.
type listModel map[int64]message.Flags

func (m listModel) check(t *testing.T, name string, l *userMessages) {
	t.Helper()
	var got []int64
	l.Ascend(0, func(um userMessage) bool {
		if um.flags() != m[um.id()] {
			t.Fatalf("%s: id %d has flags %d, want %d", name, um.id(), um.flags(), m[um.id()])
		}
		got = append(got, um.id())
		return true
	})
	want := make([]int64, 0, len(m))
	for id := range m {
		want = append(want, id)
	}
	slices.Sort(want)
	if !slices.Equal(got, want) || l.Len() != len(want) {
		t.Fatalf("%s: %d entries (Len %d), want %d", name, len(got), l.Len(), len(want))
	}
	if len(l.dead) != len(l.blocks) {
		t.Fatalf("%s: %d dead counts for %d blocks", name, len(l.dead), len(l.blocks))
	}
}

// randomOp applies one random write to a list and its model.
func randomOp(rng *rand.Rand, l *userMessages, m listModel, maxID int) {
	id := int64(rng.IntN(maxID))
	switch rng.IntN(6) {
	case 0: // append
		if um, ok := l.Max(); ok {
			id = um.id() + 1
		}
		fallthrough
	case 1: // insert or replace
		f := message.Flags(rng.IntN(4))
		l.Put(newUserMessage(id, f))
		m[id] = f
	case 2:
		l.Delete(id)
		delete(m, id)
	case 3: // batch flag change
		ids := []int64{id, id + 3, id + 700}
		l.each(ids, func(um *userMessage) { *um = um.withFlags(um.flags() ^ message.Starred) })
		for _, x := range ids {
			if f, ok := m[x]; ok {
				m[x] = f ^ message.Starred
			}
		}
	case 4:
		var ids []int64
		for x := id; x < id+int64(rng.IntN(600)); x++ {
			ids = append(ids, x)
		}
		l.removeSorted(ids, nil)
		for _, x := range ids {
			delete(m, x)
		}
	case 5:
		ids := []int64{id, id + 1, id + 300, id + 301}
		l.DeleteSorted(ids)
		for _, x := range ids {
			delete(m, x)
		}
	}
}

// TestUserMessagesCloneIsIndependent writes a list and its clones at
// random: each keeps exactly its own writes, whatever the other does, and
// clones of clones too.
func TestUserMessagesCloneIsIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var l userMessages
	m := listModel{}
	for i := 0; i < 3000; i++ {
		randomOp(rng, &l, m, 4000)
	}
	lists := []*userMessages{&l}
	models := []listModel{m}
	for round := 0; round < 6; round++ {
		src := rng.IntN(len(lists))
		c := lists[src].clone()
		cm := listModel{}
		for k, v := range models[src] {
			cm[k] = v
		}
		lists, models = append(lists, c), append(models, cm)
		for step := 0; step < 2000; step++ {
			i := rng.IntN(len(lists))
			randomOp(rng, lists[i], models[i], 5000)
		}
		for i := range lists {
			models[i].check(t, fmt.Sprintf("round %d list %d", round, i), lists[i])
		}
	}
}

// TestCloneCopiesABlockOnlyWhenWritten checks the sharing itself: a clone
// shares every block, a write copies only the block it touches.
func TestCloneCopiesABlockOnlyWhenWritten(t *testing.T) {
	var l userMessages
	for id := int64(1); id <= 10*blockSize; id++ {
		l.Put(newUserMessage(id, 0))
	}
	c := l.clone()
	same := func() int {
		n := 0
		for i := range l.blocks {
			if &l.blocks[i][0] == &c.blocks[i][0] {
				n++
			}
		}
		return n
	}
	if same() != len(l.blocks) {
		t.Fatalf("a fresh clone shares %d of %d blocks", same(), len(l.blocks))
	}
	c.Put(newUserMessage(5, message.Read))
	if same() != len(l.blocks)-1 {
		t.Fatalf("after one write %d of %d blocks are shared, want all but one", same(), len(l.blocks))
	}
	if um, _ := l.Get(5); um.flags() != 0 {
		t.Fatal("the original saw the clone's write")
	}
	l.Put(newUserMessage(10*blockSize+1, 0)) // append to the shared last block
	if _, ok := c.Get(10*blockSize + 1); ok || c.Len() != 10*blockSize {
		t.Fatal("the clone saw the original's append")
	}
}

// dumpStore describes everything a store holds: each index's entries
// (message pointer included) and each user's copies with their flags.
func dumpStore(s *Store) string {
	var b strings.Builder
	tree := func(name string, t *idTree) {
		fmt.Fprintf(&b, "%s:", name)
		t.Ascend(func(e idEntry) bool { fmt.Fprintf(&b, " %d@%p", e.id, e.msg); return true })
		b.WriteString("\n")
	}
	keys := func(m map[int]*idTree) []int {
		out := make([]int, 0, len(m))
		for k := range m {
			out = append(out, k)
		}
		sort.Ints(out)
		return out
	}
	fmt.Fprintf(&b, "byID:")
	s.byID.Ascend(0, func(m *message.Message) bool { fmt.Fprintf(&b, " %d@%p", m.ID, m); return true })
	b.WriteString("\n")
	for _, k := range keys(s.byChannel) {
		tree(fmt.Sprint("channel ", k), s.byChannel[k])
	}
	for _, k := range keys(s.byConversation) {
		tree(fmt.Sprint("conversation ", k), s.byConversation[k])
	}
	for _, k := range keys(s.bySender) {
		tree(fmt.Sprint("sender ", k), s.bySender[k])
	}
	channels := make([]int, 0, len(s.byTopic))
	for ch := range s.byTopic {
		channels = append(channels, ch)
	}
	sort.Ints(channels)
	for _, ch := range channels {
		for _, key := range slices.Sorted(maps.Keys(s.byTopic[ch])) {
			tree(fmt.Sprintf("topic %d/%s", ch, key), s.byTopic[ch][key])
		}
	}
	for _, lists := range []map[int]*userMessages{s.received, s.unread} {
		for _, uid := range slices.Sorted(maps.Keys(lists)) {
			fmt.Fprintf(&b, "user %d:", uid)
			lists[uid].Ascend(0, func(um userMessage) bool {
				fmt.Fprintf(&b, " %d/%d", um.id(), um.flags())
				return true
			})
			b.WriteString("\n")
		}
	}
	return b.String()
}

// TestStoreCloneIsIndependent changes a store in every way the realm does
// (send, flags, batch flags, moves after replacing the moved messages,
// removal, undelivery) and checks that its clone kept the state of the
// moment it was taken, and the other way round.
func TestStoreCloneIsIndependent(t *testing.T) {
	s, msgs := fixture(t)
	c := s.Clone()
	before := dumpStore(c)

	mutate := func(s *Store, base int64) {
		m := &message.Message{ID: base, Type: message.Channel, ChannelID: 1, Topic: "moat", SenderID: 10}
		s.Insert(m, 0)
		s.Deliver(10, m, 0)
		s.SetFlags(11, 1, message.Read|message.Starred)
		s.SetFlag(10, []int64{1, 2, base}, message.Read, true)
		// a move: replace the moved message with an own copy first
		old, _ := s.Message(2)
		moved := *old
		s.Replace([]*message.Message{&moved}, nil)
		s.Move([]*message.Message{&moved}, 2, "drawbridge", 99)
		s.Remove(msgs[4], 0)
		s.Undeliver(11, []int64{5})
	}
	mutate(s, 100)
	if got := dumpStore(c); got != before {
		t.Fatalf("the clone changed with its original:\n%s", cmp.Diff(before, got))
	}
	if msgs[2].Topic != "moat" || msgs[2].ChannelID != 1 {
		t.Fatalf("the shared message was changed in place: %+v", *msgs[2])
	}
	if m, _ := s.Message(2); m.Topic != "drawbridge" || m == msgs[2] {
		t.Fatal("the original lost its move")
	}
	if up, _ := collect(s.Topic(2, "drawbridge"), 0, 0); !slices.Equal(up, []int64{2}) {
		t.Fatalf("moved topic holds %v", up)
	}
	if cp, ok := s.Copy(11, 2); !ok || cp.Message.Topic != "drawbridge" {
		t.Fatal("a user's copy still points at the replaced message")
	}

	// And the other way: the original keeps its state while the clone
	// changes.
	after := dumpStore(s)
	mutate(c, 200)
	if got := dumpStore(s); got != after {
		t.Fatalf("the original changed with its clone:\n%s", cmp.Diff(after, got))
	}
}
