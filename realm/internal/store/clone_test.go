package store

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/message"
)

// listModel is a plain sorted map of a userMessages, for comparison.
type listModel map[int64]message.Flags

func (m listModel) check(t *testing.T, name string, l *userMessages) {
	t.Helper()
	if err := l.check(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
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
}

// randomOp applies one random write to a list and its model; runs of
// appends, inserts and removals reach up to maxID/8 IDs, so that on a
// long list they fill, split and empty whole blocks and chunks.
func randomOp(rng *rand.Rand, l *userMessages, m listModel, maxID int) {
	id := int64(rng.IntN(maxID))
	run := 1 + rng.IntN(max(maxID/8, 600))
	switch rng.IntN(8) {
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
		ids := ascending(id, id+3, id+700, id+int64(run))
		l.each(ids, func(um *userMessage) { *um = um.withFlags(um.flags() ^ message.Starred) })
		for _, x := range ids {
			if f, ok := m[x]; ok {
				m[x] = f ^ message.Starred
			}
		}
	case 4: // a dense run removed
		var ids []int64
		for x := id; x < id+int64(run); x++ {
			ids = append(ids, x)
		}
		l.removeSorted(ids, nil)
		for _, x := range ids {
			delete(m, x)
		}
	case 5:
		ids := ascending(id, id+1, id+300, id+301, id+int64(run))
		l.DeleteSorted(ids)
		for _, x := range ids {
			delete(m, x)
		}
	case 6: // a run of appends
		if um, ok := l.Max(); ok {
			id = um.id() + 1
		}
		for x := id; x < id+int64(run); x++ {
			l.Put(newUserMessage(x, message.Read))
			m[x] = message.Read
		}
	case 7: // a run of inserts into the gaps of a range
		for x := id; x < id+int64(run); x += 2 {
			l.Put(newUserMessage(x, message.Mentioned))
			m[x] = message.Mentioned
		}
	}
}

// ascending sorts IDs and drops repeats.
func ascending(ids ...int64) []int64 {
	slices.Sort(ids)
	return slices.Compact(ids)
}

// TestUserMessagesCloneIsIndependent writes a list and its clones at
// random: each keeps exactly its own writes, whatever the others do, and
// clones of clones too; and no list ever holds, writable in place, a
// chunk, block or index another list reaches.
func TestUserMessagesCloneIsIndependent(t *testing.T) {
	for _, size := range []struct{ span, steps int }{{4000, 300}, {4 * chunkBlocks * blockSize, 100}} {
		span := size.span
		t.Run(fmt.Sprint("span=", span), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 6))
			var l userMessages
			m := listModel{}
			for i := 0; i < 300; i++ {
				randomOp(rng, &l, m, span)
			}
			lists := []*userMessages{&l}
			models := []listModel{m}
			for round := 0; round < 6; round++ {
				src := rng.IntN(len(lists))
				c := lists[src].clone()
				lists, models = append(lists, c), append(models, maps.Clone(models[src]))
				for step := 0; step < size.steps; step++ {
					i := rng.IntN(len(lists))
					randomOp(rng, lists[i], models[i], span+span/4)
					if step%25 == 0 {
						checkNothingWritableShared(t, lists)
					}
				}
				for i := range lists {
					models[i].check(t, fmt.Sprintf("round %d list %d", round, i), lists[i])
				}
				checkNothingWritableShared(t, lists)
			}
		})
	}
}

