package realm

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// seededView is what a user sees of a seeded realm: every message they
// may read, oldest first, with reactions and flags.
func seededView(t *testing.T, r *Realm, userID int) []Message {
	t.Helper()
	res, err := r.As(userID).Messages(context.Background(), FetchRequest{Anchor: Anchor{ID: AnchorOldest}, NumAfter: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return res.Messages
}

// WithSeededMessages: the dev realm starts with n messages in channels
// and direct messages, one in five with a reaction, all read by every
// human; without it the realm has none.
func TestSeededMessages(t *testing.T) {
	r, _ := newTestRealm(t, WithSeededMessages(100))
	if n := r.messages.store.Len(); n != 100 {
		t.Fatalf("%d messages seeded, want 100", n)
	}
	var channel, direct, group, reacted int
	seen := map[int64]bool{}
	for _, uid := range r.seedHumans() {
		for _, m := range seededView(t, r, uid) {
			if !slices.Contains(m.Flags, "read") {
				t.Errorf("message %d is unread for user %d", m.ID, uid)
			}
			if seen[m.ID] {
				continue
			}
			seen[m.ID] = true
			switch {
			case m.Type == "stream":
				channel++
			case len(m.DisplayRecipient.([]DisplayRecipientUser)) == 2:
				direct++
			default:
				group++
			}
			if len(m.Reactions) > 0 {
				reacted++
			}
		}
	}
	if reacted != 20 {
		t.Errorf("%d messages have reactions, want one in five (20)", reacted)
	}
	if len(seen) != 100 {
		t.Fatalf("the humans see %d messages together, want 100", len(seen))
	}
	if channel == 0 || direct == 0 || group == 0 || reacted == 0 {
		t.Fatalf("the humans see %d channel, %d one-to-one, %d group messages, %d with reactions: want some of each", channel, direct, group, reacted)
	}
	for _, id := range []int{idHamlet, idCordelia, idOthello} {
		var unread UnreadMessages
		_ = r.view(func() error {
			unread = r.unreadMessages(r.users.byID[id], false)
			return nil
		})
		if unread.Count != 0 {
			t.Errorf("user %d has %d unread messages, want none", id, unread.Count)
		}
	}
	if empty, _ := newTestRealm(t); empty.messages.store.Len() != 0 {
		t.Fatalf("without the option the realm has %d messages", empty.messages.store.Len())
	}
}

// The same n seeds the same messages, so a suite's expectations hold run
// after run.
func TestSeededMessagesAreDeterministic(t *testing.T) {
	a, _ := newTestRealm(t, WithSeededMessages(40))
	b, _ := newTestRealm(t, WithSeededMessages(40))
	if diff := cmp.Diff(seededView(t, a, idHamlet), seededView(t, b, idHamlet)); diff != "" {
		t.Fatalf("two seeds differ (-a +b):\n%s", diff)
	}
}
