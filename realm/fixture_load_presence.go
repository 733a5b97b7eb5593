package realm

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/minizulip/minizulip/realm/fixture"
)

// This file dumps and loads users' presence.

// dumpPresence adds the users' presence (in update order) to f; the
// caller holds the lock.
func (r *Realm) dumpPresence(f *fixture.Document) {
	recs := slices.SortedFunc(maps.Keys(r.presence), func(a, b int) int {
		return r.presence[a].updateID - r.presence[b].updateID
	})
	for _, uid := range recs {
		rec := r.presence[uid]
		fp := fixture.Presence{UserID: uid, IdleTimestamp: rec.lastConnected.Unix()}
		if !rec.lastActive.IsZero() {
			fp.ActiveTimestamp = rec.lastActive.Unix()
		}
		f.Presence = append(f.Presence, fp)
	}
}

// loadPresence checks each presence: a human user listed once, a
// last report, and a last active report no later than it. The updates
// are numbered in the order listed.
func (r *Realm) loadPresence(f *fixture.Document) error {
	for i, fp := range f.Presence {
		at := fmt.Sprintf("presence[%d]", i)
		u, err := r.fixtureHuman(at, fp.UserID)
		if err != nil {
			return err
		}
		if r.presence[u.ID] != nil {
			return badItem(at+".user_id", "user %d has another presence", u.ID)
		}
		if fp.IdleTimestamp <= 0 {
			return badItem(at+".idle_timestamp", "%d is not a time", fp.IdleTimestamp)
		}
		if fp.ActiveTimestamp < 0 || fp.ActiveTimestamp > fp.IdleTimestamp {
			return badItem(at+".active_timestamp", "%d is not a time at or before idle_timestamp %d", fp.ActiveTimestamp, fp.IdleTimestamp)
		}
		rec := &presenceRecord{lastConnected: time.Unix(fp.IdleTimestamp, 0), updateID: i + 1}
		if fp.ActiveTimestamp > 0 {
			rec.lastActive = time.Unix(fp.ActiveTimestamp, 0)
		}
		if r.presence == nil {
			r.presence = map[int]*presenceRecord{}
		}
		r.presence[u.ID] = rec
	}
	r.presenceUpdates = len(f.Presence)
	return nil
}
