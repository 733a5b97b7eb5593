package realm

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/minizulip/minizulip/group"
)

// derivedState caches what the hot paths derive again and again from
// the realm's state: the transitive members of a group, the active
// subscribers of a channel. It is valid for one generation: since every
// write but a send's commit moves r.generation, and commits change
// neither groups nor subscriptions, a value computed at the current
// generation stays right until the next write.
//
// Readers fill it under the realm's read lock, several at once, so its
// maps are sync.Maps and a value is computed, at worst, twice. Writers
// never use it (r.writing): the state may be half-changed, and a value
// computed then would outlive the change.
type derivedState struct {
	generation uint64
	// groupMembers maps a group ID to the set of its members, through
	// its subgroups (map[int]struct{}).
	groupMembers sync.Map
	// subscribers maps a channel ID to its active subscribers' IDs,
	// sorted ([]int, shared: never to be changed).
	subscribers sync.Map
}

// derivedCache holds the derivedState of the current generation.
type derivedCache struct{ current atomic.Pointer[derivedState] }

// derived returns the derived state of the current generation, nil
// under the write lock. The caller holds r.mu.
func (r *Realm) derived() *derivedState {
	if r.writing {
		return nil
	}
	d := r.derivedCache.current.Load()
	if d == nil || d.generation != r.generation {
		d = &derivedState{generation: r.generation}
		r.derivedCache.current.Store(d)
	}
	return d
}

// groupMemberSet is the set of a group's members through its subgroups,
// from the derived state when there is one. g is not nil.
func (r *Realm) groupMemberSet(g *group.Group) (map[int]struct{}, bool) {
	d := r.derived()
	if d == nil {
		return nil, false
	}
	if set, ok := d.groupMembers.Load(g.ID); ok {
		return set.(map[int]struct{}), true
	}
	ids := group.MemberIDs(g, r.lookupGroup, nil)
	set := make(map[int]struct{}, len(ids))
	for _, id := range ids {
		set[id] = struct{}{}
	}
	d.groupMembers.Store(g.ID, set)
	return set, true
}

// activeSubscribers are the IDs of a channel's active subscribers,
// sorted. The slice may be shared: callers must not change it. The
// caller holds r.mu.
func (r *Realm) activeSubscribers(channelID int) []int {
	d := r.derived()
	if d != nil {
		if ids, ok := d.subscribers.Load(channelID); ok {
			return ids.([]int)
		}
	}
	ids := r.subscriberIDs(channelID)
	slices.Sort(ids)
	if d != nil {
		d.subscribers.Store(channelID, ids)
	}
	return ids
}
