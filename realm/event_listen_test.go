package realm

import (
	"context"
	"testing"
	"time"
)

func TestListenerDeliversEventsInProcess(t *testing.T) {
	r, _ := newTestRealm(t, WithHeartbeat(20*time.Millisecond))
	l, err := r.As(idIago).Listen(bg, RegisterRequest{Queue: QueueOptions{EventTypes: []string{"message"}, ApplyMarkdown: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.State.LastEventID != -1 {
		t.Fatalf("state %v", l.State)
	}
	go func() {
		for i := 0; i < 3; i++ {
			r.As(idHamlet).SendChannelMessage(bg, "Denmark", "bots", "ping")
		}
	}()
	ctx, cancel := context.WithTimeout(bg, 5*time.Second)
	defer cancel()
	var got []int64
	for ev, err := range l.Events(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ev.Payload.(*MessageEvent).Message.ID)
		if len(got) == 3 {
			break
		}
	}
	if len(got) != 3 || got[0] != 1 || got[2] != 3 {
		t.Fatalf("got %v", got)
	}
	if err := l.Close(); err != nil || r.QueueCount() != 0 {
		t.Fatalf("close: %v, %d queues left", err, r.QueueCount())
	}
	for _, err := range l.Events(ctx) {
		if err == nil {
			t.Fatal("a closed listener yielded an event")
		}
		break
	}
}

func TestListenerStopsOnContext(t *testing.T) {
	r, _ := newTestRealm(t)
	l, _ := r.As(idIago).Listen(bg, RegisterRequest{Queue: QueueOptions{EventTypes: []string{"message"}}})
	ctx, cancel := context.WithCancel(bg)
	done := make(chan struct{})
	go func() {
		for range l.Events(ctx) {
		}
		close(done)
	}()
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the iterator did not stop on cancellation")
	}
}
