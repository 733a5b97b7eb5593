package realm

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/clock"
)

// BenchmarkDataSend sends 100-character messages from 4 concurrent
// senders: in memory (the baseline, same run), and with a data directory
// under each fsync policy. The targets: always at least 0.5× the
// baseline's throughput, everysec 0.9×.
func BenchmarkDataSend(b *testing.B) {
	for _, mode := range []string{"memory", "always", "everysec"} {
		b.Run(mode, func(b *testing.B) {
			var r *Realm
			switch mode {
			case "memory":
				r, _ = newTestRealm(b)
			default:
				policy, _ := ParseFsyncPolicy(mode)
				var err error
				if r, err = Open(b.TempDir(), WithClock(clock.NewManual(t0)), WithFsync(policy)); err != nil {
					b.Fatal(err)
				}
				defer r.Close()
			}
			senders := []int{idIago, idHamlet, idOthello, idCordelia}
			b.ReportAllocs()
			b.ResetTimer()
			var wg sync.WaitGroup
			for w, uid := range senders {
				n := b.N / len(senders)
				if w < b.N%len(senders) {
					n++
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					a := r.As(uid)
					topic := fmt.Sprint("bench ", w)
					for range n {
						if _, err := a.SendChannelMessage(bg, "Verona", topic, benchContent); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "sends/s")
			if r.dur != nil {
				j := r.dur.j
				j.mu.Lock()
				b.ReportMetric(float64(j.size)/float64(b.N), "journal-B/send")
				if j.syncs > 0 {
					b.ReportMetric(float64(j.syncedRecords)/float64(j.syncs), "records/sync")
				}
				j.mu.Unlock()
			}
		})
	}
}

// dataRestartMessages is the number of messages of BenchmarkDataRestart:
// MINIZULIP_RESTART_MESSAGES, 100,000 by default (the note's figure is
// 1,000,000).
func dataRestartMessages(b *testing.B) int {
	n := 100_000
	if s := os.Getenv("MINIZULIP_RESTART_MESSAGES"); s != "" {
		if _, err := fmt.Sscan(s, &n); err != nil {
			b.Fatal(err)
		}
	}
	return n
}

// BenchmarkDataRestart opens a data directory holding a realm of n
// 100-character messages (each with 3 holders) in its snapshot and
// 1,000 more in its journal; the baseline is opening the same realm with
// no messages. It reports the snapshot's bytes per message.
func BenchmarkDataRestart(b *testing.B) {
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
			fi, err := os.Stat(filepath.Join(dir, snapshotFileName))
			if err != nil {
				b.Fatal(err)
			}
			if r, err = Open(dir, WithClock(c)); err != nil {
				b.Fatal(err)
			}
			for i := range 1000 { // the journal
				if _, err := r.As(idIago).SendChannelMessage(bg, "bench", "journal", fmt.Sprint(benchContent[:90], i)); err != nil {
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
			if n > 0 {
				b.ReportMetric(float64(fi.Size())/float64(n), "snapshot-B/msg")
			}
		})
	}
}
