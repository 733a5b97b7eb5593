package realm

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"unsafe"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/internal/store"
)

// A snapshot's messages are not in its fixture document, whose load
// renders every message again (a million take tens of seconds): they
// follow it in a binary form holding each message as stored, rendered
// HTML included, then each user's copies with their flags. Integers are
// varints, strings length-prefixed; what only some messages have
// (reactions, submessages, edit and move times) is a JSON object, empty
// for none. Edit histories are in the snapshot's body (Edits).

// messageChanges are a message's rarer fields in the binary form.
type messageChanges struct {
	Reactions   []message.Reaction   `json:"r,omitempty"`
	Submessages []message.Submessage `json:"s,omitempty"`
	LastEditTS  int64                `json:"e,omitempty"`
	LastMovedTS int64                `json:"m,omitempty"`
}

// encodeMessages writes r's messages and copies in the binary form; the
// caller holds r's lock.
func (r *Realm) encodeMessages() ([]byte, error) { return r.encodeMessagesFrom(0) }

// encodedMessageBound is more than the binary form of a message holds
// but its strings, its DM users and its rarer fields: the fixed fields'
// varints and the strings' lengths, and a few holders' copies.
const encodedMessageBound = 96

// encodeMessagesFrom writes r's messages of IDs from from on, and their
// copies, in the binary form. Its buffer is allocated once, as large as
// the messages' sizes say (a buffer grown from small would copy a large
// realm's several times over, holding the realm's lock).
func (r *Realm) encodeMessagesFrom(from int64) ([]byte, error) {
	var err error
	count, size := 0, 64
	r.messages.store.All().Up(from, func(m *message.Message) bool {
		count++
		size += encodedMessageBound + len(m.Topic) + len(m.Content) + len(m.Rendered) + len(m.Client) + 10*len(m.DMUserIDs)
		return true
	})
	b := make([]byte, 0, size)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, uint64(count))
	r.messages.store.All().Up(from, func(m *message.Message) bool {
		b = binary.AppendVarint(b, m.ID)
		b = append(b, byte(m.Type))
		b = binary.AppendVarint(b, int64(m.SenderID))
		b = binary.AppendVarint(b, int64(m.ChannelID))
		b = binary.AppendVarint(b, int64(m.RecipientID))
		b = binary.AppendVarint(b, m.Timestamp)
		str(m.Topic)
		b = binary.AppendUvarint(b, uint64(len(m.DMUserIDs)))
		for _, id := range m.DMUserIDs {
			b = binary.AppendVarint(b, int64(id))
		}
		conv := 0
		if m.Type == message.Direct {
			if c := r.recipients.conversations[conversationKey(m.DMUserIDs)]; c != nil {
				conv = c.id
			}
		}
		b = binary.AppendVarint(b, int64(conv))
		str(m.Content)
		str(m.Rendered)
		str(m.Client)
		var facts byte
		for i, f := range []bool{m.IsMeMessage, m.HasLink, m.HasImage, m.HasAttachment} {
			if f {
				facts |= 1 << i
			}
		}
		b = append(b, facts)
		c := m.Changes()
		mc := messageChanges{Reactions: c.Reactions, Submessages: c.Submessages, LastEditTS: c.LastEditTS, LastMovedTS: c.LastMovedTS}
		if len(mc.Reactions) == 0 && len(mc.Submessages) == 0 && mc.LastEditTS == 0 && mc.LastMovedTS == 0 {
			str("")
			return true
		}
		j, jerr := json.Marshal(mc)
		if jerr != nil {
			err = jerr
			return false
		}
		str(string(j))
		return true
	})
	if err != nil {
		return nil, err
	}
	// The users holding copies: those holding none are left out. Each
	// user's copies are counted first and then written, not gathered.
	type holder struct{ id, copies int }
	var holders []holder
	for _, u := range r.users.sorted() {
		n := 0
		r.messages.store.Copies(u.ID, from, func(store.Copy) bool {
			n++
			return true
		})
		if n > 0 {
			holders = append(holders, holder{u.ID, n})
		}
	}
	b = binary.AppendUvarint(b, uint64(len(holders)))
	for _, h := range holders {
		b = binary.AppendVarint(b, int64(h.id))
		b = binary.AppendUvarint(b, uint64(h.copies))
		var last int64
		r.messages.store.Copies(h.id, from, func(c store.Copy) bool {
			b = binary.AppendVarint(b, c.Message.ID-last)
			b = binary.AppendUvarint(b, uint64(c.Flags))
			last = c.Message.ID
			return true
		})
	}
	return b, nil
}

