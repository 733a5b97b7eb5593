package realm

import (
	"runtime"
	"sync"
	"testing"
)

// TestReleasingTheLockYieldsToAWaitingWriter runs on one processor, where
// the order is deterministic: a reader releasing the lock while a writer
// waits lets the writer run before it goes on, and so does a writer
// releasing it to another writer. A plain sync.RWMutex lets the releasing
// goroutine go on first, with the lock granted to a writer that is not
// running.
func TestReleasingTheLockYieldsToAWaitingWriter(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, c := range []struct {
		name             string
		acquire, release func(*realmLock)
	}{
		{"reader", (*realmLock).RLock, (*realmLock).RUnlock},
		{"writer", (*realmLock).Lock, (*realmLock).Unlock},
	} {
		t.Run(c.name, func(t *testing.T) {
			var l realmLock
			var order []string
			var mu sync.Mutex
			note := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
			c.acquire(&l)
			done := make(chan struct{})
			go func() {
				defer close(done)
				l.Lock()
				note("writer")
				l.Unlock()
			}()
			for l.writers.Load() == 0 {
				runtime.Gosched()
			}
			runtime.Gosched() // let the writer block in Lock
			c.release(&l)
			note("releaser")
			<-done
			if len(order) != 2 || order[0] != "writer" {
				t.Fatalf("order %v: the waiting writer should run first", order)
			}
			if n := l.writers.Load(); n != 0 {
				t.Fatalf("%d writers counted after all left", n)
			}
		})
	}
}
