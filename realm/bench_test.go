package realm

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

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
// in realms of growing size: the cost must not grow with the realm.
func BenchmarkFetchNewestInTopic(b *testing.B) {
	for _, size := range []int{10_000, 1_000_000} {
		b.Run(fmt.Sprintf("messages=%d", size), func(b *testing.B) {
			r, _ := newTestRealm(b)
			fillChannel(r, "bench", size, 100)
			req := FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 100, IncludeAnchor: true,
				Narrow: []message.Term{{Operator: "channel", Operand: "bench"}, {Operator: "topic", Operand: "topic 7"}},
				View:   ViewOptions{ApplyMarkdown: true}}
			a := r.As(idIago)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				res, err := a.GetMessages(bg, req)
				if err != nil || len(res.Messages) != 100 {
					b.Fatalf("%v, %d messages", err, len(res.Messages))
				}
			}
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
		ID: r.nextMessageID, Type: message.Channel, SenderID: senderID, ChannelID: ch.ID,
		RecipientID: ch.RecipientID, Topic: topicName,
		Content: benchContent, Rendered: rendered, Timestamp: now, Client: "bench",
	}
	r.nextMessageID++
	r.messages.Insert(m, 0)
	for _, uid := range holders {
		r.messages.Deliver(uid, m, flags)
	}
	if ch.FirstMessageID == 0 {
		ch.FirstMessageID = m.ID
	}
	return m
}
