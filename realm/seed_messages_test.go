package realm

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/message"
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

// Seeded messages are one second apart, oldest first, the last sent at the
// realm's now, after the channels they go to were created: a history
// sent within one instant would be shown in an arbitrary order by clients
// that sort by timestamp (zulip-terminal does). The realm keeps its own
// clock afterwards.
func TestSeededMessagesSpreadOverTime(t *testing.T) {
	r, clk := newTestRealm(t, WithSeededMessages(30))
	now := clk.Now().Unix()
	timestamp := func(id int64) int64 { return storedMessage(t, r, id).Timestamp }
	var all []int64
	for id := int64(1); id <= 30; id++ {
		all = append(all, timestamp(id))
	}
	for i := 1; i < len(all); i++ {
		if all[i]-all[i-1] != 1 {
			t.Fatalf("messages %d and %d are %d s apart, want 1 (timestamps %v)", i, i+1, all[i]-all[i-1], all)
		}
	}
	if all[29] != now || all[0] != now-29 {
		t.Fatalf("seeded timestamps run %d..%d, want %d..%d", all[0], all[29], now-29, now)
	}
	_ = r.view(func() error {
		for _, c := range r.channels.byID {
			if c.DateCreated >= all[0] {
				t.Errorf("channel %q created at %d, not before the first seeded message (%d)", c.Name, c.DateCreated, all[0])
			}
		}
		return nil
	})
	clk.Advance(time.Hour)
	res, err := r.As(idHamlet).SendMessage(context.Background(), SendRequest{Type: "stream", To: message.To{ChannelName: "Denmark"}, Topic: str("later"), Content: "after the seed"})
	if err != nil {
		t.Fatal(err)
	}
	if got := timestamp(res.ID); got != now+3600 {
		t.Fatalf("a message sent an hour later has timestamp %d, want %d: the realm lost its clock", got, now+3600)
	}
}
