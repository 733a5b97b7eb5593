package realm

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/message"
	"github.com/yuin/goldmark"
)

// benchContent is a 100-character plain message.
var benchContent = strings.Repeat("hello world ", 7) + "plain text here!"

// BenchmarkGoldmarkRender is the baseline of BenchmarkSendChannelMessage:
// goldmark alone rendering the same content.
func BenchmarkGoldmarkRender(b *testing.B) {
	if len(benchContent) != 100 {
		b.Fatalf("content is %d chars", len(benchContent))
	}
	md := goldmark.New()
	src := []byte(benchContent)
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := md.Convert(src, &buf); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRealmRender renders the same content with the realm's goldmark
// configuration (the renderer a send uses): the baseline the send target
// is stated against.
func BenchmarkRealmRender(b *testing.B) {
	r, _ := newTestRealm(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = r.renderer.Render(benchContent)
	}
}

// BenchmarkSendChannelMessage sends the same content in-process to Verona
// (10 subscribers), rendering included.
func BenchmarkSendChannelMessage(b *testing.B) {
	r, _ := newTestRealm(b)
	a := r.As(idIago)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.SendChannelMessage(bg, "Verona", "bench", benchContent); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFetchNewestInTopic fetches the newest 100 messages of one topic
// in realms of growing size: the cost must not grow with the realm (1M
// against 10k: at most 1.5x). Besides the steady state (ns/op) it reports
// the first 100 fetches right after the bulk load, before any collection
// settles the heap (after-load-ns/fetch): growth of the heap, not of the
// indexes, is what made those slow.
func BenchmarkFetchNewestInTopic(b *testing.B) {
	for _, size := range []int{10_000, 1_000_000} {
		b.Run(fmt.Sprintf("messages=%d", size), func(b *testing.B) {
			r, _ := newTestRealm(b)
			fillChannel(r, "bench", size, 100)
			req := FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 100, IncludeAnchor: true,
				Narrow: []message.Term{{Operator: "channel", Operand: "bench"}, {Operator: "topic", Operand: "topic 7"}},
				View:   ViewOptions{ApplyMarkdown: true}}
			a := r.As(idIago)
			fetch := func() {
				res, err := a.Messages(bg, req)
				if err != nil || len(res.Messages) != 100 {
					b.Fatalf("%v, %d messages", err, len(res.Messages))
				}
			}
			const afterLoad = 100
			start := time.Now()
			for range afterLoad {
				fetch()
			}
			firstFetches := time.Since(start)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				fetch()
			}
			b.ReportMetric(float64(firstFetches.Nanoseconds())/afterLoad, "after-load-ns/fetch")
		})
	}
}

// fillChannel creates a channel with iago as its only subscriber and stores
// n messages spread over the given number of topics, bypassing rendering.
func fillChannel(r *Realm, name string, n, topics int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ch, rendered, now := r.benchChannel(name, idIago)
	for i := 0; i < n; i++ {
		r.storeBenchMessage(ch, idIago, fmt.Sprintf("topic %d", i%topics), rendered, now, message.Read, idIago)
	}
}

// benchChannel creates a public channel with these subscribers, for
// benchmarks that store messages with storeBenchMessage: it returns the
// channel, benchContent rendered, and the clock's time. The caller holds
// the write lock.
func (r *Realm) benchChannel(name string, subscribers ...int) (*storedChannel, string, int64) {
	ch := r.addChannel(name, "", false, true, idIago)
	for _, uid := range subscribers {
		r.subscribe(ch.ID, uid)
	}
	return ch, r.renderer.Render(benchContent), r.clock.Now().Unix()
}

// storeBenchMessage stores a pre-rendered channel message, bypassing
// validation, and gives each holder a copy with the given flags. The
// caller holds the write lock.
func (r *Realm) storeBenchMessage(ch *storedChannel, senderID int, topicName, rendered string, now int64, flags message.Flags, holders ...int) *message.Message {
	m := &message.Message{
		ID: r.messages.nextID, Type: message.Channel, SenderID: senderID, ChannelID: ch.ID,
		RecipientID: ch.RecipientID, Topic: topicName,
		Content: benchContent, Rendered: rendered, Timestamp: now, Client: "bench",
	}
	r.messages.nextID++
	r.messages.store.Insert(m, 0)
	for _, uid := range holders {
		r.messages.store.Deliver(uid, m, flags)
	}
	if ch.FirstMessageID == 0 {
		ch.FirstMessageID = m.ID
	}
	return m
}
