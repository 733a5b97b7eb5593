package eventq

import (
	"container/heap"
	"time"
)

// expiryHeap orders queues by the time they would expire if nobody polled
// them again. Entries are lazy: a poll moves a queue's real deadline later
// without touching the heap, and sweep re-files an entry whose queue turns
// out to be fresher. So a poll costs nothing here, and a sweep looks only
// at queues whose filed deadline has passed, never at every live queue.
type expiryHeap[C, E any] []expiryEntry[C, E]

type expiryEntry[C, E any] struct {
	deadline time.Time
	q        *Queue[C, E]
}

func (h expiryHeap[C, E]) Len() int           { return len(h) }
func (h expiryHeap[C, E]) Less(i, j int) bool { return h[i].deadline.Before(h[j].deadline) }
func (h expiryHeap[C, E]) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *expiryHeap[C, E]) Push(x any)        { *h = append(*h, x.(expiryEntry[C, E])) }
func (h *expiryHeap[C, E]) Pop() any {
	old := *h
	e := old[len(old)-1]
	old[len(old)-1] = expiryEntry[C, E]{}
	*h = old[:len(old)-1]
	return e
}

// file adds q at its current deadline; the caller holds the hub's lock.
// When deleted queues' entries outnumber the live queues, the heap is
// rebuilt from the live ones, so register/delete churn cannot grow it.
func (hub *Hub[C, E]) file(q *Queue[C, E]) {
	heap.Push(&hub.expiry, expiryEntry[C, E]{deadline: q.lastAccess.Add(q.lifespan), q: q})
	if len(hub.expiry) > 2*len(hub.queues)+64 {
		live := hub.expiry[:0]
		for _, e := range hub.expiry {
			if !e.q.dead {
				live = append(live, e)
			}
		}
		clear(hub.expiry[len(live):])
		hub.expiry = live
		heap.Init(&hub.expiry)
	}
}

// sweep drops the queues idle past their lifespan with no poll waiting,
// looking only at the entries whose filed deadline has passed; the caller
// holds the hub's lock.
func (hub *Hub[C, E]) sweep(now time.Time) {
	for hub.expiry.Len() > 0 && hub.expiry[0].deadline.Before(now) {
		e := heap.Pop(&hub.expiry).(expiryEntry[C, E])
		q := e.q
		switch {
		case q.dead:
			// already gone
		case q.waiting > 0 || now.Sub(q.lastAccess) <= q.lifespan:
			// polled since it was filed, or being polled: file it again
			if q.waiting > 0 {
				q.lastAccess = now
			}
			hub.file(q)
		default:
			hub.drop(q)
		}
	}
}

// collectEvery is how often, on the hub's clock, idle queues are collected
// in the background, so that they go even when nobody registers or polls.
const collectEvery = time.Minute

// scheduleCollection runs sweep every collectEvery on the hub's clock.
// The caller holds hub.mu, or is NewHub.
func (hub *Hub[C, E]) scheduleCollection() {
	hub.stopCollection = hub.clock.AfterFunc(collectEvery, func() {
		hub.mu.Lock()
		defer hub.mu.Unlock()
		if hub.closed {
			return
		}
		hub.sweep(hub.clock.Now())
		hub.scheduleCollection()
	})
}

// Close drops every queue, as DropAll does, and stops the background
// collection, for a realm that is no longer served. Queues added later
// live on, but nothing collects them.
func (hub *Hub[C, E]) Close() {
	hub.mu.Lock()
	defer hub.mu.Unlock()
	hub.closed = true
	if hub.stopCollection != nil {
		hub.stopCollection()
	}
	for _, q := range hub.queues {
		hub.drop(q)
	}
}
