package realm

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/clock"
	"github.com/minizulip/minizulip/realm/internal/eventq"
	"github.com/minizulip/minizulip/user"
)

// Event-queue defaults, as a Zulip server has them.
const (
	DefaultQueueLifespan  = 600 * time.Second
	MaxQueueLifespan      = 7 * 24 * time.Hour
	DefaultMaxQueueEvents = 10000
	// DefaultMaxQueuesPerUser bounds one user's queues. Zulip sets no such
	// cap (its request rate limit bounds registrations instead); a fake
	// whose test suites register without deleting would otherwise keep
	// every queue for ten minutes, so the oldest go first past this many.
	DefaultMaxQueuesPerUser = 100
)

// newEventHub makes the realm's queues, on the realm's clock.
func newEventHub(c clock.Clock, maxEvents, maxPerUser int) *eventHub {
	h := eventq.NewHub[queueConfig, queued](eventq.Clock{
		Now:       c.Now,
		AfterFunc: func(d time.Duration, f func()) func() bool { return c.AfterFunc(d, f).Stop },
	}, maxEvents)
	h.SetMaxPerUser(maxPerUser)
	return h
}

// emit delivers a change with one payload for all to the queues of the
// given users. The caller holds the realm's write lock.
func (r *Realm) emit(typ string, payload EventPayload, userIDs ...int) {
	r.emitChange(&change{typ: typ, payload: payload}, userIDs)
}

// emitChange delivers c to the queues of userIDs that want it.
func (r *Realm) emitChange(c *change, userIDs []int) {
	if !r.eventAtLevel(c.typ, c.payload) {
		return
	}
	if ev, ok := c.payload.(RealmUserUpdateEvent); ok {
		// A user's changes reach only those who may access the user (a
		// deactivation's audience is its own: emitDeactivationByAccess).
		if id, ok := ev.Person["user_id"].(int); ok && ev.Person["is_active"] != false {
			userIDs = r.withAccessTo(r.users.byID[id], userIDs)
		}
	}
	if c.payload != nil {
		p, ok := r.wirePayload(c.payload)
		if !ok {
			return
		}
		c.payload = p
	}
	r.events.Publish(userIDs, c.typ, func(q *Queue, _ int) (queued, bool) {
		return queued{c: c}, c.filter == nil || c.filter(q)
	})
}

// messageRecipient is one user receiving a message event, with their flags.
type messageRecipient struct {
	userID int
	flags  message.Flags
}

// emitMessage delivers a message event built once: the message object is
// made once per encoding variant that the receiving queues need. Every
// queue's narrow is applied, and queues registered with all_public_streams
// also get messages of public channels their users did not receive.
func (r *Realm) emitMessage(m *message.Message, recipients []messageRecipient, queueID, localID string) {
	if r.events.Empty() {
		return
	}
	mc := &messageChange{m: m, queueID: queueID, localID: localID}
	c := &change{typ: "message", msg: mc}
	sender := r.users.byID[m.SenderID]
	entry := func(q *Queue, flags message.Flags) (queued, bool) {
		cfg := q.Config()
		if cfg.narrow != nil && !cfg.narrow(m) {
			return queued{}, false
		}
		viewer := r.users.byID[q.UserID()]
		key := newViewKey(cfg.opts.ApplyMarkdown, r.avatarIsNull(viewer, sender, cfg.opts.ClientGravatar),
			cfg.opts.Capabilities.EmptyTopicName)
		if !r.canAccessUser(viewer, sender) {
			key |= keyHiddenSender
		}
		if mc.variants[key] == nil {
			v := r.messageView(viewer, m, 0, false, key.options())
			mc.variants[key] = &v
		}
		return queued{c: c, flags: flags, key: key}, true
	}
	r.events.PublishN(len(recipients), func(i int) int { return recipients[i].userID }, "message",
		func(q *Queue, i int) (queued, bool) { return entry(q, recipients[i].flags) })
	if ch := r.channels.byID[m.ChannelID]; m.Type == message.Channel && ch != nil && !ch.InviteOnly {
		r.events.PublishAll("message", func(q *Queue) (queued, bool) {
			if !q.Config().opts.AllPublicStreams || slices.ContainsFunc(recipients, func(rc messageRecipient) bool { return rc.userID == q.UserID() }) {
				return queued{}, false
			}
			// Access is checked where data leaves the engine: a queue's
			// options never grant what its user may not read.
			if !r.historyReadableBy(ch, q.UserID()) {
				return queued{}, false
			}
			return entry(q, 0)
		})
	}
}

