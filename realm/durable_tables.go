package realm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/clock"
	"github.com/minizulip/minizulip/realm/internal/store"
)

// Tables records: a mutation without an operation record (durable_ops.go)
// that leaves the message table as it was (a channel created, a setting
// changed, a user added, a file uploaded…) appends to the journal the
// realm's tables but messages, as a snapshot's body holds them
// (tablesBody: the fixture document without its messages, the ID counters
// and the exactly written tables). Its replay loads those tables as a
// snapshot's load does, keeping the messages the realm has. Such a record
// is the size of the realm without its messages, where a snapshot would
// write every message: a mutation costs what the realm holds beside its
// messages, not what it holds. Upload bytes that the snapshot or an
// earlier record of the journal holds are left out of the record
// (snapshotBody.KeptFiles) and taken at the replay from the realm replayed
// into. A mutation that changed the message table (a new user's history,
// a restore, a reset) still writes a fresh snapshot.

// The operation names of tables records: one holding the tables alone,
// which the replay skips when another tables record follows (that one
// holds all it holds), and one that also adds messages or the bytes of
// files, which later records may lack, and so is always replayed.
const (
	tablesOp       = "tables"
	tablesAddingOp = "tables_adding"
)

// messageMark is the message table before a change: the change only
// added messages (and their copies), or removed some, when the store is
// the same and its other writes touched no message below nextID.
type messageMark struct {
	store  *store.Store
	nextID int64
}

// mark starts watching the message table's writes.
func (t *messageTable) mark() messageMark {
	t.store.WatchWrites()
	return messageMark{store: t.store, nextID: t.nextID}
}

// storedChange is what a change did to the message table since a mark.
type storedChange struct {
	// journaled is set when a tables record can hold the change: it
	// added messages (from the mark's nextID on, when added is set),
	// removed the messages removed (IDs below the mark's nextID,
	// ascending), or left the table as it was.
	journaled, added bool
	removed          []int64
}

// changeSince reports what the table's change since m was, and stops
// watching.
func (t *messageTable) changeSince(m messageMark) storedChange {
	defer t.store.StopWatching()
	if t.store != m.store {
		return storedChange{}
	}
	var removed []int64
	for _, id := range t.store.Removed() {
		if id < m.nextID { // (a message added and removed is neither)
			removed = append(removed, id)
		}
	}
	slices.Sort(removed)
	return storedChange{journaled: t.store.LowestWrite() >= m.nextID,
		added: t.nextID != m.nextID, removed: removed}
}

// mutateByTables runs fn and appends a tables record, or writes a fresh
// snapshot when fn changed the message table; when neither can be
// written the realm goes back to its state before fn (event queues,
// which heard of the change, are dropped). The caller holds the write
// lock, and waits on the result once it is released.
func (d *durability) mutateByTables(r *Realm, fn func() error) (syncPoint, error) {
	before := &tables{}
	before.copyFrom(&r.tables)
	mark := r.messages.mark()
	if err := fn(); err != nil {
		return syncPoint{}, err
	}
	change := r.messages.changeSince(mark)
	only := change.journaled
	var rec []byte
	if only {
		from := int64(-1)
		if change.added {
			from = mark.nextID
		}
		var err error
		if rec, err = d.tablesRecord(r, from, change.removed); err != nil {
			d.rollback(r, before)
			return syncPoint{}, fmt.Errorf("journal: encoding the tables: %w", err)
		}
	}
	if !only || len(rec)-recordHeaderSize > maxTablesRecord {
		// A change to stored messages, or a record longer than the
		// journal takes (large files), is written as a snapshot.
		d.snapshots.Add(1)
		if err := d.compact(r); err != nil {
			d.rollback(r, before)
			return syncPoint{}, diskError("writing the snapshot", err)
		}
		return syncPoint{}, nil
	}
	j := d.j
	if err := j.reserve(len(rec)); err != nil {
		d.rollback(r, before)
		return syncPoint{}, diskError("writing the journal", err)
	}
	end, err := j.append(rec)
	if err != nil {
		// The journal failed (failed): it takes no more changes.
		d.rollback(r, before)
		return syncPoint{}, &Error{Code: CodeDiskError, Status: 503,
			Msg: fmt.Sprintf("The change was not saved, and nothing changed (%v): the realm takes no more changes until it is restarted", err)}
	}
	d.noteFiles(r)
	if !d.lastTables {
		d.tablesReplays++ // else it takes the place of the one before
	}
	d.lastTables = !isAdding(rec[recordHeaderSize:])
	if end > d.opts.journalLimit || d.tablesReplays > maxTablesReplays {
		if err := d.compact(r); err != nil {
			d.opts.logf("minizulip: data: compaction failed, the journal goes on: %v", err)
		} else {
			return syncPoint{}, nil
		}
	}
	return syncPoint{j, end}, nil
}

// rollback puts the realm back in the state before a change that could
// not be written.
func (d *durability) rollback(r *Realm, before *tables) {
	d.failures.Add(1)
	r.tables.copyFrom(before)
	r.events.DropAll()
	r.rearmAfterCopy()
}

// noteFiles records that the directory holds the bytes of every file r
// has (after a snapshot, a tables record or a start): the next tables
// records leave them out.
func (d *durability) noteFiles(r *Realm) {
	clear(d.filesOnDisk)
	if d.filesOnDisk == nil {
		d.filesOnDisk = make(map[string]bool, len(r.files.byPath))
	}
	for p := range r.files.byPath {
		d.filesOnDisk[p] = true
	}
}