// checkNothingWritableShared fails when a list may write in place (its
// own index, its own chunks, their unshared blocks) memory another list
// reaches: copy-on-write's invariant, which the race detector would only
// catch with both written concurrently.
func checkNothingWritableShared(t *testing.T, lists []*userMessages) {
	t.Helper()
	writer := map[unsafe.Pointer]int{}
	for i, l := range lists {
		if len(l.chunks) > 0 && !l.sharedIndex {
			writer[unsafe.Pointer(unsafe.SliceData(l.chunks))] = i
			writer[unsafe.Pointer(unsafe.SliceData(l.lastID))] = i
		}
		for _, c := range l.chunks {
			if c.owner != l.owner {
				continue
			}
			writer[unsafe.Pointer(c)] = i
			for bi, b := range c.blocks {
				if c.dead[bi]&sharedBit == 0 {
					writer[unsafe.Pointer(unsafe.SliceData(b))] = i
				}
			}
		}
	}
	for i, l := range lists {
		reached := []unsafe.Pointer{unsafe.Pointer(unsafe.SliceData(l.chunks)), unsafe.Pointer(unsafe.SliceData(l.lastID))}
		for _, c := range l.chunks {
			reached = append(reached, unsafe.Pointer(c))
			for _, b := range c.blocks {
				reached = append(reached, unsafe.Pointer(unsafe.SliceData(b)))
			}
		}
		for _, p := range reached {
			if w, ok := writer[p]; ok && w != i && p != nil {
				t.Fatalf("list %d reaches memory list %d may write in place", i, w)
			}
		}
	}
}

// TestCloneCopiesOnlyWhatItWrites checks the sharing itself on a list of
// several chunks: a clone shares the index and every chunk and block;
// each kind of write (replace, append, insert with block split, batch
// flags, single and batch removal, compaction, a chunk emptied) copies
// the index, the chunks it writes and the blocks it writes, nothing
// else, and the other side keeps its entries.
func TestCloneCopiesOnlyWhatItWrites(t *testing.T) {
	const n = 3 * chunkBlocks * blockSize // three full chunks of IDs 4, 8, 12…
	fresh := func() (*userMessages, listModel) {
		l := &userMessages{}
		m := listModel{}
		for id := int64(4); id <= 4*n; id += 4 {
			l.Put(newUserMessage(id, 0))
			m[id] = 0
		}
		return l, m
	}
	// the first ID of block b of chunk c
	at := func(c, b int) int64 { return int64(4 * ((c*chunkBlocks+b)*blockSize + 1)) }
	// stored lists the IDs the fresh list holds in [from, to)
	stored := func(from, to int64) []int64 {
		var ids []int64
		for id := from; id < to; id += 4 {
			ids = append(ids, id)
		}
		return ids
	}
	for _, c := range []struct {
		name string
		// write changes a list; chunks and blocks are how many of the
		// original's chunks and blocks it must stop sharing, and shape
		// the written list's chunk and block count afterwards.
		write          func(l *userMessages)
		chunks, blocks int
		shape          [2]int
	}{
		{"replace", func(l *userMessages) { l.Put(newUserMessage(at(1, 5), message.Read)) }, 1, 1, [2]int{3, 192}},
		{"append to a full list", func(l *userMessages) { l.Put(newUserMessage(4*n+4, 0)) }, 0, 0, [2]int{4, 193}},
		{"insert, splitting a block", func(l *userMessages) {
			for id := at(1, 5) + 1; id < at(1, 5)+400; id++ {
				if id%4 != 0 {
					l.Put(newUserMessage(id, 0)) // 300 new IDs into block 5
				}
			}
		}, 1, 1, [2]int{3, 193}},
		{"batch flags", func(l *userMessages) {
			l.each([]int64{at(0, 1), at(0, 1) + 4, at(2, 63)}, func(um *userMessage) { *um = um.withFlags(message.Starred) })
		}, 2, 2, [2]int{3, 192}},
		{"batch flags on absent IDs", func(l *userMessages) {
			l.each([]int64{at(0, 1) + 1, at(2, 3) + 1}, func(um *userMessage) { *um = um.withFlags(message.Starred) })
		}, 0, 0, [2]int{3, 192}},
		{"delete", func(l *userMessages) { l.Delete(at(2, 0)) }, 1, 1, [2]int{3, 192}},
		{"delete absent", func(l *userMessages) { l.Delete(at(2, 0) + 1) }, 0, 0, [2]int{3, 192}},
		{"scattered batch removal", func(l *userMessages) { l.removeSorted([]int64{at(0, 0), at(1, 0), at(1, 1)}, nil) }, 2, 3, [2]int{3, 192}},
		{"removal compacting a block", func(l *userMessages) { l.removeSorted(stored(at(1, 2), at(1, 2)+4*200), nil) }, 1, 1, [2]int{3, 192}},
		{"removal emptying blocks", func(l *userMessages) { l.DeleteSorted(stored(at(1, 2), at(1, 5))) }, 1, 3, [2]int{3, 189}},
		{"removal emptying a chunk", func(l *userMessages) { l.DeleteSorted(stored(at(1, 0), at(2, 0))) }, 1, chunkBlocks, [2]int{2, 128}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, cloneWrites := range []bool{true, false} {
				orig, m := fresh()
				cl := orig.clone()
				chunksBefore := slices.Clone(orig.chunks)
				written, other := orig, cl
				if cloneWrites {
					written, other = cl, orig
				}
				otherModel := maps.Clone(m)
				c.write(written)
				otherModel.check(t, "the side not written", other)
				if err := written.check(); err != nil {
					t.Fatal(err)
				}
				if blocks, _ := flatBlocks(written); len(written.chunks) != c.shape[0] || len(blocks) != c.shape[1] {
					t.Fatalf("the written list has %d chunks and %d blocks, want %v", len(written.chunks), len(blocks), c.shape)
				}
				if other.sharedIndex != true || !slices.Equal(other.chunks, chunksBefore) {
					t.Fatal("the side not written lost its shared index")
				}
				if got := countUnshared(written, other); got != [2]int{c.chunks, c.blocks} {
					t.Fatalf("(clone writes %v) the write copied %d chunks and %d blocks, want %d and %d", cloneWrites, got[0], got[1], c.chunks, c.blocks)
				}
				checkNothingWritableShared(t, []*userMessages{orig, cl})
			}
		})
	}
}

