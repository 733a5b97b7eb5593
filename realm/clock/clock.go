// Package clock gives a realm its time: the system clock, a manual clock
// that moves only when told to (for tests), and an offset clock that
// follows real time plus an offset a test can move ahead (for dev
// servers). A realm takes one with realm.WithClock; every time limit,
// timer and long-poll heartbeat of the realm follows it.
package clock

import "time"

// Clock gives the realm all its time: now, and the timers that end long
// polls with a heartbeat.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f once d has passed on this clock, in its own
	// goroutine or (for a manual clock) from the call that moves the clock
	// past the deadline. Stop on the result cancels a call not yet made.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc call.
type Timer interface {
	// Stop cancels the call; it reports whether the call was still pending.
	Stop() bool
}

// Adjustable is a Clock that can be moved forward: Manual, which only
// moves when told to, and Offset, which follows real time.
type Adjustable interface {
	Clock
	// Advance moves the clock forward by d and runs the timers it passes.
	Advance(d time.Duration)
	// Set moves the clock to t and runs the timers whose deadlines it reaches.
	Set(t time.Time)
}

type system struct{}

func (system) Now() time.Time { return time.Now() }

func (system) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// System is the wall clock.
var System Clock = system{}
