package clock

import "time"

// Manual is a Clock that only moves when told to; its timers fire when
// Advance or Set moves it past their deadlines. Safe for concurrent use.
type Manual struct {
	timers
	now time.Time
}

// NewManual returns a clock stopped at t.
func NewManual(t time.Time) *Manual { return &Manual{now: t} }

// Now returns the clock's current time.
func (c *Manual) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc schedules f for when the clock reaches now+d; a d of zero or
// less fires at the next Advance or Set.
func (c *Manual) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.add(c.now.Add(d), d, f)
}

// Advance moves the clock forward by d and runs, in deadline order, the
// timers it passes; they have run when Advance returns.
func (c *Manual) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.fireLocked(c.now)
}

// Set moves the clock to t and runs the timers whose deadlines it reaches.
func (c *Manual) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.fireLocked(c.now)
}

// PendingTimers is the number of timers not yet fired or stopped, so a
// test can wait until a long poll has started its heartbeat timer.
func (c *Manual) PendingTimers() int { return c.pending() }
