package realm

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestManualClockFiresTimersInDeadlineOrder(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewManualClock(start)
	var fired []string
	c.AfterFunc(3*time.Second, func() { fired = append(fired, "3s") })
	c.AfterFunc(time.Second, func() { fired = append(fired, "1s") })
	stopped := c.AfterFunc(2*time.Second, func() { fired = append(fired, "2s") })
	c.AfterFunc(time.Hour, func() { fired = append(fired, "1h") })
	if !stopped.Stop() || stopped.Stop() {
		t.Fatal("Stop reports true once, for a pending timer")
	}
	c.Advance(500 * time.Millisecond)
	if len(fired) != 0 {
		t.Fatalf("fired early: %v", fired)
	}
	c.Advance(3 * time.Second)
	if diff := cmp.Diff([]string{"1s", "3s"}, fired); diff != "" {
		t.Fatalf("fired (-want +got):\n%s", diff)
	}
	c.Set(start.Add(2 * time.Hour))
	if diff := cmp.Diff([]string{"1s", "3s", "1h"}, fired); diff != "" {
		t.Fatalf("after Set (-want +got):\n%s", diff)
	}
	if c.PendingTimers() != 0 {
		t.Fatalf("%d timers pending", c.PendingTimers())
	}
}

func TestManualClockTimerMayUseTheClock(t *testing.T) {
	c := NewManualClock(time.Unix(0, 0))
	var seen time.Time
	c.AfterFunc(time.Minute, func() {
		seen = c.Now()
		c.AfterFunc(time.Minute, func() {})
	})
	c.Advance(time.Minute)
	if !seen.Equal(time.Unix(60, 0)) || c.PendingTimers() != 1 {
		t.Fatalf("seen %v, pending %d", seen, c.PendingTimers())
	}
}

func TestSystemClockTimerFires(t *testing.T) {
	done := make(chan struct{})
	SystemClock.AfterFunc(time.Millisecond, func() { close(done) })
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("system clock timer never fired")
	}
}
