package realm

import (
	"reflect"
	"testing"

	"github.com/minizulip/minizulip/message"
)

// storedMessage is message id as the store holds it now.
func storedMessage(t *testing.T, r *Realm, id int64) *message.Message {
	t.Helper()
	var m *message.Message
	_ = r.view(func() error {
		m, _ = r.messages.store.Message(id)
		return nil
	})
	if m == nil {
		t.Fatalf("message %d not stored", id)
	}
	return m
}

// TestChangedMessagesAreCopiesNeverChangedInPlace checks that a message
// pointer read before an edit, a move or a reaction still shows the
// message as it was (readers build views from it after releasing the
// lock), while the store holds the changed copy in every index.
func TestChangedMessagesAreCopiesNeverChangedInPlace(t *testing.T) {
	r, _ := newTestRealm(t)
	a := r.As(idIago)
	res, err := a.SendChannelMessage(bg, "Verona", "castle", "first words")
	if err != nil {
		t.Fatal(err)
	}
	id := res.ID
	steps := []struct {
		name   string
		change func() error
		check  func(before, after *message.Message)
	}{
		{"edit", func() error {
			_, err := a.UpdateMessage(bg, UpdateMessageRequest{MessageID: id, Content: str("second words")})
			return err
		}, func(before, after *message.Message) {
			if before.Content != "first words" || after.Content != "second words" || before.Changes().Edits != nil {
				t.Errorf("edit: before %q (%d edits), after %q", before.Content, before.Changes().Edits.Len(), after.Content)
			}
		}},
		{"reaction", func() error { return r.As(idHamlet).AddReaction(bg, reactionReq(id, "smile", "", "")) },
			func(before, after *message.Message) {
				if len(before.Changes().Reactions) != 0 || len(after.Changes().Reactions) != 1 {
					t.Errorf("reaction: %d reactions before, %d after", len(before.Changes().Reactions), len(after.Changes().Reactions))
				}
			}},
		{"move", func() error {
			_, err := a.UpdateMessage(bg, UpdateMessageRequest{MessageID: id, Topic: str("moat"), PropagateMode: ChangeAll})
			return err
		}, func(before, after *message.Message) {
			if before.Topic != "castle" || after.Topic != "moat" {
				t.Errorf("move: topic %q before, %q after", before.Topic, after.Topic)
			}
		}},
		{"reaction removed", func() error { return r.As(idHamlet).RemoveReaction(bg, reactionReq(id, "smile", "", "")) },
			func(before, after *message.Message) {
				if len(before.Changes().Reactions) != 1 || len(after.Changes().Reactions) != 0 {
					t.Errorf("removal: %d reactions before, %d after", len(before.Changes().Reactions), len(after.Changes().Reactions))
				}
			}},
	}
	for _, s := range steps {
		before := storedMessage(t, r, id)
		kept := *before
		if err := s.change(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		after := storedMessage(t, r, id)
		if after == before {
			t.Fatalf("%s: changed in place", s.name)
		}
		if !reflect.DeepEqual(kept, *before) {
			t.Errorf("%s: the old version changed: %+v, now %+v", s.name, kept, *before)
		}
		s.check(before, after)
		verifyIndexes(t, r)
	}
}

// verifyIndexes checks every index of r's store against a full scan.
func verifyIndexes(t *testing.T, r *Realm) {
	t.Helper()
	r.mu.RLock()
	defer r.mu.RUnlock()
	users := make([]int, 0, len(r.users.byID))
	for id := range r.users.byID {
		users = append(users, id)
	}
	if err := r.messages.store.Verify(func(m *message.Message) int {
		if c := r.recipients.conversations[conversationKey(m.DMUserIDs)]; c != nil {
			return c.id
		}
		return -1
	}, users); err != nil {
		t.Fatal(err)
	}
}
