package realm

import (
	"context"
	"testing"

	"github.com/minizulip/minizulip/message"
)

// TestMarkAllAsReadInBatches: an interrupted mark-all keeps the newest
// batch it marked, answers incomplete and sends no event; the repeated
// call finishes and sends the one "all" event.
func TestMarkAllAsReadInBatches(t *testing.T) {
	r, _ := newTestRealm(t)
	var oldest, newest int64
	r.mu.Lock()
	ch, rendered, now := r.benchChannel("bulk", idHamlet)
	for i := range markAllBatch + 500 {
		m := r.storeBenchMessage(ch, idIago, "t", rendered, now, 0, idHamlet)
		if i == 0 {
			oldest = m.ID
		}
		newest = m.ID
	}
	r.mu.Unlock()
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"update_message_flags"}})
	stopped, cancel := context.WithCancel(bg)
	cancel()
	res, err := r.As(idHamlet).MarkAllAsRead(stopped)
	if err != nil || res.Complete {
		t.Fatalf("interrupted: %+v %v", res, err)
	}
	left := unreadIDs(r, idHamlet)
	if len(left) != 500 || left[0] != oldest || left[499] != oldest+499 {
		t.Fatalf("after the first batch %d unread, first %v; want the 500 oldest", len(left), left[:min(len(left), 1)])
	}
	if c, _ := r.messages.store.Copy(idHamlet, newest); c.Flags&message.Read == 0 {
		t.Fatal("the newest message should be in the first batch")
	}
	if evs := pending(t, r, idHamlet, q, -1); len(evs) != 0 {
		t.Fatalf("an incomplete run sent %d events", len(evs))
	}
	res, err = r.As(idHamlet).MarkAllAsRead(bg)
	if err != nil || !res.Complete || len(unreadIDs(r, idHamlet)) != 0 {
		t.Fatalf("repeat: %+v %v, %d unread", res, err, len(unreadIDs(r, idHamlet)))
	}
	evs := pending(t, r, idHamlet, q, -1)
	if len(evs) != 1 {
		t.Fatalf("events %v", evs)
	}
	if j := eventJSON(t, evs[0]); j["all"] != true || len(j["messages"].([]any)) != 0 || j["flag"] != "read" || j["op"] != "add" {
		t.Fatalf("event %v", j)
	}
	// Nothing unread: complete at once, still one event, as Zulip sends.
	res, _ = r.As(idHamlet).MarkAllAsRead(stopped)
	if !res.Complete || len(pending(t, r, idHamlet, q, 0)) != 1 {
		t.Fatalf("nothing to mark: %+v", res)
	}
}

// TestMarkChannelAsReadNeedsContentAccess: a guest may mark a web-public
// channel read (Zulip lets anyone read those); not a private one.
func TestMarkChannelAsReadNeedsContentAccess(t *testing.T) {
	r, _ := newTestRealm(t)
	if err := r.As(idPolonius).MarkChannelAsRead(bg, 5); err != nil {
		t.Fatalf("guest on web-public Rome: %v", err)
	}
	wantCode(t, r.As(idPolonius).MarkChannelAsRead(bg, 2), CodeBadRequest, "Invalid channel ID")
	wantCode(t, r.As(idCordelia).MarkChannelAsRead(bg, 6), CodeBadRequest, "Invalid channel ID")
}
