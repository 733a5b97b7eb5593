package realm_test

import (
	"context"
	"fmt"
	"time"

	"github.com/minizulip/minizulip/realm"
)

// A realm is used in-process: typed calls on behalf of a user.
func ExampleRealm_As() {
	ctx := context.Background()
	r := realm.New()
	iago, _ := r.UserIDByEmail("iago@zulip.com")
	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")

	sent, _ := r.As(iago).SendChannelMessage(ctx, "Denmark", "castle", "Something is **rotten**.")
	m, raw, _ := r.As(hamlet).GetMessage(ctx, sent.ID, realm.ViewOptions{ApplyMarkdown: true})
	fmt.Println(m.SenderFullName, "in", m.DisplayRecipient, ">", m.Subject)
	fmt.Println(raw)
	fmt.Println(m.Content)

	_, err := r.As(hamlet).SendChannelMessage(ctx, "Atlantis", "t", "hello?")
	fmt.Println(err)
	// Output:
	// Iago in Denmark > castle
	// Something is **rotten**.
	// <p>Something is <strong>rotten</strong>.</p>
	// STREAM_DOES_NOT_EXIST: Channel 'Atlantis' does not exist
}

// Tests move time with a ManualClock instead of sleeping.
func ExampleManualClock() {
	ctx := context.Background()
	clock := realm.NewManualClock(realm.SystemClock.Now())
	r := realm.New(realm.WithClock(clock))
	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")
	sent, _ := r.As(hamlet).SendChannelMessage(ctx, "Verona", "t", "oops")

	clock.Advance(11 * time.Minute) // past the 10-minute delete limit
	fmt.Println(r.As(hamlet).DeleteMessage(ctx, sent.ID))
	// Output:
	// BAD_REQUEST: The time limit for deleting this message has passed
}