// RegisterQueue creates an event queue for the actor without fetching any
// state; Register (POST /register) builds on it.
func (a *Actor) RegisterQueue(ctx context.Context, opts QueueOptions) (ans *Queue, err error) {
	r := a.r
	err = a.read(ctx, func(me *user.User) (err error) {
		ans, err = r.newQueue(me, opts)
		return err
	})
	return ans, err
}

// newQueue creates and stores a queue; the caller holds the realm lock (at
// least for reading), so no change can fall between a state snapshot taken
// under the same lock and the queue's start.
func (r *Realm) newQueue(me *user.User, opts QueueOptions) (*Queue, error) {
	if opts.AllPublicStreams && me.IsGuest() {
		// Zulip's answer: guests may not read every public channel.
		return nil, BadRequest("User not authorized for this query")
	}
	opts.Capabilities = r.capabilitiesAtLevel(opts.Capabilities)
	narrow, err := r.compileEventNarrow(me, opts.Narrow)
	if err != nil {
		return nil, err
	}
	lifespan := queueLifespan(opts)
	cfg := queueConfig{opts: opts, narrow: narrow,
		legacyMutedTopics: opts.EventTypes == nil || !slices.Contains(opts.EventTypes, "user_topic")}
	return r.events.Add(eventq.Options[queueConfig]{UserID: me.ID, Config: cfg, Types: opts.EventTypes, Lifespan: lifespan}), nil
}

// compileEventNarrow turns register's narrow into a message filter.
func (r *Realm) compileEventNarrow(me *user.User, terms []message.Term) (func(*message.Message) bool, error) {
	if len(terms) == 0 {
		return nil, nil
	}
	var preds []func(*message.Message) bool
	scratch := &narrowQuery{}
	for _, t := range terms {
		t.Operator = message.CanonicalOperator(t.Operator)
		pred, err := r.compileTerm(me, scratch, t)
		if err != nil {
			return nil, err
		}
		preds = append(preds, pred)
	}
	// Predicates read realm state; they run under the realm lock at emit.
	return func(m *message.Message) bool {
		for _, p := range preds {
			if !p(m) {
				return false
			}
		}
		return true
	}, nil
}

// GetEventsRequest is one poll of GET /events.
type GetEventsRequest struct {
	QueueID string
	// LastEventID acknowledges the events up to it; -1 acknowledges none.
	LastEventID int
	// DontBlock answers at once, even with no events.
	DontBlock bool
}

// Events answers GET /events: it acknowledges events up to
// LastEventID and returns the rest, waiting for one when there is none
// and DontBlock is false. A wait ends with a heartbeat after the realm's
// heartbeat interval, on the realm's clock.
func (a *Actor) Events(ctx context.Context, req GetEventsRequest) ([]Event, error) {
	p, err := a.PollEvents(ctx, req)
	return p.Events, err
}

// EventsPoll is the answer of a poll: the events, and the queue's ID when
// the poll waited, as Zulip names the queue in every answer it gives a
// waiting poll.
type EventsPoll struct {
	Events  []Event
	QueueID string
}

