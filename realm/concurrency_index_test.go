package realm

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/minizulip/minizulip/linkifier"
	"github.com/minizulip/minizulip/message"
)

// TestConcurrentSendsReadsAndPollsKeepTheStoreConsistent mixes senders
// (channel and direct messages, topic moves, deletions), readers marking
// what they fetch as read, long polls, and an administrator whose writes
// make prepared sends stale; then it checks every index of the store
// against a full scan, and each message's copies against who may see it.
// Run with -race.
func TestConcurrentSendsReadsAndPollsKeepTheStoreConsistent(t *testing.T) {
	r, _ := newTestRealm(t, WithHeartbeat(20*time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	users := []int{idHamlet, idIago, idOthello, idCordelia, idZoe}
	veronaBefore := veronaSubscribers(r)
	var wg sync.WaitGroup
	sendersDone := make(chan struct{})
	var senders sync.WaitGroup
	for i, uid := range users {
		senders.Add(1)
		go func() { // sender
			defer senders.Done()
			a := r.As(uid)
			for j := 0; j < 40; j++ {
				topicName := fmt.Sprintf("t%d", j%4)
				res, err := a.SendChannelMessage(ctx, "Verona", topicName, fmt.Sprintf("hello %d from %d, see X%d-1", j, uid, j))
				if err != nil {
					t.Error(err)
					return
				}
				switch j % 8 {
				case 3:
					_ = a.DeleteMessage(ctx, res.ID)
				case 5:
					moved := topicName + " moved"
					if _, err := a.UpdateMessage(ctx, UpdateMessageRequest{MessageID: res.ID, Topic: &moved}); err != nil {
						t.Errorf("moving %d: %v", res.ID, err)
					}
				}
				if _, err := a.SendDirectMessage(ctx, []int{users[(i+1)%len(users)], users[(i+2)%len(users)]}, "psst"); err != nil {
					t.Error(err)
				}
				if j%10 == 0 {
					_, _ = a.Subscribe(ctx, SubscribeRequest{Channels: []ChannelSpec{{Name: fmt.Sprintf("room %d", j%3)}}})
					_, _ = a.SendChannelMessage(ctx, fmt.Sprintf("room %d", j%3), "chat", "anyone?")
				}
			}
		}()
	}
	for _, uid := range users {
		wg.Add(1)
		go func() { // reader with a long-polled event queue
			defer wg.Done()
			a := r.As(uid)
			l, err := a.Listen(ctx, RegisterRequest{})
			if err != nil {
				t.Error(err)
				return
			}
			defer l.Close()
			for {
				res, err := a.Messages(ctx, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 30, IncludeAnchor: true,
					Narrow: narrow(t, `[["channel","Verona"]]`)})
				if err != nil {
					t.Error(err)
					return
				}
				ids := make([]int64, 0, len(res.Messages))
				for _, m := range res.Messages {
					ids = append(ids, m.ID)
				}
				_, _ = a.UpdateMessageFlags(ctx, FlagsRequest{Messages: ids, Op: "add", Flag: message.FlagRead})
				poll, stop := context.WithTimeout(ctx, 50*time.Millisecond)
				_, err = l.Next(poll)
				stop()
				if err != nil && ctx.Err() == nil && poll.Err() == nil {
					t.Error(err)
					return
				}
				select {
				case <-sendersDone:
					return
				default:
				}
			}
		}()
	}
	wg.Add(1)
	go func() { // an administrator: each write makes prepared sends stale
		defer wg.Done()
		a := r.As(idIago)
		for j := 0; ; j++ {
			id, err := a.AddLinkifier(ctx, linkifier.Spec{Pattern: fmt.Sprintf(`X%d-(?P<id>[0-9]+)`, j%40), URLTemplate: "https://x/{id}"})
			if err == nil {
				_ = a.DeleteLinkifier(ctx, id)
			}
			select {
			case <-sendersDone:
				return
			default:
			}
		}
	}()
	senders.Wait()
	close(sendersDone)
	wg.Wait()
	if t.Failed() {
		return
	}
	if got := veronaSubscribers(r); !slices.Equal(got, veronaBefore) {
		t.Fatalf("Verona's subscribers changed: %v → %v", veronaBefore, got)
	}
	checkStore(t, r)
}

// veronaSubscribers lists Verona's active subscribers, sorted.
func veronaSubscribers(r *Realm) []int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	ids := r.subscriberIDs(r.channels.byName[channelKey("Verona")].ID)
	slices.Sort(ids)
	return ids
}

// checkStore verifies the message store's indexes (store.Verify) and that
// each message's copies went to exactly who may see it: a direct
// message's participants; a channel message's sender and subscribers.
// Subscriptions must only have grown since the messages were sent, and
// no copy may come from reading history (starring, reacting).
func checkStore(t *testing.T, r *Realm) {
	t.Helper()
	r.mu.RLock()
	defer r.mu.RUnlock()
	users := make([]int, 0, len(r.users.byID))
	for id := range r.users.byID {
		users = append(users, id)
	}
	conversationOf := func(m *message.Message) int {
		if c := r.recipients.conversations[conversationKey(m.DMUserIDs)]; c != nil {
			return c.id
		}
		return -1
	}
	if err := r.messages.store.Verify(conversationOf, users); err != nil {
		t.Fatal(err)
	}
	count := 0
	r.messages.store.All().Up(0, func(m *message.Message) bool {
		count++
		var holders []int
		r.messages.store.Holders(m.ID, func(uid int, _ message.Flags) { holders = append(holders, uid) })
		slices.Sort(holders)
		if m.Type == message.Direct {
			if !slices.Equal(holders, m.DMUserIDs) {
				t.Errorf("direct message %d: copies for %v, participants %v", m.ID, holders, m.DMUserIDs)
			}
			return true
		}
		for _, uid := range holders {
			if uid != m.SenderID && !r.isSubscribed(m.ChannelID, uid) {
				t.Errorf("message %d in channel %d: user %d holds a copy and is not subscribed", m.ID, m.ChannelID, uid)
			}
		}
		if !slices.Contains(holders, m.SenderID) {
			t.Errorf("message %d: the sender %d holds no copy", m.ID, m.SenderID)
		}
		if m.ChannelID == r.channels.byName[channelKey("Verona")].ID {
			// Verona's subscribers never changed: they all hold a copy.
			for _, uid := range r.subscriberIDs(m.ChannelID) {
				if !slices.Contains(holders, uid) {
					t.Errorf("Verona message %d: subscriber %d holds no copy", m.ID, uid)
				}
			}
		}
		return true
	})
	if count == 0 {
		t.Fatal("no message was stored")
	}
}
