package store

import (
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/message"
)

// bigStoreSize spans several chunks of every user's copy lists.
const bigStoreSize = 2*chunkBlocks*blockSize + 300

// bigStore holds bigStoreSize channel messages over two channels and
// three topics: user 10 holds every one (odd IDs unread), user 11 every
// other one (all unread), user 12 none.
func bigStore() *Store {
	s := New()
	for id := int64(1); id <= bigStoreSize; id++ {
		m := &message.Message{ID: id, Type: message.Channel, ChannelID: 1 + int(id%2), Topic: fmt.Sprint("topic ", id%3), SenderID: 10 + int(id%2)}
		s.Insert(m, 0)
		s.Deliver(10, m, message.Flags(id%2^1)*message.Read)
		if id%2 == 0 {
			s.Deliver(11, m, 0)
		}
	}
	return s
}

// idRange lists the IDs from..to, inclusive.
func idRange(from, to int64) []int64 {
	var ids []int64
	for id := from; id <= to; id++ {
		ids = append(ids, id)
	}
	return ids
}

// messagesOf returns the stored messages among ids.
func messagesOf(s *Store, ids ...int64) []*message.Message {
	var out []*message.Message
	for _, id := range ids {
		if m, ok := s.Message(id); ok {
			out = append(out, m)
		}
	}
	return out
}

// storeWrites are the store's write paths, on messages spread over every
// chunk of the copy lists: each must leave a clone of the store, either
// way, as it was.
var storeWrites = map[string]func(s *Store){
	"send: insert and deliver": func(s *Store) {
		m := &message.Message{ID: bigStoreSize + 1, Type: message.Channel, ChannelID: 1, Topic: "new", SenderID: 10}
		s.Insert(m, 0)
		s.Deliver(10, m, 0)
		s.Deliver(11, m, message.Read)
	},
	"deliver an old message": func(s *Store) {
		for _, m := range messagesOf(s, 1, blockSize+1, chunkBlocks*blockSize+7) {
			s.Deliver(11, m, message.Historical) // odd IDs: 11 had no copy
		}
	},
	"set flags": func(s *Store) {
		s.SetFlags(10, 3, message.Read|message.Starred)            // unread -> read
		s.SetFlags(10, chunkBlocks*blockSize+2, 0)                 // read -> unread
		s.SetFlags(11, 2*chunkBlocks*blockSize, message.Collapsed) // unread stays
		s.SetFlags(12, 5, message.Read)                            // no copy
	},
	"mark read in a batch": func(s *Store) { s.SetFlag(10, idRange(100, chunkBlocks*blockSize+100), message.Read, true) },
	"mark unread in a batch": func(s *Store) {
		s.SetFlag(10, idRange(bigStoreSize-3*blockSize, bigStoreSize), message.Read, false)
	},
	"star in a batch": func(s *Store) { s.SetFlag(10, idRange(1, bigStoreSize), message.Starred, true) },
	"remove one": func(s *Store) {
		for _, m := range messagesOf(s, chunkBlocks*blockSize) {
			s.Remove(m, 0)
		}
	},
	"remove many, emptying blocks and chunks": func(s *Store) {
		s.RemoveMany(messagesOf(s, idRange(blockSize, 2*chunkBlocks*blockSize)...), nil)
	},
	"undeliver scattered": func(s *Store) {
		var ids []int64
		for id := int64(2); id < bigStoreSize; id += 2 * 37 {
			ids = append(ids, id)
		}
		s.Undeliver(11, ids)
	},
	"move, replacing the moved messages": func(s *Store) {
		var moved []*message.Message
		for _, m := range messagesOf(s, 3, 9, chunkBlocks*blockSize+3) { // topic 0 of channel 2
			c := *m
			moved = append(moved, &c)
		}
		s.Replace(moved)
		s.Move(moved, 1, "moved", 77)
	},
}

// TestStoreCloneEveryWritePath writes a store of several chunks per copy
// list in each of the store's ways, once on the original and once on its
// clone: the other side keeps its state exactly, the written side has
// changed, and both pass Verify.
func TestStoreCloneEveryWritePath(t *testing.T) {
	base := bigStore()
	users := []int{10, 11, 12}
	conv := func(*message.Message) int { return 0 }
	for name, write := range storeWrites {
		t.Run(name, func(t *testing.T) {
			for _, cloneWrites := range []bool{false, true} {
				orig := base.Clone() // base itself stays for the next case
				clone := orig.Clone()
				written, other := orig, clone
				if cloneWrites {
					written, other = clone, orig
				}
				before := dumpStore(other)
				write(written)
				if got := dumpStore(other); got != before {
					t.Fatalf("(clone writes: %v) the other side changed:\n%s", cloneWrites, cmp.Diff(before, got))
				}
				if dumpStore(written) == before {
					t.Fatalf("(clone writes: %v) the write changed nothing", cloneWrites)
				}
				for side, s := range map[string]*Store{"written": written, "other": other} {
					if err := s.Verify(conv, users); err != nil {
						t.Fatalf("(clone writes: %v) %s side: %v", cloneWrites, side, err)
					}
				}
			}
		})
	}
}

// TestClonesWriteWhileOthersRead writes a clone in every way while
// another goroutine reads the store it was cloned from, and the other way
// round: under the race detector, a write to anything the two share
// fails the test.
func TestClonesWriteWhileOthersRead(t *testing.T) {
	base := bigStore()
	read := func(s *Store) int {
		n := 0
		for _, uid := range []int{10, 11} {
			s.Copies(uid, 0, func(c Copy) bool { n += int(c.Flags); return true })
			s.UnreadCopies(uid, func(Copy) bool { n++; return true })
			s.CopiesDescending(uid, bigStoreSize, func(Copy) bool { n++; return true })
		}
		s.All().Up(0, func(m *message.Message) bool { n += len(m.Topic); return true })
		return n
	}
	for _, readOriginal := range []bool{true, false} {
		orig := base.Clone()
		clone := orig.Clone()
		reader, writer := orig, clone
		if !readOriginal {
			reader, writer = clone, orig
		}
		want := read(reader)
		var wg sync.WaitGroup
		wg.Add(1)
		var got int
		go func() {
			defer wg.Done()
			got = read(reader)
		}()
		for _, write := range storeWrites {
			write(writer)
		}
		wg.Wait()
		if got != want {
			t.Fatalf("(reading the original: %v) the reader saw %d, then %d", readOriginal, want, got)
		}
	}
}
