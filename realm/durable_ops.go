package realm

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"strconv"
	"time"

	"github.com/minizulip/minizulip/realm/clock"
)

// Operation records: the mutations a data directory journals as one
// small record each, replayed at the next start through the same method
// at the time they first ran (the realm's clock is pinned to it both
// times). Such an operation must depend on nothing but the realm's state,
// its arguments and the time: no random bytes, no outside call's answer.
// Every other mutation appends a tables record (durable_tables.go).

// opRecord is one journaled operation.
type opRecord struct {
	Op   string `json:"op"`
	User int    `json:"u,omitempty"`
	// T is the time it ran, in nanoseconds since 1970.
	T    int64 `json:"t"`
	Args any   `json:"a,omitempty"`
	// used is set once the record is written: an operation taking the
	// lock twice is snapshotted the second time.
	used bool
	// args is Args in JSON, encoded before the operation takes the
	// realm's lock (encodeArgs), so that the lock is held only to frame
	// the record with its time.
	args    []byte
	argsErr error
	// rewritten is set when the operation changed Args as it ran (a run
	// stopped part way says where): the record is encoded again.
	rewritten bool
}

// rewrite says that the operation changed its Args as it ran; nil (no
// data directory) does nothing.
func (op *opRecord) rewrite() {
	if op != nil {
		op.rewritten = true
	}
}

// maxRewriteGrowth is how much longer a rewritten record may be than the
// record before its operation ran: the room made for it in advance.
const maxRewriteGrowth = 64

// encodeArgs encodes the record's arguments.
func (op *opRecord) encodeArgs() *opRecord {
	if op.Args != nil && op.args == nil && op.argsErr == nil {
		op.args, op.argsErr = json.Marshal(op.Args)
	}
	return op
}

// fresh is an unused copy of op, for one more try of its operation.
func (op *opRecord) fresh() *opRecord {
	c := *op
	c.used = false
	return &c
}

