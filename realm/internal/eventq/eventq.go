// Package eventq holds a realm's event queues: what each client has not
// yet received, acknowledgement and pruning, the bound on a queue's
// backlog, idle expiry, and the long poll of GET /events with its
// heartbeat.
//
// It knows nothing of what an event says. A Hub is generic in C, the
// configuration the engine keeps with each queue (event options, a narrow),
// and E, the entry the engine keeps for each pending event; the engine
// decides who receives what and turns entries into client events.
//
// Locking: a Hub has its own mutex. The engine may call Publish while
// holding its own lock (the realm's lock is always taken first); Get takes
// only the Hub's mutex, and never holds it while waiting.
package eventq

import (
	"cmp"
	"context"
	"crypto/rand"
	"fmt"
	"slices"
	"sync"
	"time"
)

// HeartbeatType is the type of the event a quiet long poll ends with.
const HeartbeatType = "heartbeat"

// Clock is the time a Hub runs on: the realm's clock.
type Clock struct {
	// Now is the current time.
	Now func() time.Time
	// AfterFunc calls f once d has passed; the returned function cancels
	// the call and reports whether it was still pending.
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
}

// Pending is one event waiting in a queue: its ID there, its type, and the
// engine's entry.
type Pending[E any] struct {
	ID    int
	Type  string
	Entry E
}

// Queue is one client's event queue. Its fields are guarded by its Hub.
type Queue[C, E any] struct {
	id       string
	userID   int
	config   C
	types    map[string]bool // nil: every type
	lifespan time.Duration

	pending    []Pending[E]
	nextID     int
	pruned     int // highest event ID already discarded, -1 if none
	lastAccess time.Time
	lastPoll   time.Time     // zero until polled
	seq        uint64        // creation order, for States
	wake       chan struct{} // closed when an event arrives; nil when no poll waits
	waiting    int
	dead       bool
}

// ID is the queue's ID (queue_id): a random UUID4, as Zulip's are.
func (q *Queue[C, E]) ID() string { return q.id }

// UserID is the queue's owner.
func (q *Queue[C, E]) UserID() int { return q.userID }

// Config is the engine's configuration of the queue; callers must not
// change it.
func (q *Queue[C, E]) Config() *C { return &q.config }

// Wants reports whether the queue takes events of this type: the types it
// was registered for (all when none were named), and always heartbeats.
func (q *Queue[C, E]) Wants(typ string) bool {
	return typ == HeartbeatType || q.types == nil || q.types[typ]
}

// Hub holds every event queue of a realm. Safe for concurrent use.
type Hub[C, E any] struct {
	mu         sync.Mutex
	clock      Clock
	maxEvents  int
	maxPerUser int // 0: no cap
	queues     map[string]*Queue[C, E]
	byUser     map[int][]*Queue[C, E]
	expiry     expiryHeap[C, E]
	created    uint64 // queues created, numbering them
	// stopCollection cancels the next background collection; closed
	// stops it for good (Close).
	stopCollection func() bool
	closed         bool
}

// NewHub returns an empty hub on the given clock; a queue holding
// maxEvents unacknowledged events is dropped when one more arrives.
// Idle queues are collected on the clock in the background, every minute.
func NewHub[C, E any](clock Clock, maxEvents int) *Hub[C, E] {
	h := &Hub[C, E]{clock: clock, maxEvents: maxEvents, queues: map[string]*Queue[C, E]{}, byUser: map[int][]*Queue[C, E]{}}
	h.scheduleCollection()
	return h
}

// Options are the parameters of a new queue.
type Options[C any] struct {
	UserID int
	Config C
	// Types limits the queue to these event types; nil means all.
	Types []string
	// Lifespan is how long the queue survives without a poll.
	Lifespan time.Duration
}

// SetMaxPerUser caps the live queues of one user at n (0: no cap). A
// user who already has n queues and registers one more loses the queue
// polled least recently, which then answers as an expired queue does, so
// clients that leak queues keep working while their user's queues stay
// bounded.
func (h *Hub[C, E]) SetMaxPerUser(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.maxPerUser = n
}

// evictForRoom drops userID's least recently polled queues until one
// more fits under the per-user cap; queues with a poll waiting go last.
// The caller holds h.mu.
func (h *Hub[C, E]) evictForRoom(userID int) {
	for h.maxPerUser > 0 && len(h.byUser[userID]) >= h.maxPerUser {
		var victim *Queue[C, E]
		for _, q := range h.byUser[userID] {
			if victim == nil || q.evictsBefore(victim) {
				victim = q
			}
		}
		h.drop(victim)
	}
}

// evictsBefore reports whether q should go before other when a user is
// over the cap: queues nobody is polling first, then the least recently
// polled.
func (q *Queue[C, E]) evictsBefore(other *Queue[C, E]) bool {
	if polling, otherPolling := q.waiting > 0, other.waiting > 0; polling != otherPolling {
		return otherPolling
	}
	return q.lastAccess.Before(other.lastAccess)
}

