package clock

import "time"

// Offset follows real time plus an offset that Advance and Set move, so a
// dev server's time flows as usual while a test can jump ahead: its
// timers fire when real time reaches their deadline, or at once when an
// Advance or Set passes it. Safe for concurrent use.
type Offset struct {
	timers
	offset time.Duration
}

// NewOffset returns a clock that reads real time until moved.
func NewOffset() *Offset {
	c := &Offset{}
	c.arm = func(t *timer, d time.Duration) *time.Timer {
		return time.AfterFunc(d, func() { c.fireOne(t) })
	}
	return c
}

// Now is real time plus the offset.
func (c *Offset) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

// Offset is how far ahead of real time the clock runs.
func (c *Offset) Offset() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.offset
}

// AfterFunc calls f, in its own goroutine or from the Advance or Set that
// passes its deadline, once d has passed on this clock.
func (c *Offset) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.add(time.Now().Add(c.offset+d), d, f)
}

// Advance moves the clock forward by d and runs, in deadline order, the
// timers it passes; they have run when Advance returns. The other timers
// are re-armed for the time left to them.
func (c *Offset) Advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.fireLocked(time.Now().Add(c.offset))
}

// Set moves the clock to t (real time keeps flowing from there) and runs
// the timers whose deadlines it reaches.
func (c *Offset) Set(t time.Time) {
	c.mu.Lock()
	c.offset = time.Until(t)
	c.fireLocked(time.Now().Add(c.offset))
}

// PendingTimers is the number of timers not yet fired or stopped.
func (c *Offset) PendingTimers() int { return c.pending() }
