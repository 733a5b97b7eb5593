package realm

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A call whose context is done before it gets the realm fails with the
// context's error and changes nothing.
func TestDoneContextChangesNothing(t *testing.T) {
	r, _ := newTestRealm(t)
	sent, err := r.As(idHamlet).SendChannelMessage(bg, "Verona", "t", "kept")
	if err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(bg)
	cancel()
	before, beforeMsgs := frozen(r)
	if _, err := r.As(idHamlet).SendChannelMessage(done, "Verona", "t", "never"); !errors.Is(err, context.Canceled) {
		t.Errorf("send: %v, want context.Canceled", err)
	}
	if err := r.As(idHamlet).DeleteMessage(done, sent.ID); !errors.Is(err, context.Canceled) {
		t.Errorf("delete: %v, want context.Canceled", err)
	}
	if _, err := r.As(idHamlet).CreateDrafts(done, []DraftInput{{Content: "never"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("draft: %v, want context.Canceled", err)
	}
	if _, _, err := r.As(idHamlet).Message(done, sent.ID, ViewOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("read: %v, want context.Canceled", err)
	}
	if diff := stateDiff(before, &r.tables); diff != "" || messagesOf(&r.tables) != beforeMsgs {
		t.Errorf("a refused call changed the realm:\n%s", diff)
	}
}

// A call whose context ends while it waits for the realm's lock fails
// with the context's error once it gets the lock, changing nothing.
func TestContextEndedWhileWaiting(t *testing.T) {
	r, _ := newTestRealm(t)
	before := r.messages.store.Len()
	ctx, cancel := context.WithCancel(bg)
	r.mu.Lock() // a long write holds the realm
	result := make(chan error, 1)
	go func() {
		_, err := r.As(idHamlet).SendChannelMessage(ctx, "Verona", "t", "late")
		result <- err
	}()
	cancel()
	r.mu.Unlock()
	select {
	case err := <-result:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("send: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the send never returned")
	}
	if n := r.messages.store.Len(); n != before {
		t.Errorf("%d messages after the refused send, want %d", n, before)
	}
}
