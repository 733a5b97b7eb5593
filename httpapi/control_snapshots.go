package httpapi

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"sync"

	"github.com/minizulip/minizulip/realm"
)

// snapshotTable holds the snapshots taken over HTTP, by ID, until deleted.
type snapshotTable struct {
	mu   sync.Mutex
	byID map[int]*realm.Snapshot
}

// snapshotAnswer is the body of POST /minizulip/snapshots.
type snapshotAnswer struct {
	SnapshotID int `json:"snapshot_id"`
}

// postSnapshot answers POST /minizulip/snapshots: the realm's state is
// kept under the returned ID.
func (s *Server) postSnapshot(*http.Request, *params) (any, error) {
	snap := s.realm.Snapshot()
	t := &s.tc.snapshots
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.byID == nil {
		t.byID = map[int]*realm.Snapshot{}
	}
	t.byID[snap.ID()] = snap
	return snapshotAnswer{SnapshotID: snap.ID()}, nil
}

// snapshotFor finds the snapshot a path names.
func (s *Server) snapshotFor(req *http.Request) (*realm.Snapshot, int, error) {
	raw := req.PathValue("snapshot_id")
	id, err := strconv.Atoi(raw)
	if err != nil {
		return nil, 0, realm.BadRequest("Invalid snapshot ID %q", raw)
	}
	t := &s.tc.snapshots
	t.mu.Lock()
	defer t.mu.Unlock()
	snap := t.byID[id]
	if snap == nil {
		return nil, 0, realm.BadRequest("No snapshot with ID %d", id)
	}
	return snap, id, nil
}

// restoreSnapshot answers POST /minizulip/snapshots/{snapshot_id}/restore:
// the realm goes back to the snapshot and every event queue is dropped.
// The snapshot stays, to be restored again.
func (s *Server) restoreSnapshot(req *http.Request, _ *params) (any, error) {
	snap, _, err := s.snapshotFor(req)
	if err != nil {
		return nil, err
	}
	if err := s.realm.Restore(snap); err != nil {
		return nil, realm.BadRequest("%v", err)
	}
	return nil, nil
}

// deleteSnapshot answers DELETE /minizulip/snapshots/{snapshot_id}: the
// snapshot is forgotten, freeing what it alone held.
func (s *Server) deleteSnapshot(req *http.Request, _ *params) (any, error) {
	_, id, err := s.snapshotFor(req)
	if err != nil {
		return nil, err
	}
	t := &s.tc.snapshots
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.byID, id)
	return nil, nil
}

// resetRealm answers POST /minizulip/reset: the realm goes back to the
// state it was created in, and every event queue is dropped.
func (s *Server) resetRealm(*http.Request, *params) (any, error) {
	s.realm.Reset()
	return nil, nil
}

// snapshotEntry is one snapshot as GET /minizulip/snapshots lists it.
type snapshotEntry struct {
	SnapshotID int `json:"snapshot_id"`
	// Created is when it was taken, by the realm's clock, in Unix seconds.
	Created int64 `json:"created"`
}

// listSnapshots answers GET /minizulip/snapshots: the snapshots kept, by
// ID.
func (s *Server) listSnapshots(*http.Request, *params) (any, error) {
	t := &s.tc.snapshots
	t.mu.Lock()
	out := make([]snapshotEntry, 0, len(t.byID))
	for id, snap := range t.byID {
		out = append(out, snapshotEntry{SnapshotID: id, Created: snap.Taken().Unix()})
	}
	t.mu.Unlock()
	slices.SortFunc(out, func(a, b snapshotEntry) int { return cmp.Compare(a.SnapshotID, b.SnapshotID) })
	return map[string]any{"snapshots": out}, nil
}
