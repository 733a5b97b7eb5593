package realm

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/minizulip/minizulip/message"
)

// snapshotBenchSubscribers hold a copy of every benchmark message: three
// users, so that each has a copy list of the realm's size.
var snapshotBenchSubscribers = []int{idIago, idHamlet, idOthello}

// snapshotBenchRealm makes a realm of n messages in the channel "bench",
// spread over 100 topics, each delivered to snapshotBenchSubscribers.
func snapshotBenchRealm(b *testing.B, n int) *Realm {
	r, _ := newTestRealm(b)
	defer runtime.GC()
	r.mu.Lock()
	defer r.mu.Unlock()
	ch, rendered, now := r.benchChannel("bench", snapshotBenchSubscribers...)
	for i := range n {
		r.storeBenchMessage(ch, idIago, fmt.Sprintf("topic %d", i%100), rendered, now, message.Read, snapshotBenchSubscribers...)
	}
	return r
}

// snapshotBenchSizes are the realm sizes of the snapshot and fork
// benchmarks: the empty dev realm is the baseline, and the cost must not
// grow with the number of messages.
var snapshotBenchSizes = []int{0, 100_000, 1_000_000}

// benchBySize runs op in a loop on realms of each of snapshotBenchSizes;
// setup prepares, from the realm, the operation to time.
func benchBySize(b *testing.B, setup func(r *Realm) func()) {
	for _, n := range snapshotBenchSizes {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			op := setup(snapshotBenchRealm(b, n))
			b.ReportAllocs()
			for b.Loop() {
				op()
			}
		})
	}
}

// BenchmarkSnapshot takes a snapshot of realms of growing size.
func BenchmarkSnapshot(b *testing.B) {
	benchBySize(b, func(r *Realm) func() { return func() { _ = r.Snapshot() } })
}

// BenchmarkFork forks realms of growing size.
func BenchmarkFork(b *testing.B) {
	benchBySize(b, func(r *Realm) func() { return func() { _ = r.Fork() } })
}

// BenchmarkRestore restores a snapshot of realms of growing size.
func BenchmarkRestore(b *testing.B) {
	benchBySize(b, func(r *Realm) func() {
		s := r.Snapshot()
		return func() { _ = r.Restore(s) }
	})
}

// BenchmarkFirstWriteAfterFork measures the first write in a fresh fork of
// a realm of a million messages, which pays for the copy-on-write (btree
// paths, the copy blocks it touches, the edited message), against the
// same write in the realm never forked: a send to the channel, and a
// content edit of a message from the realm's beginning.
func BenchmarkFirstWriteAfterFork(b *testing.B) {
	r := snapshotBenchRealm(b, 1_000_000)
	var old int64 = 100 // sent by iago, in "topic 99"
	writes := map[string]func(x *Realm) error{
		"send": func(x *Realm) error {
			_, err := x.As(idIago).SendChannelMessage(bg, "bench", "topic 7", benchContent)
			return err
		},
		"edit-old": func(x *Realm) error {
			_, err := x.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: old, Content: &benchContent})
			return err
		},
	}
	for _, name := range []string{"send", "edit-old"} {
		write := writes[name]
		b.Run(name+"/baseline=never-forked", func(b *testing.B) {
			base := r.Fork() // a realm of its own, written over and over
			b.ReportAllocs()
			for b.Loop() {
				if err := write(base); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/first-after-fork", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				f := r.Fork()
				if i%64 == 0 {
					runtime.GC() // the dropped forks' copies
				}
				b.StartTimer()
				if err := write(f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
