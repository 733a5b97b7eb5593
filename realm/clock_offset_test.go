package realm

import (
	"context"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm/clock"
)

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
	r := New(WithClock(clock.NewOffset()), WithHeartbeat(time.Hour))
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