// errShortMessages refuses a binary form that ends too soon.
var errShortMessages = errors.New("snapshot messages: truncated")

// messageReader reads the binary form. Its strings share the form's
// bytes (all, which the reader never changes, and then keeps only as
// long as a message does), so a million messages cost no million copies.
type messageReader struct {
	b   []byte
	err error
}

func (m *messageReader) varint() int64 {
	v, n := binary.Varint(m.b)
	if n <= 0 {
		m.err, m.b = errShortMessages, nil
		return 0
	}
	m.b = m.b[n:]
	return v
}

func (m *messageReader) uvarint() uint64 {
	v, n := binary.Uvarint(m.b)
	if n <= 0 {
		m.err, m.b = errShortMessages, nil
		return 0
	}
	m.b = m.b[n:]
	return v
}

func (m *messageReader) byte() byte {
	if len(m.b) == 0 {
		m.err = errShortMessages
		return 0
	}
	c := m.b[0]
	m.b = m.b[1:]
	return c
}

func (m *messageReader) str() string {
	n := m.uvarint()
	if uint64(len(m.b)) < n {
		m.err, m.b = errShortMessages, nil
		return ""
	}
	if n == 0 {
		return ""
	}
	s := unsafe.String(&m.b[0], n)
	m.b = m.b[n:]
	return s
}

// loadBinary stores the messages and copies of the binary form b, as
// they were, after those t holds (none, or those a tables record keeps:
// durable_tables.go); the caller holds the write lock of a realm being
// loaded.
func (t *messageTable) loadBinary(r *Realm, b []byte) error {
	in := &messageReader{b: b}
	count := in.uvarint()
	last := t.nextID - 1
	n := min(count, uint64(len(b)/8)) // a message takes 8 bytes or more
	msgs, convs := make([]*message.Message, 0, n), make([]int, 0, n)
	for i := uint64(0); i < count && in.err == nil; i++ {
		m := &message.Message{ID: in.varint(), Type: message.Type(in.byte())}
		m.SenderID, m.ChannelID, m.RecipientID = int(in.varint()), int(in.varint()), int(in.varint())
		m.Timestamp, m.Topic = in.varint(), in.str()
		if n := in.uvarint(); n > 0 && n <= uint64(len(in.b)) {
			m.DMUserIDs = make([]int, n)
			for j := range m.DMUserIDs {
				m.DMUserIDs[j] = int(in.varint())
			}
		}
		conv := int(in.varint())
		m.Content, m.Rendered, m.Client = in.str(), in.str(), in.str()
		facts := in.byte()
		m.IsMeMessage, m.HasLink, m.HasImage, m.HasAttachment = facts&1 != 0, facts&2 != 0, facts&4 != 0, facts&8 != 0
		if j := in.str(); j != "" {
			var mc messageChanges
			if err := json.Unmarshal([]byte(j), &mc); err != nil {
				return fmt.Errorf("snapshot message %d: %w", m.ID, err)
			}
			m.SetChanges(message.Changes{Reactions: mc.Reactions, Submessages: mc.Submessages, LastEditTS: mc.LastEditTS, LastMovedTS: mc.LastMovedTS})
			for _, s := range mc.Submessages {
				t.lastSubmessageID = max(t.lastSubmessageID, s.ID)
			}
		}
		if in.err != nil {
			break
		}
		if m.ID <= last {
			return fmt.Errorf("snapshot messages: message %d after %d", m.ID, last)
		}
		last = m.ID
		if m.Type == message.Direct {
			c := r.conversationFor(slices.Clone(m.DMUserIDs))
			m.DMUserIDs = c.userIDs
			if conv == 0 {
				conv = c.id
			}
		}
		msgs, convs = append(msgs, m), append(convs, conv)
	}
	t.store.InsertAscending(msgs, convs)
	users := in.uvarint()
	for i := uint64(0); i < users && in.err == nil; i++ {
		uid, n := int(in.varint()), in.uvarint()
		var id int64
		for j := uint64(0); j < n && in.err == nil; j++ {
			id += in.varint()
			flags := message.Flags(in.uvarint())
			m, ok := t.store.Message(id)
			if !ok {
				return fmt.Errorf("snapshot messages: user %d holds a copy of message %d, which is not there", uid, id)
			}
			t.store.Deliver(uid, m, flags)
		}
	}
	if in.err != nil {
		return in.err
	}
	if len(in.b) != 0 {
		return fmt.Errorf("snapshot messages: %d bytes after the end", len(in.b))
	}
	t.nextID = max(t.nextID, last+1)
	return nil
}
