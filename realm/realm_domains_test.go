package realm

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// eventLog reads a queue's events as they come, keeping them all.
type eventLog struct {
	t      *testing.T
	r      *Realm
	userID int
	q      *Queue
	last   int
	all    []map[string]any
}

func newEventLog(t *testing.T, r *Realm, userID int, types ...string) *eventLog {
	return &eventLog{t: t, r: r, userID: userID, q: mustQueue(t, r, userID, QueueOptions{EventTypes: types}), last: -1}
}

// read returns the events not read yet.
func (l *eventLog) read() []map[string]any {
	l.t.Helper()
	var out []map[string]any
	for _, ev := range pending(l.t, l.r, l.userID, l.q, l.last) {
		out = append(out, eventJSON(l.t, ev))
		l.last = ev.ID
	}
	l.all = append(l.all, out...)
	return out
}

// unchanged checks that a refused call left the realm's state as it was
// in before and sent the log's user nothing.
func unchanged(t *testing.T, r *Realm, before *Snapshot, log *eventLog) {
	t.Helper()
	if diff := stateDiff(before.state, r.Snapshot().state); diff != "" {
		t.Fatalf("a refused call changed the realm (-before +after):\n%s", diff)
	}
	if evs := log.read(); len(evs) != 0 {
		t.Fatalf("a refused call sent events: %v", evs)
	}
}

func mustDomains(t *testing.T, r *Realm, userID int) []RealmDomain {
	t.Helper()
	list, err := r.As(userID).RealmDomains(bg)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

func TestRealmDomainsLifecycle(t *testing.T) {
	r, _ := newTestRealm(t)
	log := newEventLog(t, r, idHamlet, "realm_domains")
	// Everyone, guests included, may list the domains: the dev realm's one.
	if diff := cmp.Diff([]RealmDomain{{Domain: "zulip.com"}}, mustDomains(t, r, idPolonius)); diff != "" {
		t.Fatalf("seeded domains (-want +got):\n%s", diff)
	}

	// Writes are for owners only; administrators are refused.
	before := r.Snapshot()
	_, _, err := r.As(idIago).AddRealmDomain(bg, "acme.com", true)
	wantCode(t, err, CodeUnauthorizedPrincipal, "Must be an organization owner")
	wantCode(t, r.As(idIago).UpdateRealmDomain(bg, "zulip.com", true), CodeUnauthorizedPrincipal, "Must be an organization owner")
	wantCode(t, r.As(idIago).RemoveRealmDomain(bg, "zulip.com"), CodeUnauthorizedPrincipal, "Must be an organization owner")
	wantCode(t, r.As(idIago).CheckRealmOwner(bg), CodeUnauthorizedPrincipal, "Must be an organization owner")
	if err := r.As(idDesdemona).CheckRealmOwner(bg); err != nil {
		t.Fatal(err)
	}
	unchanged(t, r, before, log)

	// The domain is trimmed and lower-cased.
	id, name, err := r.As(idDesdemona).AddRealmDomain(bg, "  Acme.COM ", true)
	if err != nil || id != 2 || name != "acme.com" {
		t.Fatalf("add: %d %q %v", id, name, err)
	}
	want := []RealmDomain{{Domain: "zulip.com"}, {Domain: "acme.com", AllowSubdomains: true}}
	if diff := cmp.Diff(want, mustDomains(t, r, idHamlet)); diff != "" {
		t.Fatalf("domains after add (-want +got):\n%s", diff)
	}
	state, err := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm_domains"}})
	if err != nil || state.RealmDomainsState == nil || !cmp.Equal(want, state.RealmDomainsState.RealmDomains) {
		t.Fatalf("register realm_domains: %+v %v", state.RealmDomainsState, err)
	}

	// Refusals, each changing nothing.
	log.read()
	before = r.Snapshot()
	for _, c := range []struct{ domain, msg string }{
		{"ACME.com", "The domain acme.com is already a part of your organization."},
		{"  ", "Invalid domain: Domain can't be empty."},
		{"test", "Invalid domain: Domain must have at least one dot (.)"},
		{"t.", "Invalid domain: Domain cannot start or end with a dot (.)"},
		{".com", "Invalid domain: Domain cannot start or end with a dot (.)"},
		{"test...com", "Invalid domain: Consecutive '.' are not allowed."},
		{"-test.com", "Invalid domain: Subdomains cannot start or end with a '-'."},
		{"test.-domain.com", "Invalid domain: Subdomains cannot start or end with a '-'."},
		{"test_domain.com", "Invalid domain: Domain can only have letters, numbers, '.' and '-'s."},
		{"a.b c", "Invalid domain: Domain can only have letters, numbers, '.' and '-'s."},
		{string(make([]byte, 252)) + ".com", "Invalid domain: Domain is too long"},
	} {
		_, _, err := r.As(idDesdemona).AddRealmDomain(bg, c.domain, false)
		if re := wantCode(t, err, CodeBadRequest, c.msg); re.Msg != c.msg {
			t.Fatalf("%q: message %q, want %q", c.domain, re.Msg, c.msg)
		}
	}
	// The path's domain is matched exactly.
	for _, d := range []string{"non-existent.com", "ACME.com"} {
		wantCode(t, r.As(idDesdemona).UpdateRealmDomain(bg, d, false), CodeBadRequest, "No entry found for domain "+d+".")
		wantCode(t, r.As(idDesdemona).RemoveRealmDomain(bg, d), CodeBadRequest, "No entry found for domain "+d+".")
	}
	unchanged(t, r, before, log)

	// Valid names of Zulip's tests.
	if _, _, err := r.As(idDesdemona).AddRealmDomain(bg, "x-x.y.3.z", false); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idDesdemona).UpdateRealmDomain(bg, "acme.com", false); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idDesdemona).RemoveRealmDomain(bg, "x-x.y.3.z"); err != nil {
		t.Fatal(err)
	}
	want = []RealmDomain{{Domain: "zulip.com"}, {Domain: "acme.com"}}
	if diff := cmp.Diff(want, mustDomains(t, r, idHamlet)); diff != "" {
		t.Fatalf("domains at the end (-want +got):\n%s", diff)
	}
	log.read()
	wantEvents := []map[string]any{
		{"type": "realm_domains", "op": "add", "realm_domain": map[string]any{"domain": "acme.com", "allow_subdomains": true}},
		{"type": "realm_domains", "op": "add", "realm_domain": map[string]any{"domain": "x-x.y.3.z", "allow_subdomains": false}},
		{"type": "realm_domains", "op": "change", "realm_domain": map[string]any{"domain": "acme.com", "allow_subdomains": false}},
		{"type": "realm_domains", "op": "remove", "domain": "x-x.y.3.z"},
	}
	if diff := cmp.Diff(wantEvents, log.all, ignoreEventIDs); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	// IDs are never reused.
	if id, _, _ := r.As(idDesdemona).AddRealmDomain(bg, "new.org", false); id != 4 {
		t.Fatalf("new domain ID %d, want 4", id)
	}
}

