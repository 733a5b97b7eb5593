package realm

import (
	"testing"

	"github.com/minizulip/minizulip/message"
)

// benchReactors are the users holding the benchmarks' message; each has
// reacted with ten emoji, 50 reactions in all.
var benchReactors = []int{idIago, idOthello, idCordelia, idAaron, idPolonius}

// reactedMessage stores a channel message held by benchReactors and
// hamlet, carrying 50 reactions, and opens a queue for hamlet.
func reactedMessage(b *testing.B) (*Realm, int64) {
	r, _ := newTestRealm(b)
	emojiNames := []string{"smile", "tada", "heart", "rocket", "eyes", "fire", "star", "wave", "clap", "pray"}
	r.mu.Lock()
	ch, rendered, now := r.benchChannel("bench", append([]int{idHamlet}, benchReactors...)...)
	m := r.storeBenchMessage(ch, idHamlet, "t", rendered, now, 0, append([]int{idHamlet}, benchReactors...)...)
	for _, uid := range benchReactors {
		for _, name := range emojiNames {
			code, typ, err := r.emojiByName(name)
			if err != nil {
				b.Fatal(err)
			}
			c := m.Changes()
			c.Reactions = append(c.Reactions, message.Reaction{EmojiName: name, EmojiCode: code, ReactionType: typ, UserID: uid})
			m.SetChanges(c)
		}
	}
	r.mu.Unlock()
	if n := len(m.Changes().Reactions); n != 50 {
		b.Fatalf("%d reactions", n)
	}
	mustQueueB(b, r, idHamlet)
	return r, m.ID
}

func mustQueueB(b *testing.B, r *Realm, userID int) {
	if _, err := r.As(userID).RegisterQueue(bg, QueueOptions{}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkAddReactionTo50 adds hamlet's reaction to a message that has
// 50 reactions, and takes it away again, through the actor: each half
// checks the message, the emoji and the existing reactions, and sends a
// reaction event to the message's six holders. Compare with
// BenchmarkStarMessageBaseline and BenchmarkGetMessageWith50Reactions.
func BenchmarkAddReactionTo50(b *testing.B) {
	r, id := reactedMessage(b)
	a := r.As(idHamlet)
	add, remove := reactionReq(id, "thumbs_up", "", ""), reactionReq(id, "thumbs_up", "", "")
	b.ReportAllocs()
	for b.Loop() {
		if err := a.AddReaction(bg, add); err != nil {
			b.Fatal(err)
		}
		if err := a.RemoveReaction(bg, remove); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStarMessageBaseline stars the same message and unstars it
// (POST /messages/flags twice): the same lock, message lookup and one
// event per half, to hamlet alone.
func BenchmarkStarMessageBaseline(b *testing.B) {
	r, id := reactedMessage(b)
	a := r.As(idHamlet)
	b.ReportAllocs()
	for b.Loop() {
		for _, op := range []string{"add", "remove"} {
			if _, err := a.UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{id}, Op: op, Flag: "starred"}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkGetMessageWith50Reactions fetches the message (GET
// /messages/{id}), whose object lists the 50 reactions.
func BenchmarkGetMessageWith50Reactions(b *testing.B) {
	r, id := reactedMessage(b)
	a := r.As(idHamlet)
	b.ReportAllocs()
	for b.Loop() {
		m, _, err := a.Message(bg, id, ViewOptions{ApplyMarkdown: true})
		if err != nil || len(m.Reactions) != 50 {
			b.Fatal(err, len(m.Reactions))
		}
	}
}
