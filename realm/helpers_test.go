package realm

import (
	"context"
	"errors"
	"os"
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
	if os.Getenv("MINIZULIP_TEST_DATA") != "" && !changesTablesBehindTheAPI[strings.Split(t.Name(), "/")[0]] {
		return openCheckedDataRealm(t, clock, opts), clock
	}
	r := New(append([]Option{WithClock(clock)}, opts...)...)
	return r, clock
}

// With MINIZULIP_TEST_DATA set (.ci/run sets it for a second run of this
// package), every realm of newTestRealm is opened on a data directory and
// must come back the same from a crash when its test ends: every change
// a test makes through the realm's methods is journaled and replays to
// the same state. The tests below set up their realm by changing its
// tables directly (r.users.byID[…].IsActive = false, benchChannel…),
// which no journal sees: they run in memory.
var changesTablesBehindTheAPI = map[string]bool{
	"TestAddingSubscribersWithoutSubscriptionFollowsLevel": true,
	"TestCanSubscribeGroupFollowsFeatureLevel":             true,
	"TestChannelsForBotsAndArchived":                       true,
	"TestDeactivateObjectionForChannelSetting":             true,
	"TestDefaultInviteLimit":                               true,
	"TestDevFetchAPIKeyErrors":                             true,
	"TestDevListUsersOrderAndRoles":                        true,
	"TestEditTypingChannel":                                true,
	"TestEmailRefusalOf":                                   true,
	"TestFetchAPIKey":                                      true,
	"TestFetchFirstUnreadAndIsUnread":                      true,
	"TestFetchFirstUnreadSkipsMuted":                       true,
	"TestFlagsForNarrowClampsTheRange":                     true,
	"TestInvitingToDefaultChannelsFollowsLevel":            true,
	"TestListChannelFolders":                               true,
	"TestListUsers":                                        true,
	"TestMarkAllAsReadInBatches":                           true,
	"TestMarkUnreadCreatesUnreadHistoricalCopy":            true,
	"TestOwnUser":                                          true,
	"TestPresenceDisabledReportsAreDropped":                true,
	"TestReactionFollowsTopicOnParticipation":              true,
	"TestReactionVotesMatchByCode":                         true,
	"TestReactionsInAProtectedHistoryChannel":              true,
	"TestRecursiveMembershipAndDeactivatedUsers":           true,
	"TestRegisterUserSections":                             true,
	"TestRejectedReactionsChangeNothing":                   true,
	"TestServerSettingsValues":                             true,
	"TestSnapshotSharesNothingMutable":                     true,
	"TestSubscribeRejectionsChangeNothing":                 true,
	"TestTheOnlyActiveUserCannotLeave":                     true,
	"TestUserObjectShapes":                                 true,
}

// openCheckedDataRealm opens a realm on a new data directory; when the
// test ends, a crash and a restart must give the same dump.
func openCheckedDataRealm(t testing.TB, c *clock.Manual, opts []Option) *Realm {
	dir := t.TempDir()
	all := append([]Option{WithClock(c), WithDataLog(func(string, ...any) {})}, opts...)
	r, err := Open(dir, all...)
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	t.Cleanup(func() {
		if t.Failed() || r.dur == nil || r.dur.lock == nil {
			return
		}
		before, err := r.Dump()
		if err != nil {
			return
		}
		crash(r)
		again, err := Open(dir, all...)
		if err != nil {
			t.Errorf("MINIZULIP_TEST_DATA: reopening after a crash: %v", err)
			return
		}
		defer crash(again)
		after, _ := again.Dump()
		if string(before) != string(after) {
			a, b := strings.Split(string(before), "\n"), strings.Split(string(after), "\n")
			for i := range min(len(a), len(b)) {
				if a[i] != b[i] {
					lo := max(0, i-12)
					t.Errorf("MINIZULIP_TEST_DATA: a crash changed the dump at line %d:\n%s\n  before %.300s\n  after  %.300s", i+1, strings.Join(a[lo:i], "\n"), a[i], b[i])
					return
				}
			}
			t.Errorf("MINIZULIP_TEST_DATA: a crash changed the dump's length: %d lines, then %d", len(a), len(b))
		}
	})
	return r
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
