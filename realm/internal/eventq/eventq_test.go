package eventq

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeClock is a manual clock: timers fire when Advance passes them.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at   time.Time
	f    func()
	done bool
}

func (c *fakeClock) clock() Clock {
	return Clock{
		Now: func() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now },
		AfterFunc: func(d time.Duration, f func()) func() bool {
			c.mu.Lock()
			defer c.mu.Unlock()
			t := &fakeTimer{at: c.now.Add(d), f: f}
			c.timers = append(c.timers, t)
			return func() bool {
				c.mu.Lock()
				defer c.mu.Unlock()
				was := !t.done
				t.done = true
				return was
			}
		},
	}
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*fakeTimer
	for _, t := range c.timers {
		if !t.done && !t.at.After(c.now) {
			t.done = true
			due = append(due, t)
		}
	}
	c.mu.Unlock()
	for _, t := range due {
		t.f()
	}
}

type config struct{ name string }

func newHub(max int) (*Hub[config, string], *fakeClock) {
	fc := &fakeClock{now: time.Unix(1000, 0)}
	return NewHub[config, string](fc.clock(), max), fc
}

func publish(h *Hub[config, string], user int, typ, entry string) {
	h.Publish([]int{user}, typ, func(q *Queue[config, string], _ int) (string, bool) { return entry, true })
}

func entries(p []Pending[string]) []string {
	var out []string
	for _, e := range p {
		out = append(out, e.Type+":"+e.Entry)
	}
	return out
}

func TestPublishAcknowledgeAndPrune(t *testing.T) {
	h, _ := newHub(100)
	q := h.Add(Options[config]{UserID: 7, Config: config{"a"}, Types: []string{"message"}, Lifespan: time.Minute})
	other := h.Add(Options[config]{UserID: 8, Lifespan: time.Minute})
	publish(h, 7, "message", "m1")
	publish(h, 7, "typing", "t1") // not a type q asked for
	publish(h, 7, "message", "m2")
	get := func(last int) ([]Pending[string], error) {
		return h.Get(context.Background(), GetRequest{UserID: 7, QueueID: q.ID(), LastEventID: last, DontBlock: true})
	}
	got, err := get(-1)
	if err != nil || !cmp.Equal([]string{"message:m1", "message:m2"}, entries(got)) || got[1].ID != 1 {
		t.Fatalf("pending %+v %v", got, err)
	}
	if got, _ := get(0); !cmp.Equal([]string{"message:m2"}, entries(got)) {
		t.Fatalf("after ack 0: %v", entries(got))
	}
	var ack AckError
	if _, err := get(-1); !errors.As(err, &ack) || err.Error() != "An event newer than -1 has already been pruned!" {
		t.Fatalf("pruned: %v", err)
	}
	if _, err := get(5); !errors.As(err, &ack) || err.Error() != "Event 5 was not in this queue" {
		t.Fatalf("future: %v", err)
	}
	if _, err := h.Get(context.Background(), GetRequest{UserID: 8, QueueID: q.ID(), DontBlock: true}); !errors.Is(err, ErrNoQueue) {
		t.Fatalf("another user's queue: %v", err)
	}
	if q.Config().name != "a" || q.UserID() != 7 || !q.Wants("heartbeat") || q.Wants("typing") || !other.Wants("typing") {
		t.Fatal("queue accessors")
	}
}

func TestOverflowDropsOnlyThatQueue(t *testing.T) {
	h, _ := newHub(2)
	q := h.Add(Options[config]{UserID: 7, Lifespan: time.Minute})
	keep := h.Add(Options[config]{UserID: 8, Lifespan: time.Minute})
	for i := 0; i < 3; i++ {
		publish(h, 7, "message", "x")
	}
	if _, err := h.Get(context.Background(), GetRequest{UserID: 7, QueueID: q.ID(), LastEventID: -1, DontBlock: true}); !errors.Is(err, ErrNoQueue) {
		t.Fatalf("overflowed queue still answers: %v", err)
	}
	if h.Count() != 1 || h.Expire(keep.ID()) != true || h.Expire(keep.ID()) != false || h.Count() != 0 {
		t.Fatal("count/expire")
	}
}

func TestIdleQueuesExpireOnTheClock(t *testing.T) {
	h, fc := newHub(10)
	q := h.Add(Options[config]{UserID: 7, Lifespan: 10 * time.Minute})
	fc.Advance(10 * time.Minute)
	if h.Count() != 1 {
		t.Fatal("expired at exactly its lifespan")
	}
	fc.Advance(time.Second)
	if h.Count() != 0 || h.Delete(7, q.ID()) == nil {
		t.Fatal("an idle queue survived its lifespan")
	}
}

