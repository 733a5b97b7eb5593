package realm

import (
	"slices"
	"time"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/user"
)

// Full members: role:fullmembers holds the members (role member) whose
// account is at least waiting_period_threshold days old, as Zulip's
// is_provisional_member counts days (whole days since date_joined). A
// new member younger than that joins role:members only; a change of the
// threshold moves members in and out at once, with user_group events
// (Zulip's update_users_in_full_members_system_group); and one timer on
// the realm's clock promotes each member the day the waiting period
// ends (Zulip's daily promote_new_full_members, here on time). The timer
// is machinery, not state: every change that can move the next promotion
// sets it again (armFullMembers), and so do restores and forks.

const secondsPerDay = 86400

// provisional reports whether u's account is younger than the realm's
// waiting period.
func (r *Realm) provisional(u *user.User) bool {
	days := r.settings.WaitingPeriodThreshold
	return days > 0 && r.clock.Now().Unix()-u.DateJoined < int64(days)*secondsPerDay
}

// isFullMember reports whether u belongs in role:fullmembers directly.
func (r *Realm) isFullMember(u *user.User) bool {
	return u.Role == user.RoleMember && !r.provisional(u)
}

// syncFullMembers puts in role:fullmembers exactly the members who are
// full members now, telling the realm who left and who joined, then
// sets the promotion timer. The caller holds the write lock.
func (r *Realm) syncFullMembers() {
	g := r.groups.byName[group.FullMembers]
	if g == nil {
		return
	}
	var add, remove []int
	for id, u := range r.users.byID {
		if u.IsSystemBot || u.Role != user.RoleMember {
			continue
		}
		_, in := g.Members[id]
		switch full := !r.provisional(u); {
		case full && !in:
			add = append(add, id)
		case !full && in:
			remove = append(remove, id)
		}
	}
	slices.Sort(add)
	slices.Sort(remove)
	if len(remove) > 0 {
		for _, id := range remove {
			delete(g.Members, id)
		}
		r.emitGroupChange(true, UserGroupMembersEvent{Op: "remove_members", GroupID: g.ID, UserIDs: remove})
	}
	if len(add) > 0 {
		for _, id := range add {
			g.Members[id] = struct{}{}
		}
		r.emitGroupChange(true, UserGroupMembersEvent{Op: "add_members", GroupID: g.ID, UserIDs: add})
	}
	r.armFullMembers()
}

// armFullMembers sets the promotion timer for the first member whose
// waiting period ends, or stops it when no member waits. The caller
// holds the write lock.
func (r *Realm) armFullMembers() {
	r.fullMembers.stop()
	days := r.settings.WaitingPeriodThreshold
	if days == 0 {
		return
	}
	next := int64(-1)
	for _, u := range r.users.byID {
		if u.IsSystemBot || u.Role != user.RoleMember || !r.provisional(u) {
			continue
		}
		if at := u.DateJoined + int64(days)*secondsPerDay; next < 0 || at < next {
			next = at
		}
	}
	if next < 0 {
		return
	}
	wait := time.Unix(next, 0).Sub(r.clock.Now())
	r.fullMembers.at, r.fullMembers.timer = next, r.clock.AfterFunc(wait, r.promoteFullMembers)
}

// promoteFullMembers runs from the timer: members whose waiting period
// has ended join role:fullmembers.
func (r *Realm) promoteFullMembers() {
	_ = r.update(func() error {
		r.syncFullMembers()
		return nil
	})
}

// afterPropertiesChange does what a PATCH /realm's property changes
// cause beyond their own events: the org_type event Zulip sends even
// unchanged, and role:fullmembers following a new waiting period.
func (r *Realm) afterPropertiesChange(before map[string]any, changes RealmChanges) {
	r.emitOrgTypeUnchanged(before, changes)
	if _, ok := changes["waiting_period_threshold"]; ok {
		r.syncFullMembers()
	}
}
