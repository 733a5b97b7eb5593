package realm

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// Event-queue defaults, as a Zulip server has them.
const (
	DefaultQueueLifespan  = 600 * time.Second
	MaxQueueLifespan      = 7 * 24 * time.Hour
	DefaultMaxQueueEvents = 10000
)

// eventHub holds every event queue. Its lock is taken after the realm's
// lock when both are needed (emitting under a mutation, registering), and
// alone by GET /events, so long polls never hold the realm.
type eventHub struct {
	mu     sync.Mutex
	queues map[string]*Queue
	byUser map[int][]*Queue
}

func newEventHub() *eventHub {
	return &eventHub{queues: map[string]*Queue{}, byUser: map[int][]*Queue{}}
}

// addQueue stores a new queue; the caller holds h.mu.
func (h *eventHub) addQueue(q *Queue) {
	h.queues[q.id] = q
	h.byUser[q.userID] = append(h.byUser[q.userID], q)
}

// dropQueue removes a queue and wakes any GET waiting on it; the caller
// holds h.mu.
func (h *eventHub) dropQueue(q *Queue) {
	if q.dead {
		return
	}
	q.dead = true
	delete(h.queues, q.id)
	list := h.byUser[q.userID]
	for i, other := range list {
		if other == q {
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(h.byUser, q.userID)
	} else {
		h.byUser[q.userID] = list
	}
	q.pending = nil
	if q.wake != nil {
		close(q.wake)
		q.wake = nil
	}
}

// sweep drops queues idle past their lifespan with no GET waiting; the
// caller holds h.mu.
func (h *eventHub) sweep(now time.Time) {
	for _, q := range h.queues {
		if q.waiting == 0 && now.Sub(q.lastAccess) > q.lifespan {
			h.dropQueue(q)
		}
	}
}

// push appends a change to a queue, dropping the queue when it overflows.
func (h *eventHub) push(q *Queue, qe queued, limit int) {
	if len(q.pending) >= limit {
		h.dropQueue(q)
		return
	}
	qe.id = q.nextID
	q.nextID++
	q.pending = append(q.pending, qe)
	if q.wake != nil {
		close(q.wake)
		q.wake = nil
	}
}

// emit delivers a change with one payload for all to the queues of the
// given users. The caller holds the realm's write lock.
func (r *Realm) emit(typ string, payload any, userIDs ...int) {
	r.emitChange(&change{typ: typ, payload: payload}, userIDs)
}

// emitChange delivers c to the queues of userIDs that want it.
func (r *Realm) emitChange(c *change, userIDs []int) {
	h := r.events
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, uid := range userIDs {
		for _, q := range h.byUser[uid] {
			if q.wants(c.typ) && (c.filter == nil || c.filter(q)) {
				h.push(q, queued{c: c}, r.opts.MaxQueueEvents)
			}
		}
	}
}

// messageRecipient is one user receiving a message event, with their flags.
type messageRecipient struct {
	userID int
	flags  message.Flags
}

// emitMessage delivers a message event built once: the message object is
// made once per encoding variant that the receiving queues need.
func (r *Realm) emitMessage(m *message.Message, recipients []messageRecipient, queueID, localID string) {
	h := r.events
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.byUser) == 0 {
		return
	}
	mc := &messageChange{variants: map[viewKey]Message{}, m: m, queueID: queueID, localID: localID}
	c := &change{typ: "message", msg: mc}
	sender := r.users[m.SenderID]
	deliver := func(q *Queue, flags message.Flags) {
		if !q.wants("message") || (q.narrow != nil && !q.narrow(m)) {
			return
		}
		viewer := r.users[q.userID]
		key := viewKey{applyMarkdown: q.opts.ApplyMarkdown, emptyTopic: q.opts.Capabilities.EmptyTopicName,
			nullAvatar: r.avatarIsNull(viewer, sender, q.opts.ClientGravatar)}
		if _, ok := mc.variants[key]; !ok {
			mc.variants[key] = r.messageView(viewer, m, 0, false,
				ViewOptions{ApplyMarkdown: key.applyMarkdown, ClientGravatar: key.nullAvatar, AllowEmptyTopicName: key.emptyTopic})
		}
		h.push(q, queued{c: c, flags: flags, key: key}, r.opts.MaxQueueEvents)
	}
	for _, rc := range recipients {
		for _, q := range h.byUser[rc.userID] {
			deliver(q, rc.flags)
		}
	}
	// Queues registered with all_public_streams also get every message of
	// public channels their users did not receive.
	if ch := r.channels[m.ChannelID]; m.Type == message.Channel && ch != nil && !ch.InviteOnly {
		for _, q := range h.queues {
			if q.opts.AllPublicStreams && !slices.ContainsFunc(recipients, func(rc messageRecipient) bool { return rc.userID == q.userID }) {
				deliver(q, 0)
			}
		}
	}
}

// RegisterQueue creates an event queue for the actor without fetching any
// state; Register (POST /register) builds on it.
func (a *Actor) RegisterQueue(ctx context.Context, opts QueueOptions) (ans *Queue, err error) {
	r := a.r
	err = a.read(func(me *user.User) (err error) {
		ans, err = r.newQueue(me, opts)
		return err
	})
	return ans, err
}

