package clock

import (
	"slices"
	"sync"
	"time"
)

// timers is a movable clock's list of pending AfterFunc calls, shared by
// the manual and the offset clock. mu also guards the clock's own reading
// of time. arm, set by the offset clock, starts the wall-clock timer that
// fires t after d of real time if no move of the clock does first.
type timers struct {
	mu   sync.Mutex
	list []*timer
	arm  func(t *timer, d time.Duration) *time.Timer
}

// timer is one pending AfterFunc call.
type timer struct {
	owner    *timers
	deadline time.Time // on the clock, not on the wall
	f        func()
	real     *time.Timer // the offset clock's wall-clock timer
}

// add schedules f for deadline, d from now; the caller holds mu.
func (l *timers) add(deadline time.Time, d time.Duration, f func()) *timer {
	t := &timer{owner: l, deadline: deadline, f: f}
	if l.arm != nil {
		t.real = l.arm(t, d)
	}
	l.list = append(l.list, t)
	return t
}

// remove takes t off the list, reporting whether it was there; the caller
// holds mu.
func (l *timers) remove(t *timer) bool {
	i := slices.Index(l.list, t)
	if i < 0 {
		return false
	}
	l.list = slices.Delete(l.list, i, i+1)
	return true
}

// Stop cancels the timer.
func (t *timer) Stop() bool {
	l := t.owner
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.remove(t) {
		return false
	}
	if t.real != nil {
		t.real.Stop()
	}
	return true
}

// fireOne runs t, when its wall-clock timer goes off, unless it was
// stopped or already run by a move of the clock.
func (l *timers) fireOne(t *timer) {
	l.mu.Lock()
	ok := l.remove(t)
	l.mu.Unlock()
	if ok {
		t.f()
	}
}

// fireLocked takes the timers due at now off the list (re-arming the
// others' wall-clock timers for the time left to them), releases mu and
// calls the due ones in deadline order, so that a timer's function may
// use the clock. The caller holds mu.
func (l *timers) fireLocked(now time.Time) {
	var due []*timer
	kept := l.list[:0]
	for _, t := range l.list {
		if t.real != nil {
			t.real.Stop()
		}
		if !t.deadline.After(now) {
			due = append(due, t)
			continue
		}
		if l.arm != nil {
			t.real = l.arm(t, t.deadline.Sub(now))
		}
		kept = append(kept, t)
	}
	clear(l.list[len(kept):])
	l.list = kept
	l.mu.Unlock()
	slices.SortStableFunc(due, func(a, b *timer) int { return a.deadline.Compare(b.deadline) })
	for _, t := range due {
		t.f()
	}
}

// pending is the number of timers not yet fired or stopped.
func (l *timers) pending() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.list)
}
