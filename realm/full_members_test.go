package realm

import (
	"slices"
	"testing"
	"time"

	"github.com/minizulip/minizulip/group"
)

// fullMemberIDs are role:fullmembers' direct members, sorted.
func fullMemberIDs(r *Realm) []int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var ids []int
	for id := range r.groups.byName[group.FullMembers].Members {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// With a waiting period, role:fullmembers holds only the members whose
// account is that many days old: raising it takes younger members out
// (one remove_members event), the realm's clock passing the end of
// their wait puts them back (add_members), a member who joins later
// waits too, and 0 makes every member a full member again.
func TestWaitingPeriodThresholdDecidesFullMembers(t *testing.T) {
	r, clk := newTestRealm(t)
	members := fullMemberIDs(r)
	if !slices.Contains(members, idHamlet) {
		t.Fatalf("full members %v without a waiting period", members)
	}
	r.mu.Lock()
	joined := r.users.byID[idHamlet].DateJoined
	r.mu.Unlock()
	// Hamlet joined at seed time; make him two days older than the rest.
	clk.Advance(2 * 24 * time.Hour)
	r.mu.Lock()
	r.users.byID[idHamlet].DateJoined = joined - 2*secondsPerDay
	r.mu.Unlock()
	q := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"user_group"}, LifespanSecs: 7 * 24 * 3600})
	three := 3
	if _, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{RealmPropertiesUpdate: RealmPropertiesUpdate{WaitingPeriodThreshold: &three}}); err != nil {
		t.Fatal(err)
	}
	// Hamlet is 4 days old, the others 2.
	if got := fullMemberIDs(r); !slices.Equal(got, []int{idHamlet}) {
		t.Fatalf("full members %v, want only Hamlet", got)
	}
	evs := pending(t, r, idIago, q, -1)
	if len(evs) != 1 || eventJSON(t, evs[0])["op"] != "remove_members" {
		t.Fatalf("events %v", evs)
	}
	last := evs[0].ID
	// A day later the others have waited 3 days.
	if err := r.AdvanceClock(24 * time.Hour); err != nil {
		t.Fatal(err)
	}
	if got := fullMemberIDs(r); !slices.Equal(got, members) {
		t.Fatalf("full members after the wait %v, want %v", got, members)
	}
	evs = pending(t, r, idIago, q, last)
	if len(evs) != 1 || eventJSON(t, evs[0])["op"] != "add_members" {
		t.Fatalf("events %v", evs)
	}
	// A new member waits three days from joining.
	id, err := r.As(idIago).CreateUser(bg, NewCreateUserRequest("young@zulip.com", "pw", "Young"))
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(fullMemberIDs(r), id) {
		t.Fatal("a new member is a full member at once")
	}
	if err := r.AdvanceClock(3*24*time.Hour - time.Second); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(fullMemberIDs(r), id) {
		t.Fatal("promoted a second early")
	}
	if err := r.AdvanceClock(time.Second); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(fullMemberIDs(r), id) {
		t.Fatal("not promoted after three days")
	}
	// Back to no waiting period: a newer member is a full member at once.
	zero := 0
	if _, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{RealmPropertiesUpdate: RealmPropertiesUpdate{WaitingPeriodThreshold: &zero}}); err != nil {
		t.Fatal(err)
	}
	id2, err := r.As(idIago).CreateUser(bg, NewCreateUserRequest("younger@zulip.com", "pw", "Younger"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(fullMemberIDs(r), id2) {
		t.Fatal("without a waiting period a new member is not a full member")
	}
}

// A realm loaded from a fixture promotes the members still waiting, on
// its clock, as the realm it was dumped from would have.
func TestWaitingPeriodSurvivesAFixture(t *testing.T) {
	r, clk := newTestRealm(t)
	three := 3
	if _, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{RealmPropertiesUpdate: RealmPropertiesUpdate{WaitingPeriodThreshold: &three}}); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(fullMemberIDs(r), idHamlet) {
		t.Fatal("Hamlet, joined now, is a full member")
	}
	doc := dumpDocument(t, r)
	fresh, freshClk := newTestRealm(t)
	freshClk.Set(clk.Now())
	if err := fresh.LoadFixture(encodeDocument(t, doc)); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(fullMemberIDs(fresh), idHamlet) {
		t.Fatal("the loaded realm made Hamlet a full member")
	}
	if err := fresh.AdvanceClock(3 * 24 * time.Hour); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(fullMemberIDs(fresh), idHamlet) {
		t.Fatal("the loaded realm never promoted Hamlet")
	}
}
