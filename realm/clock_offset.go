package realm

import (
	"slices"
	"sync"
	"time"
)

// AdjustableClock is a Clock that can be moved forward: ManualClock, which
// only moves when told to, and OffsetClock, which follows real time.
// Realm.AdvanceClock and Realm.SetClock work on realms running on one.
type AdjustableClock interface {
	Clock
	// Advance moves the clock forward by d and runs the timers it passes.
	Advance(d time.Duration)
	// Set moves the clock to t and runs the timers whose deadlines it reaches.
	Set(t time.Time)
}

// OffsetClock follows real time plus an offset that Advance and Set move,
// so a dev server's time flows as usual while a test can jump ahead: its
// timers fire when real time reaches their deadline, or at once when an
// Advance or Set passes it. Safe for concurrent use.
type OffsetClock struct {
	mu     sync.Mutex
	offset time.Duration
	timers []*offsetTimer
}

// offsetTimer is one pending AfterFunc call of an OffsetClock; real is
// the wall-clock timer that fires it if no move of the clock does first.
type offsetTimer struct {
	clock    *OffsetClock
	deadline time.Time // on the clock, not on the wall
	f        func()
	real     *time.Timer
}

// NewOffsetClock returns a clock that reads real time until moved.
func NewOffsetClock() *OffsetClock { return &OffsetClock{} }

// Now is real time plus the offset.
func (c *OffsetClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

// Offset is how far ahead of real time the clock runs.
func (c *OffsetClock) Offset() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.offset
}

// AfterFunc calls f, in its own goroutine or from the Advance or Set that
// passes its deadline, once d has passed on this clock.
func (c *OffsetClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &offsetTimer{clock: c, deadline: time.Now().Add(c.offset + d), f: f}
	t.real = time.AfterFunc(d, t.fire)
	c.timers = append(c.timers, t)
	return t
}

// fire runs the timer unless it was stopped or already run by a move.
func (t *offsetTimer) fire() {
	c := t.clock
	c.mu.Lock()
	i := slices.Index(c.timers, t)
	if i < 0 {
		c.mu.Unlock()
		return
	}
	c.timers = slices.Delete(c.timers, i, i+1)
	c.mu.Unlock()
	t.f()
}

// Stop cancels the timer; it reports whether the call was still pending.
func (t *offsetTimer) Stop() bool {
	c := t.clock
	c.mu.Lock()
	defer c.mu.Unlock()
	i := slices.Index(c.timers, t)
	if i < 0 {
		return false
	}
	c.timers = slices.Delete(c.timers, i, i+1)
	t.real.Stop()
	return true
}

// Advance moves the clock forward by d and runs, in deadline order, the
// timers it passes; they have run when Advance returns. The other timers
// are re-armed for the time left to them.
func (c *OffsetClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.fireLocked()
}

// Set moves the clock to t (real time keeps flowing from there) and runs
// the timers whose deadlines it reaches.
func (c *OffsetClock) Set(t time.Time) {
	c.mu.Lock()
	c.offset = time.Until(t)
	c.fireLocked()
}

// fireLocked takes the due timers off the list, re-arms the others,
// releases c.mu and calls the due ones in deadline order.
func (c *OffsetClock) fireLocked() {
	now := time.Now().Add(c.offset)
	var due []*offsetTimer
	kept := c.timers[:0]
	for _, t := range c.timers {
		t.real.Stop()
		if !t.deadline.After(now) {
			due = append(due, t)
			continue
		}
		t.real = time.AfterFunc(t.deadline.Sub(now), t.fire)
		kept = append(kept, t)
	}
	clear(c.timers[len(kept):])
	c.timers = kept
	c.mu.Unlock()
	slices.SortStableFunc(due, func(a, b *offsetTimer) int { return a.deadline.Compare(b.deadline) })
	for _, t := range due {
		t.f()
	}
}

// PendingTimers is the number of timers not yet fired or stopped.
func (c *OffsetClock) PendingTimers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}