// tablesRecord is r's tables record, framed, with the messages of IDs
// from from on (none for -1) and the IDs of the messages removed; the
// caller holds r's lock.
func (d *durability) tablesRecord(r *Realm, from int64, removed []int64) ([]byte, error) {
	d.dumpWithout = d.filesOnDisk
	body, err := r.tablesBody()
	d.dumpWithout = nil
	if err != nil {
		return nil, err
	}
	body.Removed = removed
	if from >= 0 {
		if body.Messages, err = r.encodeMessagesFrom(from); err != nil {
			return nil, err
		}
		r.messages.store.All().Up(from, func(m *message.Message) bool {
			if l := m.Changes().Edits; l != nil {
				if body.Edits == nil {
					body.Edits = map[int64][]message.Edit{}
				}
				e := l.NewestFirst()
				slices.Reverse(e)
				body.Edits[m.ID] = e
			}
			return true
		})
	}
	for p := range r.files.byPath {
		if d.filesOnDisk[p] {
			body.KeptFiles = append(body.KeptFiles, p)
		}
	}
	slices.Sort(body.KeptFiles)
	args, err := encodeBody(body)
	if err != nil {
		return nil, err
	}
	op := &opRecord{Op: tablesOp, args: bytes.TrimSpace(args)}
	if body.Messages != nil || body.Removed != nil || len(body.KeptFiles) < len(r.files.byPath) {
		op.Op = tablesAddingOp
	}
	return op.record(d.clk.base.Now().UnixNano())
}

// isTablesRecord reports whether a journal payload is a tables record,
// and whether it adds messages.
func isTablesRecord(payload []byte) (tables, adding bool) {
	switch {
	case bytes.HasPrefix(payload, []byte(`{"op":"`+tablesOp+`",`)):
		return true, false
	case bytes.HasPrefix(payload, []byte(`{"op":"`+tablesAddingOp+`",`)):
		return true, true
	}
	return false, false
}

// isAdding reports whether a journal payload is a tables record adding
// messages or files, or an operation record: one the replay never skips.
func isAdding(payload []byte) bool {
	tables, adding := isTablesRecord(payload)
	return !tables || adding
}

// maxTablesRecord is the longest tables record's payload: the journal's
// bound on a record (a variable for the tests).
var maxTablesRecord = maxRecordSize

// maxTablesReplays bounds the tables records a replay loads (each costs a
// load of the realm's tables, about 6 ms of a core for the dev realm, 40
// on a loaded machine): past it, a change compacts, as past the journal
// limit.
const maxTablesReplays = 50

// supersededTables reports whether the replay can skip the record p
// followed by next: a tables record adding neither messages nor files'
// bytes, followed by another, which holds all it holds.
func supersededTables(p, next []byte) bool {
	tables, adding := isTablesRecord(p)
	nextTables, _ := isTablesRecord(next)
	return tables && !adding && nextTables
}

// replayTables puts the tables of a tables record's body over r's,
// keeping r's messages.
func (d *durability) replayTables(r *Realm, raw json.RawMessage) error {
	var body snapshotBody
	if err := json.Unmarshal(raw, &body); err != nil {
		return err
	}
	var kept messageTable
	files := map[string][]byte{}
	opts := r.opts
	if err := r.exclusive(func() error {
		kept = r.messages.clone()
		if err := r.removeFrom(&kept, body.Removed); err != nil {
			return err
		}
		for _, p := range body.KeptFiles {
			if r.files.byPath[p] == nil {
				return fmt.Errorf("the record keeps the bytes of file %s, which the realm does not have", p)
			}
			b, err := r.files.read(p)
			if err != nil {
				return fmt.Errorf("file %s: %w", p, err)
			}
			files[p] = b
		}
		return nil
	}); err != nil {
		return err
	}
	// Loaded on a clock frozen at this moment, so that the loaded
	// realm's timers never run (as LoadFixture does).
	frozen := clock.NewManual(r.clock.Now())
	loaded, err := Load(body.Fixture, func(o *Options) {
		*o = opts
		o.Clock = frozen
		o.data.keptMessages, o.data.keptFiles = &kept, files
		o.data.messages, o.data.exactFollow = body.Messages, true
		o.PlanType, o.Settings = 0, nil // the document holds them (withSnapshotMessages)
	})
	if err != nil {
		return err
	}
	if err := loaded.setEdits(body.Edits); err != nil {
		return err
	}
	if err := loaded.setCounters(body.Counters); err != nil {
		return err
	}
	if err := loaded.putExactTables(body.Tables, false); err != nil {
		return err
	}
	return r.exclusive(func() error {
		// New tables: what the hot paths derived from the old ones (a
		// channel's subscribers, derived.go) is stale.
		r.generation++
		r.tables.copyFrom(&loaded.tables)
		r.rearmAfterCopy()
		return nil
	})
}

// removeFrom removes the messages of IDs ids from t, a copy of r's
// message table, as the change a tables record holds did; the caller
// holds r's lock.
func (r *Realm) removeFrom(t *messageTable, ids []int64) error {
	msgs := make([]*message.Message, 0, len(ids))
	for _, id := range ids {
		m, ok := t.store.Message(id)
		if !ok {
			return fmt.Errorf("the record removes message %d, which the realm does not have", id)
		}
		msgs = append(msgs, m)
	}
	if len(msgs) > 0 {
		t.store.RemoveMany(msgs, r.conversationOf)
	}
	return nil
}

// tablesReplayer is the replayer of tables records (replayers).
func tablesReplayer(a *Actor, raw json.RawMessage) error {
	return a.r.dur.replayTables(a.r, raw)
}