// Add creates a queue, after dropping the queues idle past their lifespan
// and, when the user is at the per-user cap, their least recently polled
// queue.
func (h *Hub[C, E]) Add(o Options[C]) *Queue[C, E] {
	now := h.clock.Now()
	q := &Queue[C, E]{id: newQueueID(), userID: o.UserID, config: o.Config, pruned: -1, lastAccess: now, lifespan: o.Lifespan}
	if o.Types != nil {
		q.types = map[string]bool{}
		for _, t := range o.Types {
			q.types[t] = true
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sweep(now)
	h.evictForRoom(q.userID)
	h.created++
	q.seq = h.created
	h.queues[q.id] = q
	h.byUser[q.userID] = append(h.byUser[q.userID], q)
	h.file(q)
	return q
}

// Publish offers an event of type typ to every queue of the given users
// that wants that type: entry builds the entry of a queue of userIDs[i],
// or declines. entry runs under the hub's lock and must not call the hub.
func (h *Hub[C, E]) Publish(userIDs []int, typ string, entry func(q *Queue[C, E], i int) (E, bool)) {
	h.PublishN(len(userIDs), func(i int) int { return userIDs[i] }, typ, entry)
}

// PublishN is Publish for n users given by userAt, for callers that keep
// user IDs inside records of their own.
func (h *Hub[C, E]) PublishN(n int, userAt func(i int) int, typ string, entry func(q *Queue[C, E], i int) (E, bool)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := range n {
		for _, q := range h.byUser[userAt(i)] {
			if !q.Wants(typ) {
				continue
			}
			if e, ok := entry(q, i); ok {
				h.push(q, typ, e)
			}
		}
	}
}

// PublishAll offers an event to every queue, of every user.
func (h *Hub[C, E]) PublishAll(typ string, entry func(q *Queue[C, E]) (E, bool)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, q := range h.queues {
		if !q.Wants(typ) {
			continue
		}
		if e, ok := entry(q); ok {
			h.push(q, typ, e)
		}
	}
}

// Empty reports whether no queue exists, so a publisher can skip building
// an event nobody will receive.
func (h *Hub[C, E]) Empty() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.queues) == 0
}

// push appends an event to a queue, dropping the queue when it overflows;
// the caller holds h.mu.
func (h *Hub[C, E]) push(q *Queue[C, E], typ string, e E) {
	if len(q.pending) >= h.maxEvents {
		h.drop(q)
		return
	}
	q.pending = append(q.pending, Pending[E]{ID: q.nextID, Type: typ, Entry: e})
	q.nextID++
	if q.wake != nil {
		close(q.wake)
		q.wake = nil
	}
}

// drop removes a queue and wakes any poll waiting on it, which completes
// with the queue's events; the caller holds h.mu.
func (h *Hub[C, E]) drop(q *Queue[C, E]) {
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
	if q.waiting == 0 {
		q.pending = nil
	}
	if q.wake != nil {
		close(q.wake)
		q.wake = nil
	}
}

// Errors of Get and Delete.
var (
	// ErrNoQueue: no live queue of the caller has that ID.
	ErrNoQueue = fmt.Errorf("eventq: no such queue")
)

// AckError refuses a last_event_id, with Zulip's message.
type AckError string

func (e AckError) Error() string { return string(e) }

// GetRequest is one poll of a queue (GET /events).
type GetRequest struct {
	UserID      int
	QueueID     string
	LastEventID int
	DontBlock   bool
	// Heartbeat is how long a poll waits for an event before it ends with
	// a heartbeat.
	Heartbeat time.Duration
}

// Get acknowledges the events up to LastEventID and returns the rest,
// waiting for one (or for the heartbeat, or for ctx) when there is none and
// DontBlock is false. A new poll of the same queue ends the one waiting.
func (h *Hub[C, E]) Get(ctx context.Context, req GetRequest) ([]Pending[E], error) {
	evs, _, err := h.Poll(ctx, req)
	return evs, err
}