// countUnshared counts the chunks of other that written no longer
// holds, and the blocks of other that it no longer holds.
func countUnshared(written, other *userMessages) [2]int {
	chunks, blocks := map[*copyChunk]bool{}, map[*userMessage]bool{}
	for _, c := range written.chunks {
		chunks[c] = true
		for _, b := range c.blocks {
			blocks[unsafe.SliceData(b)] = true
		}
	}
	var out [2]int
	for _, c := range other.chunks {
		if !chunks[c] {
			out[0]++
		}
		for _, b := range c.blocks {
			if !blocks[unsafe.SliceData(b)] {
				out[1]++
			}
		}
	}
	return out
}

// TestCloneCostsTheSameAtAnyLength checks that cloning a copy list, an
// ID table and a store allocates the same for a short and a long one.
func TestCloneCostsTheSameAtAnyLength(t *testing.T) {
	build := func(n int) *Store {
		s := New()
		for id := int64(1); id <= int64(n); id++ {
			m := &message.Message{ID: id, Type: message.Channel, ChannelID: 1, Topic: "t", SenderID: 10}
			s.Insert(m, 0)
			s.Deliver(10, m, 0)
			s.Deliver(11, m, message.Read)
		}
		return s
	}
	small, large := build(10), build(3*chunkBlocks*blockSize)
	for name, clone := range map[string]func(s *Store) func(){
		"copy list": func(s *Store) func() { return func() { _ = s.received[10].clone() } },
		"ID table":  func(s *Store) func() { return func() { _ = s.byID.clone() } },
		"store":     func(s *Store) func() { return func() { _ = s.Clone() } },
	} {
		a, b := testing.AllocsPerRun(20, clone(small)), testing.AllocsPerRun(20, clone(large))
		if a != b {
			t.Errorf("%s: a clone allocates %v times at 10 messages, %v at %d", name, a, b, large.Len())
		}
	}
}

