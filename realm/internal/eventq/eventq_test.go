package eventq

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
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

// A long poll ends with the first event, or with a heartbeat once the
// clock passes it; deleting its queue completes it. The test runs in a
// synctest bubble: synctest.Wait stands for "the poll is waiting", and a
// poll that never returns fails the test as a deadlock instead of hanging.
func TestLongPollWakesAndHeartbeats(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
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
			synctest.Wait()
			if !h.IsPolling(q.ID()) {
				t.Fatal("the poll is not waiting")
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
		synctest.Wait()
		select {
		case p := <-ch:
			t.Fatalf("returned before the heartbeat was due: %v", entries(p))
		default:
		}
		fc.Advance(time.Second)
		if got := <-ch; len(got) != 1 || got[0].Type != HeartbeatType || got[0].ID != 1 {
			t.Fatalf("heartbeat %+v", got)
		}
		// Deleting the queue completes a waiting poll, as Zulip finishes its
		// handler first (with no events); the next poll finds no queue.
		type answer struct {
			evs []Pending[string]
			err error
		}
		ans := make(chan answer, 1)
		go func() {
			evs, err := h.Get(context.Background(), GetRequest{UserID: 7, QueueID: q.ID(), LastEventID: 1, Heartbeat: time.Hour})
			ans <- answer{evs, err}
		}()
		synctest.Wait()
		if err := h.Delete(7, q.ID()); err != nil {
			t.Fatal(err)
		}
		if a := <-ans; a.err != nil || len(a.evs) != 0 {
			t.Fatalf("poll on a deleted queue: %v %v", entries(a.evs), a.err)
		}
		if _, err := h.Get(context.Background(), GetRequest{UserID: 7, QueueID: q.ID(), LastEventID: 1, DontBlock: true}); !errors.Is(err, ErrNoQueue) {
			t.Fatalf("poll after the delete: %v", err)
		}
	})
}

// The heartbeat timer is set while the hub's lock is held, so that a test
// (or anyone) who sees the poll waiting and then moves the clock past the
// heartbeat always ends it. Set after the unlock, a move in between left
// the heartbeat a whole period away and the poll waiting for good.
func TestHeartbeatIsSetUnderTheLock(t *testing.T) {
	fc := &fakeClock{now: time.Unix(1000, 0)}
	clock := fc.clock()
	var h *Hub[config, string]
	outside := false
	after := clock.AfterFunc
	clock.AfterFunc = func(d time.Duration, f func()) func() bool {
		if d == 50*time.Second && h.mu.TryLock() { // the poll's heartbeat
			outside = true
			h.mu.Unlock()
		}
		return after(d, f)
	}
	h = NewHub[config, string](clock, 10)
	q := h.Add(Options[config]{UserID: 7, Lifespan: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the poll returns as soon as it has waited
	if _, err := h.Get(ctx, GetRequest{UserID: 7, QueueID: q.ID(), LastEventID: -1, Heartbeat: 50 * time.Second}); err != nil {
		t.Fatal(err)
	}
	if outside {
		t.Fatal("the heartbeat was set outside the hub's lock: a clock move in between is lost")
	}
}

// A queue expired while a poll waits, with an event that arrived just
// before, hands the event to that poll; the next poll gets ErrNoQueue.
func TestExpireCompletesWaitingPollWithItsEvents(t *testing.T) {
	h, _ := newHub(10)
	q := h.Add(Options[config]{UserID: 7, Lifespan: time.Hour})
	h.mu.Lock()
	q.waiting++ // a poll is about to take the lock again
	h.push(q, "message", "late")
	h.drop(q)
	q.waiting--
	evs := q.snapshot()
	h.mu.Unlock()
	if got := entries(evs); !cmp.Equal([]string{"message:late"}, got) {
		t.Fatalf("a waiting poll's queue lost its events on expiry: %v", got)
	}
	if h.Expire(q.ID()) {
		t.Fatal("expired twice")
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

func TestPerUserCapDropsLeastRecentlyPolledQueue(t *testing.T) {
	h, fc := newHub(100)
	h.SetMaxPerUser(2)
	get := func(user int, q *Queue[config, string]) error {
		_, err := h.Get(context.Background(), GetRequest{UserID: user, QueueID: q.ID(), LastEventID: -1, DontBlock: true})
		return err
	}
	first := h.Add(Options[config]{UserID: 7, Lifespan: time.Hour})
	second := h.Add(Options[config]{UserID: 7, Lifespan: time.Hour})
	other := h.Add(Options[config]{UserID: 8, Lifespan: time.Hour})
	fc.Advance(time.Second)
	if err := get(7, first); err != nil { // first is now the fresher one
		t.Fatal(err)
	}
	third := h.Add(Options[config]{UserID: 7, Lifespan: time.Hour})
	if err := get(7, second); !errors.Is(err, ErrNoQueue) {
		t.Fatalf("least recently polled queue survived the cap: %v", err)
	}
	for _, q := range []*Queue[config, string]{first, third} {
		if err := get(7, q); err != nil {
			t.Fatalf("queue %s dropped: %v", q.ID(), err)
		}
	}
	if err := get(8, other); err != nil || h.Count() != 3 {
		t.Fatalf("another user's queue: %v, %d queues", err, h.Count())
	}
	h.SetMaxPerUser(0)
	for i := 0; i < 5; i++ {
		h.Add(Options[config]{UserID: 7, Lifespan: time.Hour})
	}
	if h.Count() != 8 {
		t.Fatalf("uncapped hub holds %d queues", h.Count())
	}
}

func TestPerUserCapSparesQueuesBeingPolled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, fc := newHub(100)
		h.SetMaxPerUser(2)
		polled := h.Add(Options[config]{UserID: 7, Lifespan: time.Hour})
		idle := h.Add(Options[config]{UserID: 7, Lifespan: time.Hour})
		fc.Advance(time.Second)
		h.Get(context.Background(), GetRequest{UserID: 7, QueueID: idle.ID(), LastEventID: -1, DontBlock: true})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := h.Get(ctx, GetRequest{UserID: 7, QueueID: polled.ID(), LastEventID: -1})
			done <- err
		}()
		synctest.Wait()
		h.Add(Options[config]{UserID: 7, Lifespan: time.Hour})
		if !h.IsPolling(polled.ID()) {
			t.Fatal("the queue being polled was dropped")
		}
		if _, err := h.Get(context.Background(), GetRequest{UserID: 7, QueueID: idle.ID(), LastEventID: -1, DontBlock: true}); !errors.Is(err, ErrNoQueue) {
			t.Fatalf("the idle queue survived: %v", err)
		}
		cancel()
		<-done
	})
}
