package realm

import (
	"fmt"
	"slices"
	"testing"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/topic"
)

// BenchmarkChannelTopics lists the topics of a channel of 10,000 topics in
// realms of 100,000 and 1,000,000 messages (all in that channel). "index"
// is ChannelTopics, which must cost the same in both; "scan" is the
// baseline of walking the channel's messages and grouping them by topic,
// whose cost grows with the messages.
func BenchmarkChannelTopics(b *testing.B) {
	const topics = 10_000
	for _, size := range []int{100_000, 1_000_000} {
		r, _ := newTestRealm(b)
		r.mu.Lock()
		ch, rendered, now := r.benchChannel("bench", idIago)
		for i := range size {
			r.storeBenchMessage(ch, idIago, fmt.Sprintf("topic %d", i%topics), rendered, now, message.Read, idIago)
		}
		r.mu.Unlock()
		a := r.As(idIago)
		b.Run(fmt.Sprintf("messages=%d/index", size), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				got, err := a.ChannelTopics(bg, ChannelTopicsRequest{ChannelID: ch.ID})
				if err != nil || len(got) != topics {
					b.Fatalf("%v, %d topics", err, len(got))
				}
			}
		})
		b.Run(fmt.Sprintf("messages=%d/scan", size), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if got := scanChannelTopics(r, ch.ID); len(got) != topics {
					b.Fatalf("%d topics", len(got))
				}
			}
		})
	}
}

// scanChannelTopics is the baseline: every message of the channel,
// grouped by topic key, newest first.
func scanChannelTopics(r *Realm, channelID int) []ChannelTopic {
	r.mu.RLock()
	defer r.mu.RUnlock()
	newest := map[string]*message.Message{}
	r.messages.store.Channel(channelID).Up(0, func(m *message.Message) bool {
		newest[topic.Key(m.Topic)] = m
		return true
	})
	out := make([]ChannelTopic, 0, len(newest))
	for _, m := range newest {
		out = append(out, ChannelTopic{Name: m.Topic, MaxID: m.ID})
	}
	slices.SortFunc(out, func(a, b ChannelTopic) int { return int(b.MaxID - a.MaxID) })
	return out
}
