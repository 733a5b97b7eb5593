package realm

import (
	"context"
	"fmt"
	"testing"

	"github.com/minizulip/minizulip/realm/clock"
	"github.com/minizulip/minizulip/realm/internal/store"
)

// sendUnread sends n messages from iago to Verona, unread for hamlet.
func sendUnread(t *testing.T, r *Realm, n int) {
	t.Helper()
	for i := range n {
		must(t, errOf(r.As(idIago).SendChannelMessage(bg, "Verona", "pile", fmt.Sprint("m", i))))
	}
}

// hamletUnread counts hamlet's unread messages.
func hamletUnread(r *Realm) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	n := 0
	r.messages.store.UnreadCopies(idHamlet, func(store.Copy) bool { n++; return true })
	return n
}

// Under FirstBatchOnly mark-all-as-read marks its first batch (the
// newest messages) and says it is not complete, with no event; asked
// again, it marks the rest.
func TestFirstBatchOnlyStopsMarkAllAsRead(t *testing.T) {
	r, _ := newTestRealm(t)
	sendUnread(t, r, markAllBatch+150)
	before := hamletUnread(r)
	q := mustQueue(t, r, idHamlet, QueueOptions{})
	res, err := r.As(idHamlet).MarkAllAsRead(FirstBatchOnly(bg))
	if err != nil || res.Complete {
		t.Fatalf("MarkAllAsRead = %+v, %v; want not complete", res, err)
	}
	if got := hamletUnread(r); got != before-markAllBatch {
		t.Errorf("%d unread after the first batch, want %d", got, before-markAllBatch)
	}
	if evs := eventsOf(t, r, idHamlet, q, "update_message_flags"); len(evs) != 0 {
		t.Errorf("an incomplete run sent %v", evs)
	}
	if res, err := r.As(idHamlet).MarkAllAsRead(bg); err != nil || !res.Complete || hamletUnread(r) != 0 {
		t.Errorf("the repeated call = %+v, %v with %d unread left", res, err, hamletUnread(r))
	}
	// A context already ended still marks the first batch, as Zulip
	// marks one before it looks at the time.
	sendUnread(t, r, markAllBatch+10)
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if res, err := r.As(idHamlet).MarkAllAsRead(ctx); err != nil || res.Complete || hamletUnread(r) != 10 {
		t.Errorf("with an ended context = %+v, %v with %d unread left, want 10", res, err, hamletUnread(r))
	}
}

// A mark-all-as-read stopped part way is replayed as far as it went:
// after a crash the same messages are unread.
func TestDataDirReplaysAPartialMarkAllAsRead(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c)
	sendUnread(t, r, markAllBatch+150)
	if res, err := r.As(idHamlet).MarkAllAsRead(FirstBatchOnly(bg)); err != nil || res.Complete {
		t.Fatalf("MarkAllAsRead = %+v, %v", res, err)
	}
	want, unread := dumpOf(t, r), hamletUnread(r)
	crash(r)
	r2, _ := openTestDir(t, dir, clock.NewManual(c.Now()))
	defer r2.Close()
	if got := hamletUnread(r2); got != unread {
		t.Errorf("after the replay %d unread, want %d", got, unread)
	}
	if got := dumpOf(t, r2); got != want {
		t.Errorf("after the replay the dump differs:\n%s", lineDiff(want, got))
	}
}