// record is the framed journal record of op run at t (nanoseconds since
// 1970): the JSON object an opReplayed reads.
func (op *opRecord) record(t int64) ([]byte, error) {
	if op.encodeArgs(); op.argsErr != nil {
		return nil, op.argsErr
	}
	b := make([]byte, recordHeaderSize, recordHeaderSize+40+len(op.Op)+len(op.args))
	b = append(b, `{"op":`...)
	b = strconv.AppendQuote(b, op.Op)
	if op.User != 0 {
		b = strconv.AppendInt(append(b, `,"u":`...), int64(op.User), 10)
	}
	b = strconv.AppendInt(append(b, `,"t":`...), t, 10)
	if op.args != nil {
		b = append(append(b, `,"a":`...), op.args...)
	}
	b = append(b, '}')
	payload := b[recordHeaderSize:]
	binary.LittleEndian.PutUint32(b[0:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(b[4:], crc32.Checksum(payload, castagnoli))
	return b, nil
}

// opReplayed is an opRecord as read back.
type opReplayed struct {
	Op   string          `json:"op"`
	User int             `json:"u"`
	T    int64           `json:"t"`
	Args json.RawMessage `json:"a"`
}

// logged returns the actor performing an operation named op with args,
// journaled when the realm has a data directory.
func (a *Actor) logged(op string, args any) *Actor {
	if a.r.dur == nil {
		return a
	}
	return &Actor{r: a.r, id: a.id, op: (&opRecord{Op: op, User: a.id, Args: args}).encodeArgs()}
}

// sendArgs are a send's arguments in its record.
type sendArgs struct {
	SendRequest
	ServiceReply bool `json:"service_reply,omitempty"`
}

// clockArgs are a move of the clock: an offset clock's offset from real
// time, or a manual clock's time.
type clockArgs struct {
	Offset *time.Duration `json:"offset,omitempty"`
	Time   *int64         `json:"time,omitempty"`
}

// replayers replay each operation: they decode the arguments and call the
// method that first ran it.
var replayers = map[string]func(a *Actor, args json.RawMessage) error{
	"send": func(a *Actor, raw json.RawMessage) error {
		var s sendArgs
		if err := json.Unmarshal(raw, &s); err != nil {
			return err
		}
		s.serviceReply = s.ServiceReply
		_, err := a.SendMessage(context.Background(), s.SendRequest)
		return err
	},
	"update_message": replayWith(func(a *Actor, req UpdateMessageRequest) error {
		_, err := a.UpdateMessage(context.Background(), req)
		return err
	}),
	"delete_message": replayWith(func(a *Actor, id int64) error {
		return a.DeleteMessage(context.Background(), id)
	}),
	"add_reaction": replayWith(func(a *Actor, req ReactionRequest) error {
		return a.AddReaction(context.Background(), req)
	}),
	"remove_reaction": replayWith(func(a *Actor, req ReactionRequest) error {
		return a.RemoveReaction(context.Background(), req)
	}),
	"flags": replayWith(func(a *Actor, req FlagsRequest) error {
		_, err := a.UpdateMessageFlags(context.Background(), req)
		return err
	}),
	"flags_narrow": replayWith(func(a *Actor, req FlagsNarrowRequest) error {
		_, err := a.UpdateMessageFlagsForNarrow(context.Background(), req)
		return err
	}),
	"mark_topic_read": replayWith(func(a *Actor, req markTopicArgs) error {
		return a.MarkTopicAsRead(context.Background(), req.ChannelID, req.Topic)
	}),
	"mark_channel_read": replayWith(func(a *Actor, channelID int) error {
		return a.MarkChannelAsRead(context.Background(), channelID)
	}),
	"mark_all_read": replayWith(func(a *Actor, args markAllArgs) error {
		_, err := a.markAllAsRead(context.Background(), args.Batches)
		return err
	}),
	"presence": replayWith(func(a *Actor, req PresenceRequest) error {
		_, err := a.UpdatePresence(context.Background(), req)
		return err
	}),
	tablesOp:       tablesReplayer,
	tablesAddingOp: tablesReplayer,
	"clock": replayWith(func(a *Actor, c clockArgs) error {
		switch base := a.r.baseClock().(type) {
		case *clock.Offset:
			if c.Offset != nil {
				base.Set(time.Now().Add(*c.Offset))
			}
		case clock.Adjustable:
			if c.Time != nil {
				if t := time.Unix(0, *c.Time); t.After(base.Now()) {
					base.Set(t)
				}
			}
		}
		return nil
	}),
}

// markTopicArgs are MarkTopicAsRead's arguments.
type markTopicArgs struct {
	ChannelID int    `json:"channel_id"`
	Topic     string `json:"topic"`
}

// replayWith makes a replayer of a method taking one argument of type T.
func replayWith[T any](fn func(a *Actor, arg T) error) func(*Actor, json.RawMessage) error {
	return func(a *Actor, raw json.RawMessage) error {
		var arg T
		if len(raw) > 0 {
			if err := json.Unmarshal(raw, &arg); err != nil {
				return err
			}
		}
		return fn(a, arg)
	}
}

// replay applies one journaled operation to r at the time it first ran.
func (d *durability) replay(r *Realm, payload []byte) error {
	var op opReplayed
	if err := json.Unmarshal(payload, &op); err != nil {
		return fmt.Errorf("not an operation record: %w", err)
	}
	fn := replayers[op.Op]
	if fn == nil {
		return fmt.Errorf("unknown operation %q (a newer minizulip's journal?)", op.Op)
	}
	d.clk.pin(time.Unix(0, op.T))
	if err := fn(r.As(op.User), op.Args); err != nil {
		return fmt.Errorf("%s as user %d: %w", op.Op, op.User, err)
	}
	return nil
}

// journalClockMove records where the clock was moved to; the caller
// has just moved it.
func (r *Realm) journalClockMove() error {
	if r.dur == nil {
		return nil
	}
	var args clockArgs
	switch c := r.baseClock().(type) {
	case *clock.Offset:
		off := c.Offset()
		args.Offset = &off
	default:
		t := c.Now().UnixNano()
		args.Time = &t
	}
	return r.updateOp(&opRecord{Op: "clock", Args: args}, func() error { return nil })
}

// sendRecord is the journal record of a send.
func (a *Actor) sendRecord(req SendRequest) *opRecord {
	return (&opRecord{Op: "send", User: a.id, Args: sendArgs{SendRequest: req, ServiceReply: req.serviceReply}}).encodeArgs()
}
