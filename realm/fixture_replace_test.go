package realm

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm/clock"
)

func TestLoadFixtureReplacesTheRealm(t *testing.T) {
	ctx := context.Background()
	src := New(WithSeed(SeedEmpty))
	if _, err := src.AddUser(NewUser{Email: "ada@example.com", FullName: "Ada"}); err != nil {
		t.Fatal(err)
	}
	doc, err := src.Dump()
	if err != nil {
		t.Fatal(err)
	}
	c := clock.NewManual(time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC))
	r := New(WithClock(c))
	iago, _ := r.UserIDByEmail("iago@zulip.com")
	if _, err := r.As(iago).SendChannelMessage(ctx, "Denmark", "castle", "before"); err != nil {
		t.Fatal(err)
	}
	before := r.Snapshot()
	q, err := r.As(iago).RegisterQueue(ctx, QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.LoadFixture(doc); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.UserIDByEmail("ada@example.com"); !ok {
		t.Fatal("the document's user is not there")
	}
	if _, ok := r.UserIDByEmail("iago@zulip.com"); ok {
		t.Fatal("the old realm's user is still there")
	}
	if r.MessageCount() != 0 || r.QueueCount() != 0 {
		t.Fatalf("%d messages, %d queues after the load", r.MessageCount(), r.QueueCount())
	}
	if _, err := r.As(iago).Events(ctx, GetEventsRequest{QueueID: q.ID(), LastEventID: -1, DontBlock: true}); err == nil {
		t.Fatal("the old queue survived")
	}
	if !r.Now().Equal(c.Now()) {
		t.Fatal("the clock moved")
	}
	// Reset goes back to the document; an older snapshot still restores.
	if _, err := r.AddUser(NewUser{Email: "bob@example.com", FullName: "Bob"}); err != nil {
		t.Fatal(err)
	}
	r.Reset()
	if _, ok := r.UserIDByEmail("bob@example.com"); ok {
		t.Fatal("reset kept a user added after the load")
	}
	if _, ok := r.UserIDByEmail("ada@example.com"); !ok {
		t.Fatal("reset lost the document's user")
	}
	if snap := r.Snapshot(); snap.ID() != 2 {
		t.Fatalf("snapshot numbering restarted: %d", snap.ID())
	}
	if err := r.Restore(before); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.UserIDByEmail("iago@zulip.com"); !ok || r.MessageCount() != 1 {
		t.Fatal("the snapshot from before the load did not come back")
	}
}

func TestLoadFixtureRefusesABadDocumentWhole(t *testing.T) {
	r := New()
	dump, _ := r.Dump()
	for _, doc := range []string{`{"minizulip_fixture":99}`, `not json`, `{"minizulip_fixture":1,"users":[{"user_id":1}]}`} {
		err := r.LoadFixture([]byte(doc))
		var fe *FixtureError
		if !errors.As(err, &fe) {
			t.Fatalf("%s: %v", doc, err)
		}
	}
	after, _ := r.Dump()
	if string(after) != string(dump) {
		t.Fatal("a refused document changed the realm")
	}
}
