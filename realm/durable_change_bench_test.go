package realm

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/clock"
)

// BenchmarkDataChannelCreate creates channels (one per iteration) in a
// data directory holding n messages (MINIZULIP_RESTART_MESSAGES, as
// BenchmarkDataRestart) while 4 senders send without pause, and reports
// the time of one creation and the latency of the sends made meanwhile
// (p50 and max). The baseline is the same sends with no creation, in the
// same run (messages=0 gives the cost with nothing on disk).
func BenchmarkDataChannelCreate(b *testing.B) {
	for _, n := range []int{0, dataRestartMessages(b)} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			c := clock.NewManual(t0)
			r, err := Open(dir, WithClock(c))
			if err != nil {
				b.Fatal(err)
			}
			r.mu.Lock()
			ch, rendered, now := r.benchChannel("bench", snapshotBenchSubscribers...)
			for i := range n {
				r.storeBenchMessage(ch, idIago, fmt.Sprintf("topic %d", i%100), rendered, now, message.Read, snapshotBenchSubscribers...)
			}
			r.mu.Unlock()
			if err := r.Close(); err != nil { // the snapshot
				b.Fatal(err)
			}
			if r, err = Open(dir, WithClock(c)); err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			var stop atomic.Bool
			var mu sync.Mutex
			var lat []time.Duration
			var wg sync.WaitGroup
			var measuring atomic.Bool
			for w, uid := range []int{idIago, idHamlet, idOthello, idCordelia} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					a := r.As(uid)
					for !stop.Load() {
						start := time.Now()
						if _, err := a.SendChannelMessage(bg, "Verona", fmt.Sprint("bench ", w), benchContent); err != nil {
							b.Error(err)
							return
						}
						if measuring.Load() {
							mu.Lock()
							lat = append(lat, time.Since(start))
							mu.Unlock()
						}
					}
				}()
			}
			// The sends' latency with no creation, as the baseline.
			measuring.Store(true)
			time.Sleep(300 * time.Millisecond)
			measuring.Store(false)
			mu.Lock()
			base := slices.Clone(lat)
			lat = lat[:0]
			mu.Unlock()
			measuring.Store(true)
			b.ResetTimer()
			for i := range b.N {
				if _, err := r.As(idIago).CreateChannel(bg, CreateChannelRequest{Name: fmt.Sprint("new ", i), Subscribers: []int{idIago, idHamlet}}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			measuring.Store(false)
			stop.Store(true)
			wg.Wait()
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/create")
			report := func(name string, l []time.Duration) {
				if len(l) == 0 {
					return
				}
				slices.Sort(l)
				b.ReportMetric(float64(l[len(l)/2].Microseconds())/1000, name+"-p50-ms")
				b.ReportMetric(float64(l[len(l)-1].Microseconds())/1000, name+"-max-ms")
			}
			report("send", lat)
			report("idle-send", base)
		})
	}
}

// BenchmarkDataRestartTables is BenchmarkDataRestart with a journal of
// as many tables records as it may hold (maxTablesReplays, durable_tables.go),
// each followed by a send so that none is skipped: the worst a replay of
// such records costs, against the same realm with none in the same run.
func BenchmarkDataRestartTables(b *testing.B) {
	n := dataRestartMessages(b)
	for _, records := range []int{0, maxTablesReplays} {
		b.Run(fmt.Sprintf("messages=%d/tables=%d", n, records), func(b *testing.B) {
			dir := b.TempDir()
			c := clock.NewManual(t0)
			r, err := Open(dir, WithClock(c))
			if err != nil {
				b.Fatal(err)
			}
			r.mu.Lock()
			ch, rendered, now := r.benchChannel("bench", snapshotBenchSubscribers...)
			for i := range n {
				r.storeBenchMessage(ch, idIago, fmt.Sprintf("topic %d", i%100), rendered, now, message.Read, snapshotBenchSubscribers...)
			}
			r.mu.Unlock()
			if err := r.Close(); err != nil {
				b.Fatal(err)
			}
			if r, err = Open(dir, WithClock(c)); err != nil {
				b.Fatal(err)
			}
			for i := range records {
				if _, err := r.As(idHamlet).AddAlertWords(bg, []string{fmt.Sprint("word", i)}); err != nil {
					b.Fatal(err)
				}
				if _, err := r.As(idIago).SendChannelMessage(bg, "bench", "journal", benchContent); err != nil {
					b.Fatal(err)
				}
			}
			crash(r)
			b.ResetTimer()
			for range b.N {
				r, err := Open(dir, WithClock(c))
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				crash(r)
				b.StartTimer()
			}
		})
	}
}

// BenchmarkDataTopicDelete deletes a topic of 10 messages (one per
// iteration) in a realm of n other messages (MINIZULIP_RESTART_MESSAGES,
// as BenchmarkDataRestart), in a data directory and, as the baseline in
// the same run, in memory.
func BenchmarkDataTopicDelete(b *testing.B) {
	for _, mode := range []string{"memory", "data"} {
		b.Run(fmt.Sprintf("%s/messages=%d", mode, dataRestartMessages(b)), func(b *testing.B) {
			var r *Realm
			if mode == "memory" {
				r, _ = newTestRealm(b)
			} else {
				var err error
				if r, err = Open(b.TempDir(), WithClock(clock.NewManual(t0))); err != nil {
					b.Fatal(err)
				}
				defer r.Close()
			}
			r.mu.Lock()
			ch, rendered, now := r.benchChannel("bench", snapshotBenchSubscribers...)
			for i := range dataRestartMessages(b) {
				r.storeBenchMessage(ch, idIago, fmt.Sprintf("topic %d", i%100), rendered, now, message.Read, snapshotBenchSubscribers...)
			}
			for i := range b.N {
				for range 10 {
					r.storeBenchMessage(ch, idIago, fmt.Sprint("doomed ", i), rendered, now, message.Read, snapshotBenchSubscribers...)
				}
			}
			r.mu.Unlock()
			b.ResetTimer()
			for i := range b.N {
				if res, err := r.As(idIago).DeleteTopic(bg, ch.ID, fmt.Sprint("doomed ", i)); err != nil || !res.Complete {
					b.Fatal(res, err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/delete")
		})
	}
}
