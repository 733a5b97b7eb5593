package realm

import (
	"time"

	"github.com/minizulip/minizulip/realm/clock"
)

// The clocks live in package realm/clock; these names are kept for code
// written before it.

// Clock gives the realm all its time.
//
// Deprecated: use clock.Clock.
type Clock = clock.Clock

// Timer is a pending AfterFunc call.
//
// Deprecated: use clock.Timer.
type Timer = clock.Timer

// AdjustableClock is a Clock that can be moved forward.
//
// Deprecated: use clock.Adjustable.
type AdjustableClock = clock.Adjustable

// ManualClock is a Clock that only moves when told to.
//
// Deprecated: use clock.Manual.
type ManualClock = clock.Manual

// OffsetClock follows real time plus an offset that tests move.
//
// Deprecated: use clock.Offset.
type OffsetClock = clock.Offset

// SystemClock is the wall clock.
//
// Deprecated: use clock.System.
var SystemClock = clock.System

// NewManualClock returns a clock stopped at t.
//
// Deprecated: use clock.NewManual.
func NewManualClock(t time.Time) *ManualClock { return clock.NewManual(t) }

// NewOffsetClock returns a clock that reads real time until moved.
//
// Deprecated: use clock.NewOffset.
func NewOffsetClock() *OffsetClock { return clock.NewOffset() }
