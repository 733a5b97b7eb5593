package realm_test

import (
	"context"
	"fmt"
	"time"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/realm/clock"
)

// A realm is used in-process: typed calls on behalf of a user.
func ExampleRealm_As() {
	ctx := context.Background()
	r := realm.New()
	iago, _ := r.UserIDByEmail("iago@zulip.com")
	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")

	sent, _ := r.As(iago).SendChannelMessage(ctx, "Denmark", "castle", "Something is **rotten**.")
	m, raw, _ := r.As(hamlet).Message(ctx, sent.ID, realm.ViewOptions{ApplyMarkdown: true})
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

// Tests move time with a manual clock instead of sleeping.
func ExampleWithClock() {
	ctx := context.Background()
	c := clock.NewManual(clock.System.Now())
	r := realm.New(realm.WithClock(c))
	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")
	sent, _ := r.As(hamlet).SendChannelMessage(ctx, "Verona", "t", "oops")

	c.Advance(11 * time.Minute) // past the 10-minute delete limit
	fmt.Println(r.As(hamlet).DeleteMessage(ctx, sent.ID))
	// Output:
	// BAD_REQUEST: The time limit for deleting this message has passed
}

// A listener reads a user's events in-process, from the same queues
// GET /events serves.
func ExampleActor_Listen() {
	ctx := context.Background()
	r := realm.New()
	iago, _ := r.UserIDByEmail("iago@zulip.com")
	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")

	l, _ := r.As(hamlet).Listen(ctx, realm.RegisterRequest{Queue: realm.QueueOptions{EventTypes: []string{"message"}}})
	defer l.Close()
	_, _ = r.As(iago).SendChannelMessage(ctx, "Denmark", "castle", "Who's there?")

	deadline, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for ev, err := range l.Events(deadline) {
		if err != nil {
			fmt.Println(err)
			break
		}
		m := ev.Payload.(*realm.MessageEvent).Message
		fmt.Println(ev.Type, m.SenderFullName+":", m.Content)
		break
	}
	// Output:
	// message Iago: Who's there?
}

// A snapshot is taken in the time it takes to copy the users and
// channels, whatever the number of messages; Restore goes back to it.
func ExampleRealm_Snapshot() {
	ctx := context.Background()
	r := realm.New()
	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")

	before := r.Snapshot()
	sent, _ := r.As(hamlet).SendChannelMessage(ctx, "Verona", "t", "to be or not to be")
	_ = r.Restore(before)

	_, _, err := r.As(hamlet).Message(ctx, sent.ID, realm.ViewOptions{})
	fmt.Println(err)
	// Output:
	// BAD_REQUEST: Invalid message(s)
}

// A fork is an independent copy of a realm: what one does, the other
// does not see.
func ExampleRealm_Fork() {
	ctx := context.Background()
	r := realm.New()
	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")

	fork := r.Fork()
	sent, _ := fork.As(hamlet).SendChannelMessage(ctx, "Verona", "t", "only in the fork")

	_, _, inFork := fork.As(hamlet).Message(ctx, sent.ID, realm.ViewOptions{})
	_, _, inOrigin := r.As(hamlet).Message(ctx, sent.ID, realm.ViewOptions{})
	fmt.Println(inFork)
	fmt.Println(inOrigin)
	// Output:
	// <nil>
	// BAD_REQUEST: Invalid message(s)
}

// Time limits follow the realm's clock: moving it crosses them without
// sleeping.
func ExampleRealm_AdvanceClock() {
	ctx := context.Background()
	r := realm.New(realm.WithClock(clock.NewManual(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))))
	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")
	sent, _ := r.As(hamlet).SendChannelMessage(ctx, "Verona", "t", "first thoughts")

	_ = r.AdvanceClock(11 * time.Minute) // past the 10-minute edit limit
	content := "second thoughts"
	_, err := r.As(hamlet).UpdateMessage(ctx, realm.UpdateMessageRequest{MessageID: sent.ID, Content: &content})
	fmt.Println(r.Now().Format(time.Kitchen))
	fmt.Println(err)
	// Output:
	// 12:11AM
	// BAD_REQUEST: The time limit for editing this message has passed
}
