package realm

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// realmLock is the realm's reader/writer lock: a sync.RWMutex whose
// holders give up their processor, on releasing it, to a writer waiting
// for it.
//
// Without that, a writer waits far longer than the readers hold the lock.
// When the last reader leaves, sync.RWMutex grants the lock to the
// waiting writer and makes it runnable, but on the reader's processor,
// behind the reader, which goes on running (building its views outside
// the lock) until it blocks. Meanwhile the lock is held by a goroutine
// that is not running, and every other reader queues behind it. The same
// happens between writers: a woken writer sits behind the one that woke
// it, which takes the lock again first. So a sender sharing a realm with
// two continuous readers sent at a tenth of its speed beside readers of
// another realm (BenchmarkSendContention).
type realmLock struct {
	mu sync.RWMutex
	// writers counts the goroutines in Lock: waiting for the lock, or
	// about to.
	writers atomic.Int32
}

// Lock takes the lock for writing.
func (l *realmLock) Lock() {
	l.writers.Add(1)
	l.mu.Lock()
	l.writers.Add(-1)
}

// Unlock releases the write lock, then yields to a waiting writer.
func (l *realmLock) Unlock() {
	l.mu.Unlock()
	l.yieldToWriters()
}

// RLock takes the lock for reading.
func (l *realmLock) RLock() { l.mu.RLock() }

// RUnlock releases a read lock, then yields to a waiting writer.
func (l *realmLock) RUnlock() {
	l.mu.RUnlock()
	l.yieldToWriters()
}

// yieldToWriters lets a writer that is waiting run now: it may already
// hold the lock, made runnable behind the caller.
func (l *realmLock) yieldToWriters() {
	if l.writers.Load() > 0 {
		runtime.Gosched()
	}
}
