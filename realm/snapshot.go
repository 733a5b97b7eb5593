package realm

import (
	"errors"
	"sync"
	"time"

	"github.com/minizulip/minizulip/realm/clock"
)

// Snapshot is a realm's state at one moment, to go back to with Restore.
// Taking one costs the number of users, channels and index keys, not the
// number of messages: messages and personal copies are shared with the
// realm copy-on-write. A Snapshot never changes; restoring it twice gives
// the same state twice.
type Snapshot struct {
	// mu serializes cloning out of the snapshot (Restore, Reset, Fork):
	// cloning marks the shared structures, a write.
	mu    sync.Mutex
	owner *Realm
	id    int
	taken time.Time
	state *tables // the frozen state
}

// ID numbers the realm's snapshots from 1 in the order they were taken.
func (s *Snapshot) ID() int { return s.id }

// Taken is when the snapshot was taken, by the realm's clock.
func (s *Snapshot) Taken() time.Time { return s.taken }

// ErrForeignSnapshot refuses to restore a snapshot into a realm other than
// the one it was taken from (a fork is another realm).
var ErrForeignSnapshot = errors.New("realm: the snapshot was taken from another realm")

// Snapshot records the realm's state (users, channels, subscriptions,
// groups, messages with their flags and reactions, settings, emoji,
// linkifiers, uploads' metadata, id counters…) for Restore. Event queues
// are not part of it.
func (r *Realm) Snapshot() *Snapshot {
	var s *Snapshot
	_ = r.updateVolatile(func() error {
		s = r.takeSnapshot()
		return nil
	})
	return s
}

// takeSnapshot is Snapshot under the write lock.
func (r *Realm) takeSnapshot() *Snapshot {
	r.snapshots++
	r.files.pinnedBelow = r.files.nextID // the snapshot holds them
	s := &Snapshot{owner: r, id: r.snapshots, taken: r.clock.Now(), state: &tables{}}
	s.state.copyFrom(&r.tables)
	return s
}

// Restore puts the realm back in the state of a snapshot taken from it.
// Every event queue is dropped, as the state it mirrored is gone: its next
// poll answers BAD_EVENT_QUEUE_ID, as an expired queue does, and clients
// register again. The clock is not turned back. A file deleted since the
// snapshot comes back whole; the bytes of files no snapshot or fork can
// bring back (uploaded since the latest one, or resumable uploads under
// way) leave the upload store. A snapshot of another realm is refused with
// ErrForeignSnapshot, changing nothing.
func (r *Realm) Restore(s *Snapshot) error {
	if s == nil || s.owner != r {
		return ErrForeignSnapshot
	}
	return r.update(func() error {
		r.restoreLocked(s)
		return nil
	})
}

// Reset puts the realm back in the state New created: the seeded realm,
// with the same API keys. Event queues are dropped as by Restore.
func (r *Realm) Reset() {
	_ = r.update(func() error {
		r.restoreLocked(r.resetState())
		return nil
	})
}

// restoreLocked copies s into r; the caller holds r's write lock.
func (r *Realm) restoreLocked(s *Snapshot) {
	unshared := r.files.unsharedBlobs()
	s.mu.Lock()
	r.tables.copyFrom(s.state)
	s.mu.Unlock()
	r.files.deleteBlobs(unshared)
	r.events.DropAll()
	r.rearmAfterCopy()
}

// Fork returns a new realm in the state of this one, on the same clock,
// with no event queues. The two are independent from then on; they share
// their messages copy-on-write, so a fork of a realm of a million messages
// is as quick as a snapshot. The fork's Reset goes back to the state this
// realm was created in; snapshots of one cannot be restored into the
// other.
func (r *Realm) Fork() *Realm { return r.ForkOn(r.clock) }

// ForkOn is Fork with the fork on another clock, so that tests moving time
// in different forks do not move each other's.
func (r *Realm) ForkOn(c clock.Clock) *Realm {
	o := r.opts
	o.Clock = c
	f := &Realm{opts: o, clock: c, renderer: r.renderer, createdAt: r.createdAt,
		events: newEventHub(c, o.MaxQueueEvents, o.MaxQueuesPerUser), initial: r.initial}
	_ = r.updateVolatile(func() error {
		r.files.pinnedBelow = r.files.nextID // both realms hold them
		f.tables.copyFrom(&r.tables)
		return nil
	})
	// The fork delivers its own scheduled messages, once it is whole.
	_ = f.update(func() error {
		f.rearmAfterCopy()
		return nil
	})
	return f
}
