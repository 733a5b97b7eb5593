package clock

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestManualClockFiresTimersInDeadlineOrder(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewManual(start)
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
	c := NewManual(time.Unix(0, 0))
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
	System.AfterFunc(time.Millisecond, func() { close(done) })
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("system clock timer never fired")
	}
}

func TestOffsetClockFollowsRealTimePlusOffset(t *testing.T) {
	c := NewOffset()
	before := time.Now()
	if now := c.Now(); now.Before(before) || now.Sub(before) > time.Minute {
		t.Fatalf("a fresh offset clock reads %v, real time is %v", now, before)
	}
	c.Advance(time.Hour)
	if c.Offset() != time.Hour || c.Now().Sub(time.Now()) < 59*time.Minute {
		t.Fatalf("after Advance(1h): offset %v, now %v", c.Offset(), c.Now())
	}
	target := time.Now().Add(48 * time.Hour)
	c.Set(target)
	if got := c.Now(); got.Before(target) || got.Sub(target) > time.Minute {
		t.Fatalf("after Set: %v, want about %v", got, target)
	}
}

func TestOffsetClockAdvanceFiresPassedTimersOnly(t *testing.T) {
	c := NewOffset()
	var fired []string
	c.AfterFunc(time.Hour, func() { fired = append(fired, "1h") })
	c.AfterFunc(time.Minute, func() { fired = append(fired, "1m") })
	stopped := c.AfterFunc(2*time.Minute, func() { fired = append(fired, "2m") })
	c.AfterFunc(48*time.Hour, func() { fired = append(fired, "48h") })
	if !stopped.Stop() || stopped.Stop() {
		t.Fatal("Stop reports true once, for a pending timer")
	}
	c.Advance(2 * time.Hour)
	if len(fired) != 2 || fired[0] != "1m" || fired[1] != "1h" {
		t.Fatalf("fired %v, want [1m 1h] in deadline order", fired)
	}
	if c.PendingTimers() != 1 {
		t.Fatalf("%d timers pending, want the 48h one", c.PendingTimers())
	}
}

func TestOffsetClockTimerFiresInRealTime(t *testing.T) {
	c := NewOffset()
	c.Advance(time.Hour) // re-arming keeps real timers working
	done := make(chan struct{})
	c.AfterFunc(time.Millisecond, func() { close(done) })
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("offset clock timer never fired")
	}
	if c.PendingTimers() != 0 {
		t.Fatalf("%d timers pending after firing", c.PendingTimers())
	}
}