// TestIDTableCloneIsIndependent writes an ID table and its clone in turn:
// each sees only its own puts, replacements and deletes (whole pages
// emptied among them), and neither writes a page or page list the other
// reaches.
func TestIDTableCloneIsIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var a idTable
	const span = 6 * pageSize
	for id := int64(1); id < span; id++ {
		a.Put(&message.Message{ID: id})
	}
	b := a.clone()
	tables := []*idTable{&a, &b}
	models := []map[int64]*message.Message{{}, {}}
	a.Ascend(0, func(m *message.Message) bool { models[0][m.ID] = m; models[1][m.ID] = m; return true })
	for step := range 400 {
		i := rng.IntN(2)
		tab, model := tables[i], models[i]
		lo := int64(rng.IntN(span + pageSize))
		switch rng.IntN(3) {
		case 0:
			m := &message.Message{ID: lo}
			tab.Put(m)
			model[lo] = m
		case 1:
			tab.Delete(lo)
			delete(model, lo)
		case 2: // a run, emptying pages
			for id := lo; id < lo+int64(rng.IntN(2*pageSize)); id++ {
				tab.Delete(id)
				delete(model, id)
			}
		}
		for j, tab := range tables {
			got := map[int64]*message.Message{}
			tab.Ascend(0, func(m *message.Message) bool { got[m.ID] = m; return true })
			if !maps.Equal(got, models[j]) || tab.Len() != len(models[j]) {
				t.Fatalf("step %d: table %d holds %d messages (Len %d), want %d", step, j, len(got), tab.Len(), len(models[j]))
			}
		}
		for j, tab := range tables {
			other := tables[1-j]
			if !tab.sharedPages && len(tab.pages) > 0 && unsafe.SliceData(tab.pages) == unsafe.SliceData(other.pages) {
				t.Fatalf("step %d: table %d writes the page list table %d reads", step, j, 1-j)
			}
			for _, p := range other.pages {
				if p != nil && p.owner == tab.owner {
					t.Fatalf("step %d: table %d writes a page of table %d", step, j, 1-j)
				}
			}
		}
	}
}

// dumpStore describes everything a store holds: each index's entries
// (message pointer included) and each user's copies with their flags.
func dumpStore(s *Store) string {
	var b []byte
	entry := func(id int64, p unsafe.Pointer) {
		b = append(b, ' ')
		b = strconv.AppendInt(b, id, 10)
		b = append(b, '@')
		b = strconv.AppendUint(b, uint64(uintptr(p)), 16)
	}
	tree := func(name string, t *idTree) {
		b = append(b, name...)
		b = append(b, ':')
		t.Ascend(func(id int64) bool { b = append(append(b, ' '), strconv.FormatInt(id, 10)...); return true })
		b = append(b, '\n')
	}
	b = append(b, "byID:"...)
	s.byID.Ascend(0, func(m *message.Message) bool { entry(m.ID, unsafe.Pointer(m)); return true })
	b = append(b, '\n')
	for _, k := range slices.Sorted(maps.Keys(s.byChannel)) {
		tree(fmt.Sprint("channel ", k, " stale ", s.byChannel[k].stale), s.byChannel[k].ids)
	}
	for _, k := range slices.Sorted(maps.Keys(s.byConversation)) {
		tree(fmt.Sprint("conversation ", k), s.byConversation[k])
	}
	for _, k := range slices.Sorted(maps.Keys(s.bySender)) {
		tree(fmt.Sprint("sender ", k), s.bySender[k])
	}
	for _, ch := range slices.Sorted(maps.Keys(s.byTopic)) {
		for _, key := range slices.Sorted(maps.Keys(s.byTopic[ch])) {
			tree(fmt.Sprintf("topic %d/%s", ch, key), s.byTopic[ch][key])
		}
	}
	for _, lists := range []map[int]*userMessages{s.received, s.unread} {
		for _, uid := range slices.Sorted(maps.Keys(lists)) {
			b = fmt.Appendf(b, "user %d:", uid)
			lists[uid].Ascend(0, func(um userMessage) bool {
				b = append(b, ' ')
				b = strconv.AppendInt(b, um.id(), 10)
				b = append(b, '/')
				b = strconv.AppendUint(b, uint64(um.flags()), 10)
				return true
			})
			b = append(b, '\n')
		}
	}
	return string(b)
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
		s.Replace([]*message.Message{&moved})
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