func TestLongPollWakesAndHeartbeats(t *testing.T) {
	h, fc := newHub(10)
	q := h.Add(Options[config]{UserID: 7, Lifespan: time.Hour})
	poll := func(last int) <-chan []Pending[string] {
		out := make(chan []Pending[string], 1)
		go func() {
			p, err := h.Get(context.Background(), GetRequest{UserID: 7, QueueID: q.ID(), LastEventID: last, Heartbeat: 50 * time.Second})
			if err != nil {
				t.Error(err)
			}
			out <- p
		}()
		for !h.IsPolling(q.ID()) {
			time.Sleep(50 * time.Microsecond)
		}
		return out
	}
	ch := poll(-1)
	publish(h, 7, "message", "wake")
	if got := entries(<-ch); !cmp.Equal([]string{"message:wake"}, got) {
		t.Fatalf("woken with %v", got)
	}
	ch = poll(0)
	fc.Advance(49 * time.Second)
	select {
	case p := <-ch:
		t.Fatalf("returned before the heartbeat was due: %v", entries(p))
	case <-time.After(20 * time.Millisecond):
	}
	fc.Advance(time.Second)
	if got := <-ch; len(got) != 1 || got[0].Type != HeartbeatType || got[0].ID != 1 {
		t.Fatalf("heartbeat %+v", got)
	}
	// Deleting the queue ends a waiting poll as Zulip's cleanup does: a
	// success with what was pending (nothing here); the next poll finds
	// no queue.
	type polled struct {
		evs    []Pending[string]
		waited bool
		err    error
	}
	done := make(chan polled, 1)
	go func() {
		evs, waited, err := h.Poll(context.Background(), GetRequest{UserID: 7, QueueID: q.ID(), LastEventID: 1, Heartbeat: time.Hour})
		done <- polled{evs, waited, err}
	}()
	for !h.IsPolling(q.ID()) {
		time.Sleep(50 * time.Microsecond)
	}
	if err := h.Delete(7, q.ID()); err != nil {
		t.Fatal(err)
	}
	if got := <-done; got.err != nil || !got.waited || len(got.evs) != 0 {
		t.Fatalf("poll on a deleted queue: %+v", got)
	}
	if _, err := h.Get(context.Background(), GetRequest{UserID: 7, QueueID: q.ID(), LastEventID: 1, DontBlock: true}); !errors.Is(err, ErrNoQueue) {
		t.Fatalf("poll after deletion: %v", err)
	}
}

// TestOverflowUnderPollIsNoQueue: a queue dropped for overflowing is not
// deleted on request, so a poll caught waiting on it gets ErrNoQueue.
func TestOverflowUnderPollIsNoQueue(t *testing.T) {
	h, _ := newHub(1)
	q := h.Add(Options[config]{UserID: 7, Lifespan: time.Hour})
	h.mu.Lock()
	q.waiting++ // a poll about to look again, as after its wake-up
	h.push(q, "message", "a")
	h.push(q, "message", "b") // overflows
	q.waiting--
	dead, kept := q.dead, q.pending
	h.mu.Unlock()
	if !dead || kept != nil {
		t.Fatalf("overflow: dead %v, pending %v", dead, kept)
	}
}

func TestPublishAllAndDrain(t *testing.T) {
	h, _ := newHub(10)
	a := h.Add(Options[config]{UserID: 1, Config: config{"yes"}, Lifespan: time.Hour})
	b := h.Add(Options[config]{UserID: 2, Config: config{"no"}, Lifespan: time.Hour})
	h.PublishAll("message", func(q *Queue[config, string]) (string, bool) { return "all", q.Config().name == "yes" })
	pa, _ := h.Get(context.Background(), GetRequest{UserID: 1, QueueID: a.ID(), LastEventID: -1, DontBlock: true})
	pb, _ := h.Get(context.Background(), GetRequest{UserID: 2, QueueID: b.ID(), LastEventID: -1, DontBlock: true})
	if len(pa) != 1 || len(pb) != 0 {
		t.Fatalf("a %v b %v", entries(pa), entries(pb))
	}
	h.Drain()
	if pa, _ := h.Get(context.Background(), GetRequest{UserID: 1, QueueID: a.ID(), LastEventID: -1, DontBlock: true}); len(pa) != 0 {
		t.Fatal("Drain left events")
	}
	if h.Empty() {
		t.Fatal("Empty with two queues")
	}
}

// BenchmarkPollWithManyQueues polls one queue while n others live: with
// the expiry heap, neither a poll nor a register walks them all (compare
// queues=100 with queues=100000 in the same run).
func BenchmarkPollWithManyQueues(b *testing.B) {
	for _, n := range []int{100, 100000} {
		b.Run(fmt.Sprintf("queues=%d", n), func(b *testing.B) {
			h, _ := newHub(10)
			for i := 0; i < n; i++ {
				h.Add(Options[config]{UserID: i + 1000, Lifespan: time.Hour})
			}
			q := h.Add(Options[config]{UserID: 7, Lifespan: time.Hour})
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := h.Get(context.Background(), GetRequest{UserID: 7, QueueID: q.ID(), LastEventID: -1, DontBlock: true}); err != nil {
					b.Fatal(err)
				}
				r := h.Add(Options[config]{UserID: 8, Lifespan: time.Hour})
				_ = h.Delete(8, r.ID())
			}
		})
	}
}
