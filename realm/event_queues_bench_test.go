package realm

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/minizulip/minizulip/user"
)

// fanOutRealm is a realm with a channel of n subscribers, each with an open
// event queue when withQueues is set.
func fanOutRealm(b *testing.B, n int, withQueues bool) *Realm {
	r, _ := newTestRealm(b)
	r.mu.Lock()
	ch := r.addChannel("crowd", "", false, true, idIago)
	ids := []int{idIago}
	r.subscribe(ch.ID, idIago)
	for i := len(ids); i < n; i++ {
		u := r.addUser(&user.User{DeliveryEmail: fmt.Sprintf("crowd%d@zulip.com", i), FullName: fmt.Sprintf("Crowd %d", i), Role: user.RoleMember})
		r.subscribe(ch.ID, u.ID)
		ids = append(ids, u.ID)
	}
	r.mu.Unlock()
	if withQueues {
		for _, id := range ids {
			if _, err := r.As(id).RegisterQueue(bg, QueueOptions{EventTypes: []string{"message"}, LifespanSecs: 3600}); err != nil {
				b.Fatal(err)
			}
		}
	}
	return r
}

// BenchmarkFanOut sends one channel message to 1,000 subscribers, with and
// without an open queue for each (the baseline).
func BenchmarkFanOut(b *testing.B) {
	for _, queues := range []bool{false, true} {
		b.Run(fmt.Sprintf("subscribers=1000/queues=%v", queues), func(b *testing.B) {
			r := fanOutRealm(b, 1000, queues)
			a := r.As(idIago)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := a.SendChannelMessage(bg, "crowd", "t", benchContent); err != nil {
					b.Fatal(err)
				}
				if queues {
					b.StopTimer()
					r.drainQueues()
					b.StartTimer()
				}
			}
		})
	}
}

// drainQueues empties every queue, so a benchmark does not overflow them.
func (r *Realm) drainQueues() {
	r.events.Drain()
}

// BenchmarkIdleQueueMemory reports the heap bytes one idle queue costs.
func BenchmarkIdleQueueMemory(b *testing.B) {
	r, _ := newTestRealm(b)
	const n = 10000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < n; i++ {
		if _, err := r.As(idIago).RegisterQueue(bg, QueueOptions{LifespanSecs: 3600}); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if r.QueueCount() != n {
		b.Fatalf("%d queues", r.QueueCount())
	}
	for b.Loop() {
	}
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/n, "bytes/queue")
}
