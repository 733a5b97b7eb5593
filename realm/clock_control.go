package realm

import (
	"time"

	"github.com/minizulip/minizulip/realm/clock"
)

// Clock is the realm's clock, as given by WithClock.
func (r *Realm) Clock() clock.Clock { return r.baseClock() }

// AdvanceClock moves the realm's clock forward by d, running every timer
// it passes: long polls whose heartbeat falls due end, idle event queues
// go, and later reads of time (edit limits…) see the new time. The clock
// must be a clock.Adjustable (clock.Manual, clock.Offset); a negative d is
// refused and nothing moves.
func (r *Realm) AdvanceClock(d time.Duration) error {
	c, err := r.adjustableClock()
	if err != nil {
		return err
	}
	if d < 0 {
		return BadRequest("The clock cannot go backwards (advance %v)", d)
	}
	r.clockMu.Lock()
	defer r.clockMu.Unlock()
	c.Advance(d)
	return r.journalClockMove()
}

// SetClock moves the realm's clock to t, as AdvanceClock does; t before
// the clock's current time is refused and nothing moves.
func (r *Realm) SetClock(t time.Time) error {
	c, err := r.adjustableClock()
	if err != nil {
		return err
	}
	r.clockMu.Lock()
	defer r.clockMu.Unlock()
	if now := c.Now(); t.Before(now) {
		return BadRequest("The clock cannot go backwards (now %s, asked for %s)",
			now.UTC().Format(time.RFC3339Nano), t.UTC().Format(time.RFC3339Nano))
	}
	c.Set(t)
	return r.journalClockMove()
}

// adjustableClock is the realm's clock if it can be moved.
func (r *Realm) adjustableClock() (clock.Adjustable, error) {
	c, ok := r.baseClock().(clock.Adjustable)
	if !ok {
		return nil, BadRequest("The realm's clock cannot be moved: it runs on the system clock (use clock.NewOffset or clock.NewManual)")
	}
	return c, nil
}
