// Command inprocess shows minizulip used as a library: a realm in memory,
// messages sent and read through typed Go calls, no HTTP at all.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm"
)

func main() {
	if err := run(os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run is the example; it writes what it sees to w.
func run(w io.Writer) error {
	ctx := context.Background()
	r := realm.New() // the Zulip dev realm: iago, hamlet, Verona, Denmark…

	iago, _ := r.UserIDByEmail("iago@zulip.com")
	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")

	// Hamlet listens for his message events, in-process.
	l, err := r.As(hamlet).Listen(ctx, realm.RegisterRequest{
		Queue: realm.QueueOptions{EventTypes: []string{"message"}, ApplyMarkdown: true},
	})
	if err != nil {
		return err
	}
	defer l.Close()

	sent, err := r.As(iago).SendChannelMessage(ctx, "Denmark", "castle", "Something is **rotten** here.")
	if err != nil {
		return err
	}
	if _, err := r.As(iago).SendDirectMessage(ctx, []int{hamlet}, "A word in private?"); err != nil {
		return err
	}

	// Hamlet reads the newest messages of the topic, as GET /messages would.
	res, err := r.As(hamlet).Messages(ctx, realm.FetchRequest{
		Anchor:        realm.Anchor{ID: realm.AnchorNewest},
		NumBefore:     10,
		IncludeAnchor: true,
		Narrow: []message.Term{
			{Operator: "channel", Operand: "Denmark"},
			{Operator: "topic", Operand: "castle"},
		},
		View: realm.ViewOptions{ApplyMarkdown: true},
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "sent message %d\n", sent.ID)
	for _, m := range res.Messages {
		fmt.Fprintf(w, "#%s > %s | %s: %s %v\n", m.DisplayRecipient, m.Subject, m.SenderFullName, m.Content, m.Flags)
	}

	// The same messages arrived as events.
	for ev, err := range l.Events(ctx) {
		if err != nil {
			return err
		}
		m := ev.Payload.(*realm.MessageEvent).Message
		fmt.Fprintf(w, "event %d: message %d from %s\n", ev.ID, m.ID, m.SenderFullName)
		if ev.ID == 1 {
			break
		}
	}

	// Errors carry Zulip's API codes.
	_, err = r.As(hamlet).SendChannelMessage(ctx, "Atlantis", "t", "hello?")
	fmt.Fprintln(w, "error:", err)
	return nil
}
