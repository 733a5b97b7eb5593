package realm

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/minizulip/minizulip/message"
)

// topicBenchSubscribers are the users of the benchmark channel: ten
// subscribers, as in a small team's channel.
var topicBenchSubscribers = []int{idIago, idHamlet, idOthello, idCordelia, idDesdemona, idProspero, idShiva, idZoe, idAaron, idPolonius}

// realmGrowths are the two ways the benchmarks grow a realm around the
// topic they work on: in other channels (a realm of many channels), or
// inside the topic's own channel (the worst case: every index the topic
// is filed in grows with the realm).
var realmGrowths = []string{"other-channels", "same-channel"}

// fillTopicRealm makes a realm of total messages, delivered to ten
// subscribers, of which topicSize are in the topic "big" of the public
// channel "bench", spread evenly among the others (the worst case for
// each user's message lists). The others are in other topics of "bench"
// when growth is "same-channel", else in a second channel, "elsewhere",
// with the same subscribers. It returns the realm and the first message
// of "big".
func fillTopicRealm(b *testing.B, total, topicSize int, growth string) (*Realm, int64) {
	r, _ := newTestRealm(b)
	// Let the collector finish with the set-up's garbage before timing.
	defer runtime.GC()
	r.mu.Lock()
	defer r.mu.Unlock()
	ch, rendered, now := r.benchChannel("bench", topicBenchSubscribers...)
	filler := ch
	if growth == "other-channels" {
		filler, _, _ = r.benchChannel("elsewhere", topicBenchSubscribers...)
	}
	every := total / topicSize
	first := int64(0)
	for i := 0; i < total; i++ {
		name, in := fmt.Sprintf("other %d", i%97), filler
		if i%every == 0 {
			name, in = "big", ch
		}
		m := r.storeBenchMessage(in, idIago, name, rendered, now, message.Read, topicBenchSubscribers...)
		if name == "big" && first == 0 {
			first = m.ID
		}
	}
	return r, first
}

// BenchmarkMoveTopic moves a 100,000-message topic with change_all,
// renaming it and moving it to another channel, back and forth, in
// realms of 100,000 and 1,000,000 messages. The baseline walks the same
// topic through its index without changing it: the floor any move pays.
func BenchmarkMoveTopic(b *testing.B) {
	const topicSize = 100_000
	for _, growth := range realmGrowths {
		for _, total := range []int{100_000, 1_000_000} {
			r, first := fillTopicRealm(b, total, topicSize, growth)
			a := r.As(idIago)
			b.Run(fmt.Sprintf("baseline-scan/%s/realm=%d", growth, total), func(b *testing.B) {
				for b.Loop() {
					n := 0
					_ = r.view(func() error {
						r.messages.store.Topic(r.channels.byName["bench"].ID, "big").Up(0, func(*message.Message) bool { n++; return true })
						return nil
					})
					if n != topicSize {
						b.Fatalf("scanned %d", n)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/topicSize, "ns/msg")
			})
			noNotice := false
			for _, c := range []struct {
				name  string
				there UpdateMessageRequest
				back  UpdateMessageRequest
			}{
				{"rename", UpdateMessageRequest{Topic: str("renamed")}, UpdateMessageRequest{Topic: str("big")}},
				{"to-channel", UpdateMessageRequest{ChannelID: intPtr(2)}, UpdateMessageRequest{ChannelID: intPtr(r.channels.byName["bench"].ID)}},
			} {
				i := 0 // kept across the runs of b.Run, so each starts where the last left the topic
				b.Run(fmt.Sprintf("%s/%s/realm=%d", c.name, growth, total), func(b *testing.B) {
					for b.Loop() {
						req := c.there
						if i%2 == 1 {
							req = c.back
						}
						i++
						req.MessageID, req.PropagateMode, req.SendNotificationToNewThread = first, ChangeAll, &noNotice
						if _, err := a.UpdateMessage(bg, req); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/topicSize, "ns/msg")
				})
			}
		}
	}
}

// BenchmarkDeleteTopic deletes a 100,000-message topic in realms of
// 100,000 and 1,000,000 messages; the topic is stored again between
// iterations, off the clock. The baseline walks the topic through its
// index, as in BenchmarkMoveTopic.
func BenchmarkDeleteTopic(b *testing.B) {
	const topicSize = 100_000
	for _, growth := range realmGrowths {
		for _, total := range []int{100_000, 1_000_000} {
			r, _ := fillTopicRealm(b, total, topicSize, growth)
			a := r.As(idIago)
			ch := r.channels.byName["bench"]
			rendered := r.renderer.Render(benchContent)
			refill := func() {
				r.mu.Lock()
				defer r.mu.Unlock()
				for i := 0; i < topicSize; i++ {
					r.storeBenchMessage(ch, idIago, "big", rendered, r.clock.Now().Unix(), message.Read, topicBenchSubscribers...)
				}
				runtime.GC()
			}
			b.Run(fmt.Sprintf("baseline-scan/%s/realm=%d", growth, total), func(b *testing.B) {
				for b.Loop() {
					n := 0
					_ = r.view(func() error {
						r.messages.store.Topic(ch.ID, "big").Up(0, func(*message.Message) bool { n++; return true })
						return nil
					})
					if n != topicSize {
						b.Fatalf("scanned %d", n)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/topicSize, "ns/msg")
			})
			b.Run(fmt.Sprintf("delete/%s/realm=%d", growth, total), func(b *testing.B) {
				for b.Loop() {
					res, err := a.DeleteTopic(bg, ch.ID, "big")
					if err != nil || !res.Complete {
						b.Fatal(res, err)
					}
					b.StopTimer()
					refill()
					b.StartTimer()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/topicSize, "ns/msg")
			})
		}
	}
}
