package realm

import (
	"slices"
	"sync"
	"time"
)

// Clock gives the realm all its time: now, and the timers that end long
// polls with a heartbeat. Tests inject a ManualClock to cross time limits
// and fire timers without sleeping.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f once d has passed on this clock, in its own
	// goroutine or (for a manual clock) from the call that moves the clock
	// past the deadline. Stop on the result cancels a call not yet made.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc call.
type Timer interface {
	// Stop cancels the call; it reports whether the call was still pending.
	Stop() bool
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// SystemClock is the wall clock.
var SystemClock Clock = systemClock{}

// ManualClock is a Clock that only moves when told to; its timers fire when
// Advance or Set moves it past their deadlines. Safe for concurrent use.
type ManualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*manualTimer
}

// manualTimer is one pending AfterFunc call of a ManualClock.
type manualTimer struct {
	clock    *ManualClock
	deadline time.Time
	f        func()
}

// NewManualClock returns a clock stopped at t.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{now: t} }

// Now returns the clock's current time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc schedules f for when the clock reaches now+d; a d of zero or
// less fires at the next Advance or Set.
func (c *ManualClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &manualTimer{clock: c, deadline: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

// Stop cancels the timer.
func (t *manualTimer) Stop() bool {
	c := t.clock
	c.mu.Lock()
	defer c.mu.Unlock()
	i := slices.Index(c.timers, t)
	if i < 0 {
		return false
	}
	c.timers = slices.Delete(c.timers, i, i+1)
	return true
}

// Advance moves the clock forward by d and runs, in deadline order, the
// timers it passes; they have run when Advance returns.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.fireLocked()
}

// Set moves the clock to t and runs the timers whose deadlines it reaches.
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.fireLocked()
}

// PendingTimers is the number of timers not yet fired or stopped, so a
// test can wait until a long poll has started its heartbeat timer.
func (c *ManualClock) PendingTimers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// fireLocked takes the due timers off the list, releases c.mu and calls
// them in deadline order, so a timer's function may use the clock.
func (c *ManualClock) fireLocked() {
	var due []*manualTimer
	kept := c.timers[:0]
	for _, t := range c.timers {
		if !t.deadline.After(c.now) {
			due = append(due, t)
		} else {
			kept = append(kept, t)
		}
	}
	clear(c.timers[len(kept):])
	c.timers = kept
	c.mu.Unlock()
	slices.SortStableFunc(due, func(a, b *manualTimer) int { return a.deadline.Compare(b.deadline) })
	for _, t := range due {
		t.f()
	}
}
