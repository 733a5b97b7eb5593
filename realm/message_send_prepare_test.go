package realm

import (
	"strings"
	"testing"

	"github.com/minizulip/minizulip/linkifier"
)

// storedRendering is the stored HTML of message id.
func storedRendering(t *testing.T, r *Realm, id int64) string {
	t.Helper()
	r.mu.RLock()
	defer r.mu.RUnlock()
	m, ok := r.messages.store.Message(id)
	if !ok {
		t.Fatalf("message %d not stored", id)
	}
	return m.Rendered
}

// A write between a send's preparation and its commit (here a new
// linkifier) makes the send render again: the stored message shows the
// realm as it was at the commit.
func TestSendRendersAgainWhenTheRealmChangedMeanwhile(t *testing.T) {
	r, _ := newTestRealm(t)
	prepared := 0
	r.sendPrepared = func() {
		prepared++
		if prepared == 1 {
			if _, err := r.As(idIago).AddLinkifier(bg, linkifier.Spec{Pattern: `T(?P<id>[0-9]+)`, URLTemplate: "https://tracker.example/{id}"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	res, err := r.As(idHamlet).SendChannelMessage(bg, "Verona", "t", "see T42")
	if err != nil {
		t.Fatal(err)
	}
	if prepared != 2 {
		t.Fatalf("prepared %d times, want 2 (once stale, once current)", prepared)
	}
	if html := storedRendering(t, r, res.ID); !strings.Contains(html, `href="https://tracker.example/42"`) {
		t.Fatalf("stored rendering %q misses the linkifier added before the commit", html)
	}
}

// A send whose preparation keeps going stale is prepared under the write
// lock after maxSendPreparations tries: it is neither lost nor retried
// forever.
func TestSendPreparedUnderWriteLockWhenAlwaysStale(t *testing.T) {
	r, _ := newTestRealm(t)
	prepared := 0
	r.sendPrepared = func() {
		prepared++
		r.UpdateSettings(func(s *Settings) {}) // any write moves the generation
	}
	before := r.MessageCount()
	res, err := r.As(idHamlet).SendChannelMessage(bg, "Verona", "t", "hello")
	if err != nil {
		t.Fatal(err)
	}
	if prepared != maxSendPreparations {
		t.Fatalf("prepared under the read lock %d times, want %d", prepared, maxSendPreparations)
	}
	if r.MessageCount() != before+1 || storedRendering(t, r, res.ID) != "<p>hello</p>" {
		t.Fatalf("count %d→%d, rendering %q", before, r.MessageCount(), storedRendering(t, r, res.ID))
	}
}

// A change between preparation and commit that makes the send invalid
// (the channel archived) fails it on the second preparation, storing
// nothing.
func TestSendFailsWhenTheChannelIsArchivedMeanwhile(t *testing.T) {
	r, _ := newTestRealm(t)
	r.mu.RLock()
	verona := r.channels.byName[channelKey("Verona")].ID
	r.mu.RUnlock()
	r.sendPrepared = func() {
		r.sendPrepared = nil
		if err := r.As(idIago).ArchiveChannel(bg, verona); err != nil {
			t.Fatal(err)
		}
	}
	before := r.MessageCount()
	_, err := r.As(idHamlet).SendChannelMessage(bg, "Verona", "t", "hello")
	wantCode(t, err, CodeBadRequest, "Not authorized to send to channel 'Verona'")
	// The only new message is the Notification Bot's archive notice.
	if r.MessageCount() != before+1 {
		t.Fatalf("message count %d → %d after a failed send", before, r.MessageCount())
	}
}

// Sends do not move the generation, so concurrent sends do not make one
// another prepare again; other writes do.
func TestOnlyWritesOtherThanSendsMoveTheGeneration(t *testing.T) {
	r, _ := newTestRealm(t)
	gen := func() uint64 { r.mu.RLock(); defer r.mu.RUnlock(); return r.generation }
	g0 := gen()
	if _, err := r.As(idHamlet).SendChannelMessage(bg, "Verona", "t", "hello"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idHamlet).SendDirectMessage(bg, []int{idIago}, "hi"); err != nil {
		t.Fatal(err)
	}
	if g := gen(); g != g0 {
		t.Fatalf("sends moved the generation %d → %d", g0, g)
	}
	if _, err := r.As(idIago).AddLinkifier(bg, linkifier.Spec{Pattern: `Q(?P<id>[0-9]+)`, URLTemplate: "https://q/{id}"}); err != nil {
		t.Fatal(err)
	}
	if g := gen(); g == g0 {
		t.Fatal("adding a linkifier left the generation alone")
	}
}
