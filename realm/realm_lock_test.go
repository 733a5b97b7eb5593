package realm

import (
	"runtime"
	"sync"
	"testing"
)

// TestReleasingTheLockYieldsToAWaitingWriter runs on one processor: a
// reader releasing the lock while a writer waits lets the writer run
// before it goes on, and so does a writer releasing it to another writer.
// A plain sync.RWMutex lets the releasing goroutine go on first, with the
// lock granted to a writer that is not running. The scheduler now and
// then runs a goroutine from its global queue first, for fairness (and
// the race detector's shuffles its order), so the test asks for the
// writer first in most rounds, not all.
func TestReleasingTheLockYieldsToAWaitingWriter(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const rounds, wanted = 40, 30
	for _, c := range []struct {
		name             string
		acquire, release func(*realmLock)
	}{
		{"reader", (*realmLock).RLock, (*realmLock).RUnlock},
		{"writer", (*realmLock).Lock, (*realmLock).Unlock},
	} {
		t.Run(c.name, func(t *testing.T) {
			writerFirst := 0
			for range rounds {
				if writerRunsFirst(t, c.acquire, c.release) {
					writerFirst++
				}
			}
			if writerFirst < wanted {
				t.Fatalf("the waiting writer ran first in %d of %d rounds, want %d at least", writerFirst, rounds, wanted)
			}
		})
	}
}

// writerRunsFirst holds the lock (acquire), lets a writer wait for it,
// releases it and reports whether the writer got it before the releaser
// went on.
func writerRunsFirst(t *testing.T, acquire, release func(*realmLock)) bool {
	var l realmLock
	var order []string
	var mu sync.Mutex
	note := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
	acquire(&l)
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
	release(&l)
	note("releaser")
	<-done
	if n := l.writers.Load(); n != 0 {
		t.Fatalf("%d writers counted after all left", n)
	}
	return order[0] == "writer"
}
