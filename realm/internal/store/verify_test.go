package store

import (
	"strings"
	"testing"

	"github.com/minizulip/minizulip/message"
)

// fixtureConversation is the conversation ID of fixture's direct messages.
func fixtureConversation(*message.Message) int { return 7 }

func TestVerifyPassesAConsistentStore(t *testing.T) {
	s, msgs := fixture(t)
	if err := s.Verify(fixtureConversation, []int{10, 11, 12}); err != nil {
		t.Fatal(err)
	}
	s.Remove(msgs[2], 0)
	s.SetFlags(10, 1, message.Read)
	if err := s.Verify(fixtureConversation, []int{10, 11, 12}); err != nil {
		t.Fatalf("after a removal and a flag change: %v", err)
	}
}

// Each kind of inconsistency is reported: the corruptions go through the
// exported methods or break the contract that the indexed fields of a
// stored message never change in place.
func TestVerifyFindsInconsistencies(t *testing.T) {
	for name, c := range map[string]struct {
		corrupt func(s *Store, msgs map[int64]*message.Message)
		want    string
	}{
		"topic changed in place":   {func(s *Store, m map[int64]*message.Message) { m[2].Topic = "drawbridge" }, `missing from topic 1/"drawbridge"`},
		"channel changed in place": {func(s *Store, m map[int64]*message.Message) { m[4].ChannelID = 3 }, "missing from topic 3"},
		"sender changed in place":  {func(s *Store, m map[int64]*message.Message) { m[3].SenderID = 12 }, "missing from sender 12"},
		"copy of an unstored message": {func(s *Store, m map[int64]*message.Message) {
			s.Deliver(12, &message.Message{ID: 99, Type: message.Channel, ChannelID: 1}, 0)
		}, "user 12: NewestCopyID 99"}, // copies hold IDs: the dangling one shows as a newest copy no walk reaches
		"unread index out of step": {func(s *Store, m map[int64]*message.Message) {
			s.Deliver(10, m[4], message.Read) // replaces the copy, leaves the unread entry
		}, "user 10's unread"},
	} {
		t.Run(name, func(t *testing.T) {
			s, msgs := fixture(t)
			c.corrupt(s, msgs)
			err := s.Verify(fixtureConversation, []int{10, 11, 12})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Verify: %v, want an error containing %q", err, c.want)
			}
		})
	}
}
