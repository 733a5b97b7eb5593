package realm

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/message"
)

// memoryBenchMessages is how many messages BenchmarkMessageMemory stores.
const memoryBenchMessages = 200_000

// memoryBenchContent returns the i-th message of the memory benchmark: a
// distinct 100-character string, freshly allocated as a request's would be.
func memoryBenchContent(i int) string {
	return benchContent[:92] + fmt.Sprintf("%08d", i)
}

// BenchmarkMessageMemory stores 200,000 distinct 100-character messages
// through the real send path into a channel of one subscriber and of ten,
// and reports what each stored message costs: live heap after a
// collection (heap-B/msg) and resident memory growth (rss-B/msg). Topic
// and client names are fresh strings per send, as over HTTP. The baseline
// holds only each message's raw and rendered strings: the floor.
func BenchmarkMessageMemory(b *testing.B) {
	b.Run("baseline-strings-only", func(b *testing.B) {
		r, _ := newTestRealm(b)
		for b.Loop() {
			held := make([][2]string, memoryBenchMessages)
			measureMemory(b, func() {
				for i := range held {
					content := memoryBenchContent(i)
					held[i] = [2]string{content, r.renderer.Render(content)}
				}
			})
			runtime.KeepAlive(held)
		}
	})
	for _, recipients := range []int{1, 10} {
		b.Run(fmt.Sprintf("recipients=%d", recipients), func(b *testing.B) {
			for b.Loop() {
				r, _ := newTestRealm(b)
				r.mu.Lock()
				ch, _, _ := r.benchChannel("memory", topicBenchSubscribers[:recipients]...)
				r.mu.Unlock()
				a := r.As(idIago)
				measureMemory(b, func() {
					for i := range memoryBenchMessages {
						topicName := strings.Clone("memory topic")
						if _, err := a.SendMessage(bg, SendRequest{
							Type: "stream", To: message.To{ChannelID: ch.ID}, Topic: &topicName,
							Content: memoryBenchContent(i), Client: strings.Clone("ZulipMobile"),
						}); err != nil {
							b.Fatal(err)
						}
					}
				})
				if n := r.messages.store.Len(); n != memoryBenchMessages {
					b.Fatalf("stored %d messages", n)
				}
				runtime.KeepAlive(r)
			}
		})
	}
}

// measureMemory runs store and reports the live heap and resident memory
// it added, per message of memoryBenchMessages.
func measureMemory(b *testing.B, store func()) {
	b.Helper()
	runtime.GC()
	debug.FreeOSMemory()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rssBefore := residentBytes(b)
	store()
	rssAfter := residentBytes(b)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if path := os.Getenv("MESSAGE_MEMORY_PROFILE"); path != "" {
		writeHeapProfile(b, path)
	}
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/memoryBenchMessages, "heap-B/msg")
	b.ReportMetric(float64(rssAfter-rssBefore)/memoryBenchMessages, "rss-B/msg")
}

// residentBytes reads the process's resident set size from /proc; it
// skips the benchmark where /proc is missing.
func residentBytes(b *testing.B) int64 {
	b.Helper()
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		b.Skip("no /proc/self/statm:", err)
	}
	fields := strings.Fields(string(data))
	pages, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		b.Fatal(err)
	}
	return pages * int64(os.Getpagesize())
}

// writeHeapProfile writes the heap profile while the stored messages are
// live (a -memprofile is written after they are gone): set
// MESSAGE_MEMORY_PROFILE=path to see what a stored message is made of.
func writeHeapProfile(b *testing.B, path string) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		b.Fatal(err)
	}
}