// newQueue creates and stores a queue; the caller holds the realm lock (at
// least for reading), so no change can fall between a state snapshot taken
// under the same lock and the queue's start.
func (r *Realm) newQueue(me *user.User, opts QueueOptions) (*Queue, error) {
	narrow, err := r.compileEventNarrow(me, opts.Narrow)
	if err != nil {
		return nil, err
	}
	q := &Queue{id: newQueueID(), userID: me.ID, opts: opts, narrow: narrow, pruned: -1,
		lastAccess: r.clock.Now(), lifespan: DefaultQueueLifespan}
	if opts.LifespanSecs > 0 {
		q.lifespan = min(time.Duration(opts.LifespanSecs)*time.Second, MaxQueueLifespan)
	}
	if opts.EventTypes != nil {
		q.types = map[string]bool{}
		for _, t := range opts.EventTypes {
			q.types[t] = true
		}
	}
	h := r.events
	h.mu.Lock()
	h.sweep(r.clock.Now())
	h.addQueue(q)
	h.mu.Unlock()
	return q, nil
}

// compileEventNarrow turns register's legacy narrow pairs into a message
// filter.
func (r *Realm) compileEventNarrow(me *user.User, pairs [][2]string) (func(*message.Message) bool, error) {
	if len(pairs) == 0 {
		return nil, nil
	}
	terms := make([]message.Term, len(pairs))
	for i, p := range pairs {
		terms[i] = message.Term{Operator: message.CanonicalOperator(p[0]), Operand: p[1]}
	}
	var preds []func(*message.Message) bool
	scratch := &narrowQuery{}
	for _, t := range terms {
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

// GetEvents answers GET /events: it acknowledges events up to lastEventID
// and returns the rest, waiting for one when there is none and dontBlock is
// false. A wait ends with a heartbeat after the realm's heartbeat interval.
func (a *Actor) GetEvents(ctx context.Context, queueID string, lastEventID int, dontBlock bool) ([]Event, error) {
	r := a.r
	if err := a.checkActive(); err != nil {
		return nil, err
	}
	h := r.events
	h.mu.Lock()
	h.sweep(r.clock.Now())
	q := h.queues[queueID]
	if q == nil || q.userID != a.id {
		h.mu.Unlock()
		return nil, badEventQueue(queueID)
	}
	q.lastAccess = r.clock.Now()
	if err := q.acknowledge(lastEventID); err != nil {
		h.mu.Unlock()
		return nil, err
	}
	if len(q.pending) > 0 || dontBlock {
		evs := q.materialize()
		h.mu.Unlock()
		return evs, nil
	}
	if q.wake != nil {
		close(q.wake) // a new GET completes the one already waiting
	}
	wake := make(chan struct{})
	q.wake = wake
	q.waiting++
	h.mu.Unlock()

	// The heartbeat runs on the realm's clock, so a test's manual clock
	// decides when a quiet poll ends.
	beat := make(chan struct{})
	timer := r.clock.AfterFunc(r.heartbeatDelay(), func() { close(beat) })
	defer timer.Stop()
	heartbeat := false
	select {
	case <-wake:
	case <-beat:
		heartbeat = true
	case <-ctx.Done():
	}

	h.mu.Lock()
	defer h.mu.Unlock()
	q.waiting--
	if q.wake == wake {
		q.wake = nil
	}
	q.lastAccess = r.clock.Now()
	if q.dead {
		return nil, badEventQueue(queueID)
	}
	if heartbeat && len(q.pending) == 0 {
		h.push(q, queued{c: heartbeatChange}, r.opts.MaxQueueEvents)
	}
	return q.materialize(), nil
}

var heartbeatChange = &change{typ: "heartbeat", payload: HeartbeatEvent{}}

// heartbeatDelay is 45-55 s by default, or the configured interval.
func (r *Realm) heartbeatDelay() time.Duration {
	if r.opts.HeartbeatInterval > 0 {
		return r.opts.HeartbeatInterval
	}
	return 45*time.Second + time.Duration(rand.Int64N(int64(10*time.Second)))
}

// acknowledge discards events up to lastEventID.
func (q *Queue) acknowledge(lastEventID int) error {
	if lastEventID < q.pruned {
		return BadRequest("An event newer than %d has already been pruned!", lastEventID)
	}
	if lastEventID >= q.nextID {
		return BadRequest("Event %d was not in this queue", lastEventID)
	}
	n := 0
	for n < len(q.pending) && q.pending[n].id <= lastEventID {
		n++
	}
	if n > 0 {
		q.pending = append(q.pending[:0:0], q.pending[n:]...)
	}
	if lastEventID > q.pruned {
		q.pruned = lastEventID
	}
	return nil
}

// materialize returns the pending events as this queue's client sees them.
func (q *Queue) materialize() []Event {
	out := make([]Event, len(q.pending))
	for i, qe := range q.pending {
		out[i] = qe.event(q)
	}
	return out
}

// DeleteQueue answers DELETE /events.
func (a *Actor) DeleteQueue(ctx context.Context, queueID string) error {
	h := a.r.events
	h.mu.Lock()
	defer h.mu.Unlock()
	q := h.queues[queueID]
	if q == nil || q.userID != a.id {
		return badEventQueue(queueID)
	}
	h.dropQueue(q)
	return nil
}

// ExpireQueue drops a queue at once, as if it had been garbage collected,
// so client tests can exercise their BAD_EVENT_QUEUE_ID handling. It
// reports whether the queue existed.
func (r *Realm) ExpireQueue(queueID string) bool {
	h := r.events
	h.mu.Lock()
	defer h.mu.Unlock()
	q := h.queues[queueID]
	if q != nil {
		h.dropQueue(q)
	}
	return q != nil
}

// QueueCount is the number of live event queues, for tests.
func (r *Realm) QueueCount() int {
	h := r.events
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sweep(r.clock.Now())
	return len(h.queues)
}

// IsPolling reports whether a GET /events is waiting on the queue, so a
// test can send an event knowing the long poll is blocked.
func (r *Realm) IsPolling(queueID string) bool {
	h := r.events
	h.mu.Lock()
	defer h.mu.Unlock()
	q := h.queues[queueID]
	return q != nil && q.waiting > 0
}