// PollEvents is GetEvents, also saying whether the poll waited. A poll
// waiting on a queue that is deleted ends with the events still pending
// (usually none), as Zulip finishes it; the next poll gets
// BAD_EVENT_QUEUE_ID.
func (a *Actor) PollEvents(ctx context.Context, req GetEventsRequest) (EventsPoll, error) {
	r := a.r
	if err := a.checkActive(ctx); err != nil {
		return EventsPoll{}, err
	}
	pending, waited, err := r.events.Poll(ctx, eventq.GetRequest{UserID: a.id, QueueID: req.QueueID,
		LastEventID: req.LastEventID, DontBlock: req.DontBlock, Heartbeat: r.heartbeatDelay()})
	if err != nil {
		return EventsPoll{}, queueError(err, req.QueueID)
	}
	out := EventsPoll{Events: make([]Event, len(pending))}
	wire, split := r.wire(), r.has(changeWildcardMentionFlags)
	for i, p := range pending {
		out.Events[i] = clientEvent(p, req.QueueID, split)
		out.Events[i].wire = wire
	}
	if waited {
		out.QueueID = req.QueueID
	}
	return out, nil
}

// queueError maps the queues' errors to Zulip's.
func queueError(err error, queueID string) error {
	var ack eventq.AckError
	switch {
	case errors.Is(err, eventq.ErrNoQueue):
		return badEventQueue(queueID)
	case errors.As(err, &ack):
		return BadRequest("%s", ack.Error())
	}
	return err
}

// heartbeatDelay is 45-55 s by default, or the configured interval.
func (r *Realm) heartbeatDelay() time.Duration {
	if r.opts.HeartbeatInterval > 0 {
		return r.opts.HeartbeatInterval
	}
	return 45*time.Second + time.Duration(rand.Int64N(int64(10*time.Second)))
}

// DeleteQueue answers DELETE /events.
func (a *Actor) DeleteQueue(ctx context.Context, queueID string) error {
	if err := a.checkActive(ctx); err != nil {
		return err
	}
	return queueError(a.r.events.Delete(a.id, queueID), queueID)
}

// ExpireQueue drops a queue at once, as if it had been garbage collected,
// so client tests can exercise their BAD_EVENT_QUEUE_ID handling. It
// reports whether the queue existed.
func (r *Realm) ExpireQueue(queueID string) bool { return r.events.Expire(queueID) }

// QueueCount is the number of live event queues, for tests.
func (r *Realm) QueueCount() int { return r.events.Count() }

// IsPolling reports whether a GET /events is waiting on the queue, so a
// test can send an event knowing the long poll is blocked.
func (r *Realm) IsPolling(queueID string) bool { return r.events.IsPolling(queueID) }

// QueueInfo describes a live event queue, for inspection (the control
// API's GET /minizulip/queues).
type QueueInfo struct {
	QueueID string
	UserID  int
	// EventTypes are the types the queue was registered for, sorted; nil
	// for every type.
	EventTypes []string
	// Narrow is the queue's narrow as registered; nil for none.
	Narrow []message.Term
	// LastPoll is when a client last polled the queue; zero if never.
	LastPoll time.Time
	// Pending counts the events the client has not acknowledged.
	Pending int
}

// EventQueues lists the live event queues of one user (0: every user's),
// oldest first, after idle ones are collected.
func (r *Realm) EventQueues(userID int) []QueueInfo {
	states := r.events.States(userID)
	out := make([]QueueInfo, len(states))
	for i, st := range states {
		out[i] = QueueInfo{QueueID: st.ID, UserID: st.UserID, EventTypes: st.Types,
			Narrow: slices.Clone(st.Config.opts.Narrow), LastPoll: st.LastPoll, Pending: st.Pending}
	}
	return out
}

// Stop ends a realm that is no longer served: every event queue is
// dropped (a waiting poll completes, the next one answers
// BAD_EVENT_QUEUE_ID), and the background collection of idle queues and
// the timer of scheduled deliveries stop, so that nothing keeps the realm
// alive. Its state can still be read. (Close, for a realm with a data
// directory, is another matter: it saves the realm.)
func (r *Realm) Stop() {
	r.events.Close()
	_ = r.update(func() error {
		r.delivery.stop()
		return nil
	})
}
