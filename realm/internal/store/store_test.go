package store

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/message"
)

// collect lists a scan's message IDs: up from `from` and down below `below`.
func collect(sc Scan, from, below int64) (up, down []int64) {
	sc.Up(from, func(m *message.Message) bool { up = append(up, m.ID); return true })
	sc.Down(below, func(m *message.Message) bool { down = append(down, m.ID); return true })
	return up, down
}

// fixture: channel 1 topics "Castle"/"castle"/"moat", channel 2, and a
// direct-message conversation 7 between users 10 and 11.
func fixture(t *testing.T) (*Store, map[int64]*message.Message) {
	t.Helper()
	s := New()
	msgs := map[int64]*message.Message{}
	add := func(m *message.Message, conv int, holders ...int) {
		msgs[m.ID] = m
		s.Insert(m, conv)
		for _, uid := range holders {
			s.Deliver(uid, m, 0)
		}
	}
	add(&message.Message{ID: 1, Type: message.Channel, ChannelID: 1, Topic: "Castle", SenderID: 10}, 0, 10, 11)
	add(&message.Message{ID: 2, Type: message.Channel, ChannelID: 1, Topic: "moat", SenderID: 11}, 0, 10, 11)
	add(&message.Message{ID: 3, Type: message.Direct, SenderID: 10, DMUserIDs: []int{10, 11}}, 7, 10, 11)
	add(&message.Message{ID: 4, Type: message.Channel, ChannelID: 2, Topic: "castle", SenderID: 10}, 0, 10)
	add(&message.Message{ID: 5, Type: message.Channel, ChannelID: 1, Topic: "castle", SenderID: 11}, 0, 11)
	return s, msgs
}

func TestScansWalkTheirIndex(t *testing.T) {
	s, _ := fixture(t)
	for name, c := range map[string]struct {
		sc       Scan
		up, down []int64
	}{
		"all":          {s.All(), []int64{2, 3, 4, 5}, []int64{4, 3, 2, 1}},
		"topic":        {s.Topic(1, "CASTLE"), []int64{5}, []int64{1}}, // case-insensitive, channel 1 only
		"channel":      {s.Channel(1), []int64{2, 5}, []int64{2, 1}},
		"conversation": {s.Conversation(7), []int64{3}, []int64{3}},
		"sender":       {s.Sender(10), []int64{3, 4}, []int64{4, 3, 1}},
		"received":     {s.Received(11), []int64{2, 3, 5}, []int64{3, 2, 1}},
		"empty":        {Empty(), nil, nil},
	} {
		up, down := collect(c.sc, 2, 5)
		if diff := cmp.Diff(c.up, up); diff != "" {
			t.Errorf("%s up from 2 (-want +got):\n%s", name, diff)
		}
		if diff := cmp.Diff(c.down, down); diff != "" {
			t.Errorf("%s down below 5 (-want +got):\n%s", name, diff)
		}
	}
}

func TestFlagsKeepTheUnreadSetInStep(t *testing.T) {
	s, _ := fixture(t)
	unread := func() []int64 { up, _ := collect(s.Unread(10), 0, 0); return up }
	if diff := cmp.Diff([]int64{1, 2, 3, 4}, unread()); diff != "" {
		t.Fatal(diff)
	}
	if !s.SetFlags(10, 2, message.Read|message.Starred) || s.SetFlags(10, 5, message.Read) {
		t.Fatal("SetFlags reports whether the user holds a copy")
	}
	if diff := cmp.Diff([]int64{1, 3, 4}, unread()); diff != "" {
		t.Fatalf("after read: %s", diff)
	}
	s.SetFlags(10, 2, message.Starred) // unread again
	if c, ok := s.Copy(10, 2); !ok || c.Flags != message.Starred || c.Message.ID != 2 {
		t.Fatalf("copy %+v %v", c, ok)
	}
	var starred []int64
	s.Copies(10, 0, func(c Copy) bool {
		if c.Flags&message.Starred != 0 {
			starred = append(starred, c.Message.ID)
		}
		return true
	})
	if diff := cmp.Diff([]int64{2}, starred); diff != "" {
		t.Fatal(diff)
	}
	var unreadFlags []message.Flags
	s.UnreadCopies(10, func(c Copy) bool { unreadFlags = append(unreadFlags, c.Flags); return true })
	if diff := cmp.Diff([]message.Flags{0, message.Starred, 0, 0}, unreadFlags); diff != "" {
		t.Fatalf("unread copies carry current flags: %s", diff)
	}
	if id, ok := s.NewestCopyID(10); !ok || id != 4 {
		t.Fatalf("newest copy %d %v", id, ok)
	}
	if _, ok := s.NewestCopyID(99); ok {
		t.Fatal("a user with no copies has no newest")
	}
}

