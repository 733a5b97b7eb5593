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

// fillTopicRealm makes a realm whose public channel "bench" holds total
// messages, topicSize of them in the topic "big", spread evenly among
// the others (the worst case for each user's message lists), delivered
// to ten subscribers. It returns the realm and the first message of
// "big".
func fillTopicRealm(b *testing.B, total, topicSize int) (*Realm, int64) {
	r, _ := newTestRealm(b)
	// Let the collector finish with the set-up's garbage before timing.
	defer runtime.GC()
	r.mu.Lock()
	defer r.mu.Unlock()
	ch, rendered, now := r.benchChannel("bench", topicBenchSubscribers...)
	every := total / topicSize
	first := int64(0)
	for i := 0; i < total; i++ {
		name := fmt.Sprintf("other %d", i%97)
		if i%every == 0 {
			name = "big"
		}
		m := r.storeBenchMessage(ch, idIago, name, rendered, now, message.Read, topicBenchSubscribers...)
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
	for _, total := range []int{100_000, 1_000_000} {
		r, first := fillTopicRealm(b, total, topicSize)
		a := r.As(idIago)
		b.Run(fmt.Sprintf("baseline-scan/realm=%d", total), func(b *testing.B) {
			for b.Loop() {
				n := 0
				_ = r.view(func() error {
					r.messages.Topic(r.channelsByName["bench"].ID, "big").Up(0, func(*message.Message) bool { n++; return true })
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
			there EditMessageRequest
			back  EditMessageRequest
		}{
			{"rename", EditMessageRequest{Topic: str("renamed")}, EditMessageRequest{Topic: str("big")}},
			{"to-channel", EditMessageRequest{ChannelID: intPtr(2)}, EditMessageRequest{ChannelID: intPtr(r.channelsByName["bench"].ID)}},
		} {
			b.Run(fmt.Sprintf("%s/realm=%d", c.name, total), func(b *testing.B) {
				i := 0
				for b.Loop() {
					req := c.there
					if i%2 == 1 {
						req = c.back
					}
					i++
					req.MessageID, req.PropagateMode, req.SendNotificationToNewThread = first, ChangeAll, &noNotice
					if _, err := a.EditMessage(bg, req); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/topicSize, "ns/msg")
			})
		}
	}
}

// BenchmarkDeleteTopic deletes a 100,000-message topic in realms of
// 100,000 and 1,000,000 messages; the topic is stored again between
// iterations, off the clock. The baseline is DELETE of a single message
// times 100,000, as delete_topic would cost without batching.
func BenchmarkDeleteTopic(b *testing.B) {
	const topicSize = 100_000
	for _, total := range []int{100_000, 1_000_000} {
		r, _ := fillTopicRealm(b, total, topicSize)
		a := r.As(idIago)
		ch := r.channelsByName["bench"]
		rendered := r.renderer.Render(benchContent)
		refill := func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			for i := 0; i < topicSize; i++ {
				r.storeBenchMessage(ch, idIago, "big", rendered, r.clock.Now().Unix(), message.Read, topicBenchSubscribers...)
			}
			runtime.GC()
		}
		b.Run(fmt.Sprintf("delete/realm=%d", total), func(b *testing.B) {
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