// Poll is Get, also reporting whether the poll waited: a waiting poll is
// ended by an event, the heartbeat, ctx, a newer poll, or the queue's
// deletion (then with the events still pending, not an error).
func (h *Hub[C, E]) Poll(ctx context.Context, req GetRequest) (_ []Pending[E], waited bool, _ error) {
	h.mu.Lock()
	h.sweep(h.clock.Now())
	q := h.queues[req.QueueID]
	if q == nil || q.userID != req.UserID {
		h.mu.Unlock()
		return nil, false, ErrNoQueue
	}
	q.lastAccess = h.clock.Now()
	q.lastPoll = q.lastAccess
	if err := q.acknowledge(req.LastEventID); err != nil {
		h.mu.Unlock()
		return nil, false, err
	}
	if len(q.pending) > 0 || req.DontBlock {
		evs := q.snapshot()
		h.mu.Unlock()
		return evs, false, nil
	}
	if q.wake != nil {
		close(q.wake) // a new poll completes the one already waiting
	}
	wake := make(chan struct{})
	q.wake = wake
	q.waiting++
	// The heartbeat is set under the lock: once IsPolling sees this poll,
	// a move of the clock past the heartbeat ends it. (Set after the
	// unlock, a move in between left the heartbeat a whole period away.)
	// The clock calls timers without its own lock, so taking it here is
	// safe.
	beat := make(chan struct{})
	stop := h.clock.AfterFunc(req.Heartbeat, func() { close(beat) })
	defer stop()
	h.mu.Unlock()
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
	q.lastAccess = h.clock.Now()
	if q.dead {
		// As Zulip finishes the handler of a queue it garbage-collects or
		// deletes: the waiting poll completes with what the queue held;
		// the next poll learns that the queue is gone.
		evs := q.snapshot()
		q.pending = nil
		return evs, true, nil
	}
	if heartbeat && len(q.pending) == 0 {
		var zero E
		h.push(q, HeartbeatType, zero)
	}
	return q.snapshot(), true, nil
}

// acknowledge discards events up to lastEventID.
func (q *Queue[C, E]) acknowledge(lastEventID int) error {
	if lastEventID < q.pruned {
		return AckError(fmt.Sprintf("An event newer than %d has already been pruned!", lastEventID))
	}
	if lastEventID >= q.nextID {
		return AckError(fmt.Sprintf("Event %d was not in this queue", lastEventID))
	}
	n := 0
	for n < len(q.pending) && q.pending[n].ID <= lastEventID {
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

// snapshot copies the pending events.
func (q *Queue[C, E]) snapshot() []Pending[E] {
	return append([]Pending[E](nil), q.pending...)
}

// Delete drops one of the user's queues (DELETE /events).
func (h *Hub[C, E]) Delete(userID int, queueID string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	q := h.queues[queueID]
	if q == nil || q.userID != userID {
		return ErrNoQueue
	}
	h.drop(q)
	return nil
}

// Expire drops a queue at once, as if idle collection had taken it: a poll
// waiting on it completes with the queue's events, and the next poll gets
// ErrNoQueue. It reports whether the queue existed.
func (h *Hub[C, E]) Expire(queueID string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	q := h.queues[queueID]
	if q != nil {
		h.drop(q)
	}
	return q != nil
}

// DropAll drops every queue at once, as Expire drops one: waiting polls
// complete with their queues' events, and the next poll of each gets
// ErrNoQueue.
func (h *Hub[C, E]) DropAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, q := range h.queues {
		h.drop(q)
	}
}

// Len is the number of live queues, without collecting idle ones first.
func (h *Hub[C, E]) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.queues)
}

// Count is the number of live queues, after idle collection.
func (h *Hub[C, E]) Count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sweep(h.clock.Now())
	return len(h.queues)
}

// IsPolling reports whether a poll is waiting on the queue.
func (h *Hub[C, E]) IsPolling(queueID string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	q := h.queues[queueID]
	return q != nil && q.waiting > 0
}

// State is what an inspection shows of one queue.
type State[C any] struct {
	ID     string
	UserID int
	Config C
	// Types are the event types the queue takes, sorted; nil for all.
	Types []string
	// LastPoll is when the queue was last polled; zero if never.
	LastPoll time.Time
	// Pending counts the events not yet acknowledged.
	Pending int
}

// States describes the live queues, of one user (0: everyone's), in the
// order they were created, after idle collection.
func (h *Hub[C, E]) States(userID int) []State[C] {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sweep(h.clock.Now())
	var qs []*Queue[C, E]
	if userID != 0 {
		qs = h.byUser[userID]
	} else {
		for _, q := range h.queues {
			qs = append(qs, q)
		}
	}
	out := make([]State[C], 0, len(qs))
	for _, q := range qs {
		if q.dead {
			continue
		}
		st := State[C]{ID: q.id, UserID: q.userID, Config: q.config, LastPoll: q.lastPoll, Pending: len(q.pending)}
		if q.types != nil {
			st.Types = make([]string, 0, len(q.types))
			for t := range q.types {
				st.Types = append(st.Types, t)
			}
			slices.Sort(st.Types)
		}
		out = append(out, st)
	}
	seq := map[string]uint64{}
	for _, q := range qs {
		seq[q.id] = q.seq
	}
	slices.SortFunc(out, func(a, b State[C]) int { return cmp.Compare(seq[a.ID], seq[b.ID]) })
	return out
}

// Drain drops every pending event of every queue, so a benchmark can
// publish without overflowing them.
func (h *Hub[C, E]) Drain() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, q := range h.queues {
		q.pending = q.pending[:0]
	}
}

// newQueueID returns a random UUID4 string, the shape Zulip's queue IDs have.
func newQueueID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
