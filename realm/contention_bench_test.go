package realm

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/minizulip/minizulip/message"
)

// BenchmarkSendContention measures how readers and other writers slow a
// sender down. "alone" is the baseline: one goroutine sending to Verona.
// "readers=2" is the same sender while two goroutines read continuously
// (GET /messages newest 100 of the channel, then the user list), whose
// throughput is reported as reads/s; the target is ≥ 0.7× "alone".
// "readers=2-elsewhere" runs the same readers on another realm: the
// same competition for the CPU without sharing a lock, which tells how
// much of the slowdown is the lock's. "senders=4" is four goroutines
// sending at once, whose total must be at least "alone". Each reports
// msgs/s.
func BenchmarkSendContention(b *testing.B) {
	b.Run("alone", func(b *testing.B) { benchContendedSend(b, 1, 0, false) })
	b.Run("readers=2", func(b *testing.B) { benchContendedSend(b, 1, 2, false) })
	b.Run("readers=2-elsewhere", func(b *testing.B) { benchContendedSend(b, 1, 2, true) })
	b.Run("senders=4", func(b *testing.B) { benchContendedSend(b, 4, 0, false) })
}

// benchContendedSend sends b.N messages from senders goroutines while
// readers goroutines read until the sends are done, in the same realm or,
// with elsewhere, in another one.
func benchContendedSend(b *testing.B, senders, readers int, elsewhere bool) {
	r, _ := newTestRealm(b)
	readRealm := r
	if elsewhere {
		readRealm, _ = newTestRealm(b)
		for i := 0; i < 200; i++ {
			if _, err := readRealm.As(idIago).SendChannelMessage(bg, "Verona", "bench", benchContent); err != nil {
				b.Fatal(err)
			}
		}
	}
	senderIDs := []int{idIago, idHamlet, idOthello, idCordelia}
	for i := 0; i < 200; i++ { // so that "newest 100" finds 100
		if _, err := r.As(idIago).SendChannelMessage(bg, "Verona", "bench", benchContent); err != nil {
			b.Fatal(err)
		}
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var reads atomic.Int64
	var readersDone sync.WaitGroup
	fetch := FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 100, IncludeAnchor: true,
		Narrow: []message.Term{{Operator: "channel", Operand: "Verona"}}, View: ViewOptions{ApplyMarkdown: true}}
	for i := 0; i < readers; i++ {
		readersDone.Add(1)
		go func() {
			defer readersDone.Done()
			a := readRealm.As(senderIDs[(i+1)%len(senderIDs)])
			for ctx.Err() == nil {
				res, err := a.Messages(bg, fetch)
				if err != nil || len(res.Messages) != 100 {
					panic(fmt.Sprintf("reader: %v, %d messages", err, len(res.Messages)))
				}
				if _, err := a.Users(bg, UserListOptions{}); err != nil {
					panic(err)
				}
				reads.Add(1)
			}
		}()
	}
	var left atomic.Int64
	left.Store(int64(b.N))
	b.ReportAllocs()
	b.ResetTimer()
	var sendersDone sync.WaitGroup
	for i := 0; i < senders; i++ {
		sendersDone.Add(1)
		go func() {
			defer sendersDone.Done()
			a := r.As(senderIDs[i])
			for left.Add(-1) >= 0 {
				if _, err := a.SendChannelMessage(bg, "Verona", "bench", benchContent); err != nil {
					panic(err)
				}
			}
		}()
	}
	sendersDone.Wait()
	b.StopTimer()
	stop()
	readersDone.Wait()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
	if readers > 0 {
		b.ReportMetric(float64(reads.Load())/b.Elapsed().Seconds(), "reads/s")
	}
}
