package realm

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm/clock"
)

// This file holds the test harness of the realm tests: the seeded users'
// IDs, a realm on a manual clock, and error checks.

// Seeded user IDs used throughout the realm tests.
const (
	idAaron           = 6
	idZoe             = 7
	idCordelia        = 8
	idDesdemona       = 9
	idHamlet          = 10
	idIago            = 11
	idOthello         = 12
	idPolonius        = 13
	idProspero        = 14
	idShiva           = 15
	idDefaultBot      = 16
	idNotificationBot = 4
)

var bg = context.Background()

func str(s string) *string { return &s }

func newTestRealm(t testing.TB, opts ...Option) (*Realm, *clock.Manual) {
	t.Helper()
	clock := clock.NewManual(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	r := New(append([]Option{WithClock(clock)}, opts...)...)
	return r, clock
}

func wantCode(t *testing.T, err error, code Code, msgPart string) *Error {
	t.Helper()
	var re *Error
	if !errors.As(err, &re) {
		t.Fatalf("error %v is not a *realm.Error (want %s)", err, code)
	}
	if re.Code != code || !strings.Contains(re.Msg, msgPart) {
		t.Fatalf("got %s %q, want %s containing %q", re.Code, re.Msg, code, msgPart)
	}
	return re
}

func itoa(n int) string { return strconv.Itoa(n) }

// manualAt is a manual clock stopped at t, for tests whose own variable
// named clock hides the package.
func manualAt(t time.Time) *clock.Manual { return clock.NewManual(t) }
