package realm

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/internal/eventq"
)

// Event is one change as a client receives it: an ID within its queue, the
// event type, and the typed payload. Payload is one of the *Event types of
// this package (MessageEvent, UserTopicEvent, …); every client sees the
// same payload value, so it must not be modified.
type Event struct {
	ID      int
	Type    string
	Payload EventPayload
	// wire, below the newest gated feature level, leaves out the fields
	// newer than the realm's level when the event is encoded.
	wire *wireFilter
}

// MarshalJSON encodes the event as Zulip sends it: the payload's fields
// plus "type" and "id".
func (e Event) MarshalJSON() ([]byte, error) {
	body, err := json.Marshal(e.Payload)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(`{"id":`)
	b.WriteString(strconv.Itoa(e.ID))
	b.WriteString(`,"type":`)
	t, _ := json.Marshal(e.Type)
	b.Write(t)
	if inner := bytes.TrimSpace(body); len(inner) > 2 {
		b.WriteByte(',')
		b.Write(inner[1 : len(inner)-1])
	}
	b.WriteByte('}')
	if e.wire != nil {
		if edits := e.wire.eventEdits(e.Type, body); len(edits) > 0 {
			return applyWireEdits(b.Bytes(), edits)
		}
	}
	return b.Bytes(), nil
}

// change is one event built by a mutation and shared by every queue that
// receives it. Per-recipient parts (a message's flags, the sender's
// local_message_id, the rendering a queue asked for) are applied when a
// queue's copy is read.
type change struct {
	typ     string
	payload EventPayload // the payload for every recipient, when the same for all
	// per-queue payload builders, for events whose shape depends on the
	// queue's options (message events).
	msg *messageChange
	// filter, when set, decides per queue whether it receives the change.
	filter func(q *Queue) bool
}

// messageChange holds the variants of a message event's message object:
// one per combination of the options that change its encoding. Fan-out
// fills a variant (under the event hub's lock) before it queues the first
// entry that uses it, and never changes it after, so polls read variants
// without a lock of their own.
type messageChange struct {
	variants [viewKeys]*Message
	m        *message.Message
	queueID  string // the sender's queue, which gets local_message_id
	localID  string
}

// viewKey is the part of a queue's options that changes a message object,
// as bits: apply_markdown, a null avatar_url, and the empty topic's name.
type viewKey uint8

const (
	keyApplyMarkdown viewKey = 1 << iota
	keyNullAvatar
	keyEmptyTopic
	// keyHiddenSender: the recipient may not access the sender, shown
	// as "Unknown user" (user_access.go).
	keyHiddenSender
	viewKeys = 1 << iota // the number of distinct keys
)

// newViewKey packs the three options.
func newViewKey(applyMarkdown, nullAvatar, emptyTopic bool) viewKey {
	var k viewKey
	if applyMarkdown {
		k |= keyApplyMarkdown
	}
	if nullAvatar {
		k |= keyNullAvatar
	}
	if emptyTopic {
		k |= keyEmptyTopic
	}
	return k
}

// options unpacks the key into the view options it stands for.
func (k viewKey) options() ViewOptions {
	return ViewOptions{ApplyMarkdown: k&keyApplyMarkdown != 0, ClientGravatar: k&keyNullAvatar != 0, AllowEmptyTopicName: k&keyEmptyTopic != 0}
}

// queued is a change in one queue: the shared change and what is the
// recipient's own (its flags, the message variant it gets).
type queued struct {
	c     *change
	flags message.Flags
	key   viewKey // message events: which variant this queue gets
}

// clientEvent materializes a pending change as the client of queue
// queueID receives it.
func clientEvent(p eventq.Pending[queued], queueID string, splitWildcard bool) Event {
	qe := p.Entry
	if qe.c == nil { // a heartbeat
		return Event{ID: p.ID, Type: p.Type, Payload: HeartbeatEvent{}}
	}
	ev := Event{ID: p.ID, Type: qe.c.typ, Payload: qe.c.payload}
	if mc := qe.c.msg; mc != nil {
		me := &MessageEvent{Message: *mc.variants[qe.key], Flags: flagNames(qe.flags, splitWildcard)}
		if mc.queueID == queueID && mc.localID != "" {
			me.LocalMessageID = mc.localID
		}
		ev.Payload = me
	}
	return ev
}

// MessageEvent is a new message: the message object (without flags) and
// the recipient's flags.
type MessageEvent struct {
	Message        Message  `json:"message"`
	Flags          []string `json:"flags"`
	LocalMessageID string   `json:"local_message_id,omitempty"`
}

// HeartbeatEvent keeps a long poll alive.
type HeartbeatEvent struct{}
