package realm

import (
	"context"
	"testing"
	"time"
)

func TestOffsetClockFollowsRealTimePlusOffset(t *testing.T) {
	c := NewOffsetClock()
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
	c := NewOffsetClock()
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
	c := NewOffsetClock()
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

func TestAdvanceClockRefusesToGoBack(t *testing.T) {
	r, clock := newTestRealm(t)
	start := clock.Now()
	wantCode(t, r.AdvanceClock(-time.Second), CodeBadRequest, "backwards")
	wantCode(t, r.SetClock(start.Add(-time.Nanosecond)), CodeBadRequest, "backwards")
	if !clock.Now().Equal(start) {
		t.Fatalf("a refused move moved the clock to %v", clock.Now())
	}
	if err := r.AdvanceClock(90 * time.Second); err != nil || !r.Now().Equal(start.Add(90*time.Second)) {
		t.Fatalf("advance: %v, now %v", err, r.Now())
	}
	if err := r.SetClock(start.Add(time.Hour)); err != nil || !r.Now().Equal(start.Add(time.Hour)) {
		t.Fatalf("set: %v, now %v", err, r.Now())
	}
	if err := r.SetClock(r.Now()); err != nil {
		t.Fatalf("setting the clock to now: %v", err)
	}
}

func TestSystemClockCannotBeMoved(t *testing.T) {
	r := New()
	wantCode(t, r.AdvanceClock(time.Second), CodeBadRequest, "cannot be moved")
	wantCode(t, r.SetClock(time.Now().Add(time.Hour)), CodeBadRequest, "cannot be moved")
}

// Advancing an offset clock ends a waiting long poll with a heartbeat,
// and past a queue's lifespan the queue is gone.
func TestAdvanceClockWakesLongPollAndExpiresQueues(t *testing.T) {
	r := New(WithClock(NewOffsetClock()), WithHeartbeat(time.Hour))
	q := mustQueue(t, r, idIago, QueueOptions{LifespanSecs: 600})
	got := make(chan []Event, 1)
	go func() {
		evs, _ := r.As(idIago).Events(context.Background(), GetEventsRequest{QueueID: q.ID(), LastEventID: -1})
		got <- evs
	}()
	for !r.IsPolling(q.ID()) {
		time.Sleep(50 * time.Microsecond)
	}
	if err := r.AdvanceClock(time.Hour); err != nil {
		t.Fatal(err)
	}
	evs := <-got
	if len(evs) != 1 || evs[0].Type != "heartbeat" {
		t.Fatalf("the poll ended with %+v, want a heartbeat", evs)
	}
	if err := r.AdvanceClock(601 * time.Second); err != nil {
		t.Fatal(err)
	}
	_, err := r.As(idIago).Events(bg, GetEventsRequest{QueueID: q.ID(), LastEventID: 0, DontBlock: true})
	wantCode(t, err, CodeBadEventQueueID, "Bad event queue ID: "+q.ID())
}