func TestRemoveTakesEveryIndexAndCopy(t *testing.T) {
	s, msgs := fixture(t)
	holders := s.Remove(msgs[1], 0)
	if diff := cmp.Diff([]int{10, 11}, holders); diff != "" {
		t.Fatalf("holders: %s", diff)
	}
	if _, ok := s.Message(1); ok || s.Len() != 4 || s.HasCopy(10, 1) || s.HasCopy(11, 1) {
		t.Fatal("message 1 still stored")
	}
	for name, sc := range map[string]Scan{"topic": s.Topic(1, "castle"), "channel": s.Channel(1), "sender": s.Sender(10), "unread": s.Unread(10)} {
		if _, down := collect(sc, 0, 2); len(down) != 0 {
			t.Errorf("%s still lists message 1", name)
		}
	}
	if h := s.Remove(msgs[3], 7); len(h) != 2 {
		t.Fatalf("direct message holders %v", h)
	}
	if up, _ := collect(s.Conversation(7), 0, 0); len(up) != 0 {
		t.Fatal("conversation index still lists message 3")
	}
}

// TestSetFlagMatchesSetFlags checks the batch flag change against
// SetFlags applied message by message: the same copies, flags and unread
// list, for read and for another flag, on and off.
func TestSetFlagMatchesSetFlags(t *testing.T) {
	build := func() *Store {
		s := New()
		for id := int64(1); id <= 2000; id++ {
			m := &message.Message{ID: id, Type: message.Channel, ChannelID: 1, Topic: "t", SenderID: 10}
			s.Insert(m, 0)
			var f message.Flags
			if id%3 == 0 {
				f = message.Read
			}
			if id%7 == 0 {
				f |= message.Starred
			}
			if id%11 != 0 { // user 10 misses some messages
				s.Deliver(10, m, f)
			}
		}
		return s
	}
	snapshot := func(s *Store) (copies []Copy, unread []Copy) {
		s.Copies(10, 0, func(c Copy) bool { copies = append(copies, c); return true })
		s.UnreadCopies(10, func(c Copy) bool { unread = append(unread, c); return true })
		return copies, unread
	}
	var ids []int64
	for id := int64(0); id <= 2005; id++ {
		if id%2 == 0 || (id > 500 && id < 1400) {
			ids = append(ids, id)
		}
	}
	for _, flag := range []message.Flags{message.Read, message.Starred} {
		for _, on := range []bool{true, false} {
			batch, single := build(), build()
			batch.SetFlag(10, ids, flag, on)
			for _, id := range ids {
				if c, ok := single.Copy(10, id); ok {
					f := c.Flags | flag
					if !on {
						f = c.Flags &^ flag
					}
					single.SetFlags(10, id, f)
				}
			}
			gc, gu := snapshot(batch)
			wc, wu := snapshot(single)
			if diff := cmp.Diff(wc, gc, cmp.AllowUnexported(message.Message{})); diff != "" {
				t.Errorf("flag %v on=%v: copies differ:\n%s", flag.Names(), on, diff)
			}
			if diff := cmp.Diff(wu, gu, cmp.AllowUnexported(message.Message{})); diff != "" {
				t.Errorf("flag %v on=%v: unread lists differ:\n%s", flag.Names(), on, diff)
			}
		}
	}
	s := build()
	s.SetFlag(99, ids, message.Read, true) // a user without copies: nothing to do
	if s.HasCopy(99, 2) {
		t.Fatal("SetFlag created a copy")
	}
}

// TestInsertSharesTopicAndClientStrings checks that messages of one topic
// and client share the name strings, and that a differently spelled
// topic name or an unseen client keeps its own.
func TestInsertSharesTopicAndClientStrings(t *testing.T) {
	s := New()
	add := func(id int64, topicName, client string) *message.Message {
		m := &message.Message{ID: id, Type: message.Channel, ChannelID: 1,
			Topic: strings.Clone(topicName), Client: strings.Clone(client)}
		s.Insert(m, 0)
		return m
	}
	same := func(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }
	first, second := add(1, "castle", "website"), add(2, "castle", "website")
	if !same(first.Topic, second.Topic) || !same(first.Client, second.Client) {
		t.Fatal("a topic's messages and a client's messages share their name strings")
	}
	upper := add(3, "Castle", "ZulipMobile")
	if upper.Topic != "Castle" || upper.Client != "ZulipMobile" || same(upper.Client, first.Client) {
		t.Fatalf("other spellings keep their own: %q %q", upper.Topic, upper.Client)
	}
	if up, _ := collect(s.Topic(1, "castle"), 0, 0); !cmp.Equal(up, []int64{1, 2, 3}) {
		t.Fatalf("topic %v", up)
	}
	// The client table is bounded; names past it are stored as they come.
	for i := range maxClientNames {
		s.internClient(fmt.Sprintf("client %d", i))
	}
	if n := len(s.clients); n != maxClientNames {
		t.Fatalf("%d client names interned, want the bound %d", n, maxClientNames)
	}
	late := add(4, "castle", "late client")
	if late.Client != "late client" || len(s.clients) != maxClientNames {
		t.Fatal("a client past the bound is stored as given, not interned")
	}
}
