package realm

import (
	"testing"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// benchTopicSize is the topic BenchmarkMarkTopicAsRead marks read: marking
// it must take under 50 ms.
const benchTopicSize = 100_000

// fillUnreadTopic creates a channel with iago as its only subscriber and
// stores n messages in one topic, each unread in iago's copy, plus n/10 in
// another topic (unread too, so the unread index holds more than the
// topic), bypassing rendering. It returns the channel and the topic's IDs.
func fillUnreadTopic(r *Realm, name, topicName string, n int) (channelID int, ids []int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ch, rendered, now := r.benchChannel(name, idIago)
	for i := 0; i < n+n/10; i++ {
		t := topicName
		if i%11 == 10 {
			t = "elsewhere"
		}
		m := r.storeBenchMessage(ch, idHamlet, t, rendered, now, 0, idIago)
		if t == topicName {
			ids = append(ids, m.ID)
		}
	}
	return ch.ID, ids
}

// markUnread puts the copies back as they were before a mark, outside the
// measured time.
func markUnread(r *Realm, ids []int64) {
	r.mu.Lock()
	r.messages.store.SetFlag(idIago, ids, message.Read, false)
	r.mu.Unlock()
}

// BenchmarkMarkTopicAsRead marks a 100,000-message topic read through the
// actor (POST /mark_topic_as_read): the topic's messages are found in the
// user's unread index and marked in one batch. Compare with
// BenchmarkMarkTopicAsReadBaseline, the walk alone.
func BenchmarkMarkTopicAsRead(b *testing.B) {
	r, _ := newTestRealm(b)
	chID, ids := fillUnreadTopic(r, "bench", "Big topic", benchTopicSize)
	if len(ids) != benchTopicSize {
		b.Fatalf("%d messages in the topic", len(ids))
	}
	a := r.As(idIago)
	b.ReportAllocs()
	for b.Loop() {
		if err := a.MarkTopicAsRead(bg, chID, "big TOPIC"); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if got := len(unreadIDs(r, idIago)); got != benchTopicSize/10 {
			b.Fatalf("%d unread after marking, want %d", got, benchTopicSize/10)
		}
		markUnread(r, ids)
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/mark")
}

// BenchmarkMarkTopicAsReadBaseline walks the same copies MarkTopicAsRead
// walks (the user's unread index, matching the topic) under the same lock,
// changing nothing: the floor a mark cannot go below.
func BenchmarkMarkTopicAsReadBaseline(b *testing.B) {
	r, _ := newTestRealm(b)
	chID, _ := fillUnreadTopic(r, "bench", "Big topic", benchTopicSize)
	a := r.As(idIago)
	inTopic := topicMatcher("big TOPIC")
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		_ = a.write(bg, func(*user.User) error {
			r.messages.store.Unread(idIago).Up(0, func(m *message.Message) bool {
				if m.Type == message.Channel && m.ChannelID == chID && inTopic(m.Topic) {
					n++
				}
				return true
			})
			return nil
		})
		if n != benchTopicSize {
			b.Fatalf("walked %d", n)
		}
	}
}

// BenchmarkMarkTopicAsReadPerMessage marks the same copies read one
// SetFlags call at a time, as the store did before SetFlag: each call
// shifts the rest of an unread block, which is why the batch exists.
func BenchmarkMarkTopicAsReadPerMessage(b *testing.B) {
	r, _ := newTestRealm(b)
	_, ids := fillUnreadTopic(r, "bench", "Big topic", benchTopicSize)
	b.ReportAllocs()
	for b.Loop() {
		r.mu.Lock()
		for _, id := range ids {
			c, _ := r.messages.store.Copy(idIago, id)
			r.messages.store.SetFlags(idIago, id, c.Flags|message.Read)
		}
		r.mu.Unlock()
		b.StopTimer()
		markUnread(r, ids)
		b.StartTimer()
	}
}
