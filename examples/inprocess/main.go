// Command inprocess shows minizulip used as a library: a realm in memory,
// messages sent and read through typed Go calls, no HTTP at all.
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm"
)

func main() {
	ctx := context.Background()
	r := realm.New() // the Zulip dev realm: iago, hamlet, Verona, Denmark…

	iago, _ := r.UserIDByEmail("iago@zulip.com")
	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")

	sent, err := r.As(iago).SendChannelMessage(ctx, "Denmark", "castle", "Something is **rotten** here.")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := r.As(iago).SendDirectMessage(ctx, []int{hamlet}, "A word in private?"); err != nil {
		log.Fatal(err)
	}

	// Hamlet reads the newest messages of the topic, as GET /messages would.
	res, err := r.As(hamlet).GetMessages(ctx, realm.FetchRequest{
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
		log.Fatal(err)
	}
	fmt.Printf("sent message %d\n", sent.ID)
	for _, m := range res.Messages {
		fmt.Printf("#%s > %s | %s: %s %v\n", m.DisplayRecipient, m.Subject, m.SenderFullName, m.Content, m.Flags)
	}

	// Errors carry Zulip's API codes.
	_, err = r.As(hamlet).SendChannelMessage(ctx, "Atlantis", "t", "hello?")
	fmt.Println("error:", err)
}
