package realm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/minizulip/minizulip/realm/fixture"
)

// FixtureError refuses a fixture document, naming the offending item as
// a path into the document (e.g. "messages[3].sender_id").
type FixtureError struct {
	Item string // empty for the document as a whole
	Msg  string
}

func (e *FixtureError) Error() string {
	if e.Item == "" {
		return "fixture: " + e.Msg
	}
	return "fixture: " + e.Item + ": " + e.Msg
}

// badItem is a FixtureError for the item at path.
func badItem(path, format string, args ...any) error {
	return &FixtureError{Item: path, Msg: fmt.Sprintf(format, args...)}
}

// Load creates a realm from a fixture document (see fixture.Document; Dump writes
// one) with the given options; the Seed option is ignored, as the document
// says what the realm holds. Everything is checked: malformed JSON,
// unknown fields, duplicate IDs or addresses, bad names, references to
// users, groups, channels or emoji the document lacks, unknown flags and
// settings. A bad document is refused with a *FixtureError naming the
// offending item, and leaves nothing behind (uploaded files' bytes go to
// the upload store only once the rest is accepted). The document's
// presence is the realm's: WithSeededPresence seeds none. The loaded
// realm is what its Reset goes back to.
func Load(doc []byte, opts ...Option) (*Realm, error) {
	r := New(append(slices.Clone(opts), WithSeed(SeedEmpty), WithOwner("", ""))...)
	f := fixture.Document{Settings: r.settings.fixture()} // absent settings keep their values
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, &FixtureError{Msg: "not a valid fixture document: " + err.Error()}
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return nil, &FixtureError{Msg: "not a valid fixture document: data after the document"}
	}
	if f.Format != fixture.Format {
		return nil, badItem("minizulip_fixture", "format %d, want %d", f.Format, fixture.Format)
	}
	err := r.update(func() error {
		defer func() { r.opts.data.exactFollow = false }() // this load's alone
		if err := r.loadFixture(&f); err != nil {
			return err
		}
		r.applyAccountManagers()
		r.armDelivery()     // for the scheduled messages and reminders, now that the load succeeded
		r.syncFullMembers() // role:fullmembers as the waiting period has it; a timer for those still waiting
		r.armUnclaimedSweeps()
		r.initial = r.takeSnapshot()
		r.initial.id, r.snapshots = 0, 0
		return nil
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// loadFixture replaces the new realm's seeded accounts with the
// document's contents, checking each item as it goes; on error the realm
// is dropped. The caller holds the write lock.
func (r *Realm) loadFixture(f *fixture.Document) error {
	return r.loadTables(f)
}

// nextAfter is one more than the highest of ids and floor-1.
func nextAfter(floor int, ids ...int) int {
	next := floor
	for _, id := range ids {
		next = max(next, id+1)
	}
	return next
}

func invalidOrDuplicate(invalid bool) string {
	if invalid {
		return "invalid"
	}
	return "duplicate"
}

// subgroupCycle reports whether group id is reached again from its
// subgroups; path holds the groups on the way.
func (r *Realm) subgroupCycle(id int, path map[int]bool) bool {
	if path[id] {
		return true
	}
	path[id] = true
	defer delete(path, id)
	for sub := range r.groups.byID[id].Subgroups {
		if r.subgroupCycle(sub, path) {
			return true
		}
	}
	return false
}

// checkFixtureGroupSetting checks that a group setting names groups and
// users that exist.
func (r *Realm) checkFixtureGroupSetting(at string, v GroupSetting) error {
	if v.GroupID != 0 {
		if r.groups.byID[v.GroupID] == nil {
			return badItem(at, "no group %d", v.GroupID)
		}
		return nil
	}
	for _, id := range v.DirectMembers {
		if r.users.byID[id] == nil {
			return badItem(at, "no user %d", id)
		}
	}
	for _, id := range v.DirectSubgroups {
		if r.groups.byID[id] == nil {
			return badItem(at, "no group %d", id)
		}
	}
	return nil
}

// checkFixtureSettingValue refuses a fixture's named group for the
// setting name of scope ("realm", "stream", "group") that the setting
// does not take at the realm's level (checkNamedSettingValue), so that a
// realm never holds a value its API refuses.
func (r *Realm) checkFixtureSettingValue(at, scope, name string, v GroupSetting) error {
	g := r.groups.byID[v.GroupID]
	p, ok := r.permissionSetting(scope, name)
	if v.GroupID == 0 || g == nil || !ok {
		return nil
	}
	if err := checkNamedSettingValue(name, p, g); err != nil {
		return badItem(at, "%s at this feature level", err.(*Error).Msg)
	}
	return nil
}

// applyAccountManagers grants the WithAccountManagers accounts their
// permissions; the caller holds the write lock.
func (r *Realm) applyAccountManagers() {
	for _, email := range r.opts.AccountManagers {
		if u := r.userByEmail(email); u != nil && !u.IsSystemBot {
			u.CanCreateUsers, u.CanChangeUserEmails = true, true
		}
	}
}

// reason is an error's text without the code a realm error starts with.
func reason(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return err.Error()
}