// ignoreEventIDs compares event maps without their "id".
var ignoreEventIDs = cmp.FilterPath(func(p cmp.Path) bool {
	if mi, ok := p.Last().(cmp.MapIndex); ok {
		return mi.Key().String() == "id" && len(p) == 3
	}
	return false
}, cmp.Ignore())

// Removing the realm's last domain while new users' addresses are
// restricted to its domains lifts the restriction first.
func TestRemoveLastRealmDomainLiftsRestriction(t *testing.T) {
	r, _ := newTestRealm(t)
	if _, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{EmailsRestrictedToDomains: boolPtr(true)}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.As(idDesdemona).AddRealmDomain(bg, "acme.com", false); err != nil {
		t.Fatal(err)
	}
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm", "realm_domains"}})
	if err := r.As(idDesdemona).RemoveRealmDomain(bg, "zulip.com"); err != nil {
		t.Fatal(err)
	}
	if !r.Settings().EmailsRestrictedToDomains {
		t.Fatal("one domain is left: the restriction stays")
	}
	if err := r.As(idDesdemona).RemoveRealmDomain(bg, "acme.com"); err != nil {
		t.Fatal(err)
	}
	if r.Settings().EmailsRestrictedToDomains {
		t.Fatal("no domain is left: the restriction is lifted")
	}
	var got []map[string]any
	for _, ev := range pending(t, r, idHamlet, q, -1) {
		got = append(got, eventJSON(t, ev))
	}
	want := []map[string]any{
		{"type": "realm_domains", "op": "remove", "domain": "zulip.com"},
		{"type": "realm", "op": "update", "property": "emails_restricted_to_domains", "value": false},
		{"type": "realm_domains", "op": "remove", "domain": "acme.com"},
	}
	if diff := cmp.Diff(want, got, ignoreEventIDs); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	// Without the restriction, removing the last domain changes no setting.
	r2, _ := newTestRealm(t)
	q2 := mustQueue(t, r2, idHamlet, QueueOptions{EventTypes: []string{"realm", "realm_domains"}})
	if err := r2.As(idDesdemona).RemoveRealmDomain(bg, "zulip.com"); err != nil {
		t.Fatal(err)
	}
	if evs := pending(t, r2, idHamlet, q2, -1); len(evs) != 1 || evs[0].Type != "realm_domains" {
		t.Fatalf("events %v", evs)
	}
}

// Snapshots, restores and forks carry the domains.
func TestRealmDomainsSnapshot(t *testing.T) {
	r, _ := newTestRealm(t)
	s := r.Snapshot()
	if _, _, err := r.As(idDesdemona).AddRealmDomain(bg, "acme.com", true); err != nil {
		t.Fatal(err)
	}
	f := r.Fork()
	if err := r.Restore(s); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]RealmDomain{{Domain: "zulip.com"}}, mustDomains(t, r, idHamlet)); diff != "" {
		t.Fatalf("restored domains (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]RealmDomain{{Domain: "zulip.com"}, {Domain: "acme.com", AllowSubdomains: true}}, mustDomains(t, f, idHamlet)); diff != "" {
		t.Fatalf("forked domains (-want +got):\n%s", diff)
	}
	// The fork's domains are its own.
	if err := f.As(idDesdemona).UpdateRealmDomain(bg, "zulip.com", true); err != nil {
		t.Fatal(err)
	}
	if mustDomains(t, r, idHamlet)[0].AllowSubdomains {
		t.Fatal("a fork's change reached its source")
	}
}
