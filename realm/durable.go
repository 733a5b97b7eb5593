package realm

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"time"

	"github.com/minizulip/minizulip/realm/clock"
)

// A data directory keeps a realm across restarts and crashes (Open). It
// holds
//
//	LOCK      locked while a process has the directory open
//	snapshot  the realm at one moment (durable_snapshot.go)
//	journal   every mutation since, one record each (durable_journal.go)
//
// Memory stays the truth while the realm runs; the directory is how it
// survives. A mutation takes effect in memory and is in the journal (and,
// with FsyncAlways, on disk) before its call returns: room for its record
// is made before it runs, the record written once it took effect, and
// synced after the realm's lock is released, by group commit
// (durable_journal.go). The mutations with
// an operation record (durable_ops.go: sends, edits, deletions,
// reactions, flags, presence, the clock) append one small record and are
// replayed through the same methods at the next start, at the time they
// ran; every other mutation appends a tables record, the realm's tables
// but messages (durable_tables.go), or, when it changed messages already
// stored (a restore, a reset), writes a fresh snapshot before it returns.

// Data directory file names.
const (
	lockFileName     = "LOCK"
	snapshotFileName = "snapshot"
	journalFileName  = "journal"
	// seedFileName is a snapshot of the state the first start created,
	// before WithFirstStart's set-up: what Reset goes back to.
	seedFileName = "seed"
)

// DefaultJournalLimit is the journal size past which a write compacts
// the realm into a fresh snapshot (WithJournalLimit).
const DefaultJournalLimit = 16 << 20

// dataOptions are Open's options.
type dataOptions struct {
	fsync        FsyncPolicy
	repair       bool
	logf         func(format string, args ...any)
	fixture      []byte
	firstStart   func(*Realm) error
	journalLimit int64
	// messages are a snapshot's binary messages, which the load of its
	// fixture stores instead of the fixture's (durable_messages.go).
	messages []byte
	// keptMessages and keptFiles are what the load of a tables record
	// keeps of the realm it replays into: the message table, and the
	// bytes of the files the record names without them (durable_tables.go).
	keptMessages *messageTable
	keptFiles    map[string][]byte
	// exactFollow is set for the load of a snapshot's or a tables
	// record's document, whose exact tables follow: the document's
	// scheduled messages, reminders and drafts are not loaded, as their
	// checks at loading (a sender's permissions, the topic length)
	// need not hold for those kept (Zulip fails such a message when due).
	exactFollow bool
}

// withSnapshotMessages makes Load store msgs as the realm's messages.
// The document holds the realm's settings and plan: the options that
// start a new realm's (WithPlanType, WithSettings) do not apply.
func withSnapshotMessages(msgs []byte) Option {
	return func(o *Options) {
		o.data.messages, o.data.exactFollow = msgs, true
		o.PlanType, o.Settings = 0, nil
	}
}

// WithFsync sets when the journal reaches the disk (Open); the default
// is FsyncAlways.
func WithFsync(p FsyncPolicy) Option { return func(o *Options) { o.data.fsync = p } }

// WithDataRepair lets Open cut a journal damaged in the middle back to
// its last good record, logging what it drops, instead of refusing to
// start.
func WithDataRepair() Option { return func(o *Options) { o.data.repair = true } }

// WithDataLog gives Open where its log lines go (a torn record dropped,
// a repair); the default is the log package's logger.
func WithDataLog(logf func(format string, args ...any)) Option {
	return func(o *Options) { o.data.logf = logf }
}

// WithInitialFixture makes Open's first start load doc (as Load does)
// instead of seeding the realm.
func WithInitialFixture(doc []byte) Option { return func(o *Options) { o.data.fixture = doc } }

// WithFirstStart runs fn on the realm Open creates at its first start,
// before the realm is first written: set-up that later starts find done.
func WithFirstStart(fn func(*Realm) error) Option {
	return func(o *Options) { o.data.firstStart = fn }
}

// WithJournalLimit sets the journal size in bytes past which a write
// compacts the realm into a fresh snapshot (DefaultJournalLimit).
func WithJournalLimit(n int64) Option { return func(o *Options) { o.data.journalLimit = n } }

// durability is what a realm opened on a data directory has.
type durability struct {
	dir      string
	lock     *os.File
	realmID  string
	seq      uint64 // the snapshot's number; the journal's header names it
	j        *journal
	clk      *pinClock
	opts     dataOptions
	failures atomic.Int64 // compactions and appends that failed, for tests
	// snapshots counts the mutations written as a snapshot because they
	// changed the message table (durable_tables.go), for tests.
	snapshots atomic.Int64
	// replaying is set while the journal is replayed: mutations are not
	// journaled again, and no service is called.
	replaying bool
	// broken is set when the directory can no longer be trusted to hold
	// what the realm acknowledges (a failed fsync): writes are refused.
	broken error
	// seed reads, at a start that loaded the directory, the state the
	// first start created, for Reset; seeded is it, once read.
	seed   func() *Snapshot
	seeded *Snapshot
	// filesOnDisk are the path IDs of the files whose bytes the snapshot
	// or the journal holds, which a tables record leaves out; dumpWithout
	// is it while a tables record is dumped (durable_tables.go).
	filesOnDisk, dumpWithout map[string]bool
	// tablesReplays counts the tables records of the journal a replay
	// loads (a record followed by another may be skipped), and lastTables
	// is set when the journal's last record is one the next tables record
	// supersedes (durable_tables.go).
	tablesReplays int
	lastTables    bool
}

// resetState is the state Reset goes back to: the one the realm was
// created in, which for a realm loaded from a data directory is the one
// its first start created (the seed file), not the state loaded; the
// caller holds the write lock.
func (r *Realm) resetState() *Snapshot {
	d := r.dur
	if d == nil || d.seed == nil {
		return r.initial
	}
	if d.seeded == nil {
		d.seeded = d.seed()
	}
	if d.seeded == nil {
		return r.initial
	}
	return d.seeded
}

// seedFor returns the seed of a loaded realm: the state the first start
// created, read from the seed file; nil, with a log line, if it cannot be
// read.
func (d *durability) seedFor(opts []Option) func() *Snapshot {
	return func() *Snapshot {
		path := filepath.Join(d.dir, seedFileName)
		seed, snap, err := loadSnapshotFile(path, opts)
		if err == nil && snap.Header.RealmID != d.realmID {
			err = &DataError{File: path, Offset: 0, Msg: fmt.Sprintf("the seed of another realm (%s; the snapshot is realm %s)", snap.Header.RealmID, d.realmID)}
		}
		if err != nil {
			d.opts.logf("minizulip: data: reset: %v: resetting to the state loaded at the start", err)
			return nil
		}
		return seed.initial
	}
}

// Open opens the realm kept in the data directory dir, creating the
// directory and the realm (as New does with opts, or as Load does with
// WithInitialFixture) at the first start, and loading it at every later
// one: the snapshot, then the journal replayed. A torn record at the
// journal's end (a crash mid-write) is dropped with a log line; damage
// before the end stops the start with a *DataError naming the file and
// offset, unless WithDataRepair is given. A second Open of a directory
// open elsewhere is refused. Close the realm to release the directory.
func Open(dir string, opts ...Option) (*Realm, error) {
	var o Options
	for _, opt := range opts {
		opt(&o)
	}
	d := &durability{dir: dir, opts: o.data}
	if d.opts.logf == nil {
		d.opts.logf = log.Printf
	}
	if d.opts.journalLimit <= 0 {
		d.opts.journalLimit = DefaultJournalLimit
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("data directory %s: %w", dir, err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, lockFileName), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("data directory %s is not writable: %w", dir, err)
	}
	if err := lockFile(lock); err != nil {
		lock.Close()
		return nil, fmt.Errorf("data directory %s is in use by another process (%s is locked): %w", dir, lock.Name(), err)
	}
	d.lock = lock
	r, err := d.open(opts)
	if err != nil {
		d.release()
		return nil, err
	}
	return r, nil
}

// open creates or loads the realm; the caller holds the lock file.
func (d *durability) open(opts []Option) (*Realm, error) {
	snapPath := filepath.Join(d.dir, snapshotFileName)
	if _, err := os.Stat(snapPath); errors.Is(err, fs.ErrNotExist) {
		return d.create(opts)
	}
	r, snap, err := loadSnapshotFile(snapPath, opts)
	if err != nil {
		return nil, err
	}
	d.realmID, d.seq = snap.Header.RealmID, snap.Header.Seq
	d.seed = d.seedFor(opts)
	d.attach(r)
	if err := d.replayJournal(r); err != nil {
		return nil, err
	}
	return r, r.exclusive(func() error { d.noteFiles(r); return nil })
}

// loadSnapshotFile makes the realm held in the snapshot file at path.
func loadSnapshotFile(path string, opts []Option) (*Realm, *snapshotFile, error) {
	snap, err := readSnapshot(path)
	if err != nil {
		return nil, nil, err
	}
	r, err := loadSnapshotRealm(path, snap, opts)
	// A damaged file is reported as such, whatever its load made of it.
	if cerr := snap.check(); cerr != nil {
		return nil, nil, cerr
	}
	return r, snap, err
}

// loadSnapshotRealm makes the realm of a snapshot as read.
func loadSnapshotRealm(path string, snap *snapshotFile, opts []Option) (*Realm, error) {
	r, err := Load(snap.Fixture, append(slices.Clone(opts), withSnapshotMessages(snap.messages))...)
	if err != nil {
		return nil, &DataError{File: path, Offset: -1, Msg: err.Error()}
	}
	if err := r.setCounters(snap.Counters); err != nil {
		return nil, &DataError{File: path, Offset: -1, Msg: err.Error()}
	}
	if err := r.setEdits(snap.Edits); err != nil {
		return nil, &DataError{File: path, Offset: -1, Msg: err.Error()}
	}
	if err := r.setExactTables(snap.Tables); err != nil {
		return nil, &DataError{File: path, Offset: -1, Msg: err.Error()}
	}
	return r, nil
}

// create makes the realm of a first start and writes it.
func (d *durability) create(opts []Option) (*Realm, error) {
	if _, err := os.Stat(filepath.Join(d.dir, journalFileName)); err == nil {
		return nil, &DataError{File: filepath.Join(d.dir, journalFileName), Offset: -1,
			Msg: "a journal without its snapshot: the directory is incomplete (restore the snapshot, or move the journal away to start afresh)"}
	}
	var r *Realm
	if d.opts.fixture != nil {
		var err error
		if r, err = Load(d.opts.fixture, opts...); err != nil {
			return nil, err
		}
	} else {
		r = New(opts...)
	}
	var id [16]byte
	_, _ = rand.Read(id[:])
	d.realmID = hex.EncodeToString(id[:])
	// The state Reset goes back to, for later starts (resetState).
	if err := r.exclusive(func() error {
		body, msgs, err := r.durableImage()
		if err != nil {
			return err
		}
		return writeSnapshot(d.dir, seedFileName, snapshotHeader{Format: dataFormat, RealmID: d.realmID}, body, msgs)
	}); err != nil {
		return nil, fmt.Errorf("data directory %s: writing the seed: %w", d.dir, err)
	}
	if d.opts.firstStart != nil {
		if err := d.opts.firstStart(r); err != nil {
			return nil, err
		}
	}
	d.attach(r)
	if err := r.exclusive(func() error { return d.compact(r) }); err != nil {
		return nil, err
	}
	return r, nil
}

// attach makes d r's durability: r's clock can be pinned from now on.
func (d *durability) attach(r *Realm) {
	d.clk = &pinClock{base: r.clock}
	r.clock = d.clk
	r.dur = d
}

// release closes the lock file, unlocking the directory.
func (d *durability) release() {
	if d.lock != nil {
		d.lock.Close()
		d.lock = nil
	}
}

// replayJournal applies the journal's records to r, loaded from the
// snapshot, and opens the journal for appending.
func (d *durability) replayJournal(r *Realm) error {
	path := filepath.Join(d.dir, journalFileName)
	scan, err := scanJournal(path)
	if errors.Is(err, fs.ErrNotExist) {
		return d.newJournal() // the snapshot was written, its journal not yet
	}
	if err != nil {
		return fmt.Errorf("journal %s: %w", path, err)
	}
	if scan.damage != nil {
		if !d.opts.repair {
			return fmt.Errorf("%w (the journal is damaged before its end; -data-repair cuts it back to its last good record, dropping %d bytes)",
				scan.damage, scan.size-scan.good)
		}
		d.opts.logf("minizulip: data: repair: cutting %s back to offset %d, dropping %d bytes after %s",
			path, scan.good, scan.size-scan.good, scan.damage.Msg)
	} else if scan.torn {
		d.opts.logf("minizulip: data: dropping a torn record at the end of %s (offset %d, %d bytes): a write the crash interrupted, never acknowledged",
			path, scan.good, scan.size-scan.good)
	}
	if len(scan.payloads) == 0 {
		if scan.good > 0 || scan.size > 0 {
			d.opts.logf("minizulip: data: %s has no header; starting it again", path)
		}
		return d.newJournal()
	}
	var h journalHeader
	if err := json.Unmarshal(scan.payloads[0], &h); err != nil || h.Format == 0 {
		return &DataError{File: path, Offset: 0, Msg: "not a minizulip journal"}
	}
	if h.Format > dataFormat {
		return &DataError{File: path, Offset: 0, Msg: fmt.Sprintf("written by a newer minizulip (journal format %d; this one reads %d)", h.Format, dataFormat)}
	}
	if h.RealmID != d.realmID {
		return &DataError{File: path, Offset: 0, Msg: fmt.Sprintf("the journal of another realm (%s; the snapshot is realm %s)", h.RealmID, d.realmID)}
	}
	switch {
	case h.Seq < d.seq:
		// A compaction wrote the snapshot and stopped before starting the
		// journal again: the snapshot holds all of this one.
		return d.newJournal()
	case h.Seq > d.seq:
		return &DataError{File: path, Offset: 0, Msg: fmt.Sprintf("the journal follows snapshot %d, the snapshot is %d: the snapshot is older than its journal", h.Seq, d.seq)}
	}
	d.replaying = true
	records := scan.payloads[1:]
	tablesReplayed := false
	for i, p := range records {
		if i+1 < len(records) && supersededTables(p, records[i+1]) {
			continue
		}
		if tables, _ := isTablesRecord(p); tables {
			tablesReplayed = true
			d.tablesReplays++
		}
		d.lastTables = !isAdding(p)
		if err := d.replay(r, p); err != nil {
			d.replaying = false
			return &DataError{File: path, Offset: scan.offsets[i+1], Msg: "replaying: " + err.Error()}
		}
	}
	d.replaying = false
	d.clk.unpin()
	if scan.torn || scan.damage != nil {
		if err := os.Truncate(path, scan.good); err != nil {
			return fmt.Errorf("journal %s: cutting the torn end: %w", path, err)
		}
	}
	j, err := openJournal(path, scan.good, len(scan.payloads)-1, d.opts.fsync)
	if err != nil {
		return err
	}
	d.j = j
	// The timers armed during the replay ran on the pinned clock; the
	// files a tables record brought have no sweep armed yet.
	return r.exclusive(func() error {
		r.rearmAfterCopy()
		if tablesReplayed {
			r.armUnclaimedSweeps()
		}
		return nil
	})
}

// newJournal starts an empty journal for the current snapshot.
func (d *durability) newJournal() error {
	j, err := d.writeJournalHeader()
	if err != nil {
		return err
	}
	d.j = j
	return nil
}

// journalHeader is a journal's first record.
type journalHeader struct {
	Format  int    `json:"minizulip_journal"`
	RealmID string `json:"realm_id"`
	Seq     uint64 `json:"snapshot"`
}

// writeJournalHeader writes a journal holding only its header for the
// snapshot d.seq, atomically, and opens it.
func (d *durability) writeJournalHeader() (*journal, error) {
	path := filepath.Join(d.dir, journalFileName)
	h, _ := json.Marshal(journalHeader{Format: dataFormat, RealmID: d.realmID, Seq: d.seq})
	rec := frame(h)
	if err := writeFileAtomic(d.dir, path, rec); err != nil {
		return nil, err
	}
	return openJournal(path, int64(len(rec)), 0, d.opts.fsync)
}

// syncPoint is where a mutation's record ends in its journal: the
// mutation is durable once the journal is synced that far.
type syncPoint struct {
	j   *journal
	end int64
}

// wait returns once the record is on disk (FsyncAlways), or at once.
func (p syncPoint) wait() error {
	if p.j == nil {
		return nil
	}
	if err := p.j.waitSynced(p.end); err != nil {
		return &Error{Code: CodeDiskError, Status: 503,
			Msg: fmt.Sprintf("The change may not be on disk (%v): the realm takes no more changes until it is restarted", err)}
	}
	return nil
}

// CodeDiskError is a change the data directory could not take (a full
// disk): minizulip's own code, as Zulip answers such a failure with a
// bare 500.
const CodeDiskError Code = "DISK_ERROR"

// ErrDisk matches (errors.Is) the error of a change the data directory
// could not take: a 503 whose message says what failed, and that the
// realm is as it was before the call.
var ErrDisk = &Error{Code: CodeDiskError, Msg: "the data directory could not take the change", Status: 503}

// diskError is a change's failure to reach the disk.
func diskError(what string, err error) error {
	return &Error{Code: CodeDiskError, Status: 503,
		Msg: fmt.Sprintf("The change was not saved, and nothing changed: %s: %v", what, err)}
}

// mutate runs fn, a mutation under the realm's write lock or a send's
// commit lock, durably: with op, room for its record is made first (a
// full disk refuses the operation before it takes effect) and the record
// appended once fn succeeds, to be written by the wait; without, fn's result is written as a fresh snapshot,
// and a failure to write it puts the state back. The caller waits on the
// result, after unlocking, before answering.
func (d *durability) mutate(r *Realm, op *opRecord, fn func() error) (syncPoint, error) {
	if d.replaying {
		return syncPoint{}, fn()
	}
	if d.broken != nil {
		return syncPoint{}, d.broken
	}
	if err := d.j.failed(); err != nil {
		d.broken = &Error{Code: CodeDiskError, Status: 503,
			Msg: fmt.Sprintf("The data directory failed earlier (%v): the realm takes no more changes until it is restarted", err)}
		return syncPoint{}, d.broken
	}
	if op == nil || op.used {
		return d.mutateByTables(r, fn)
	}
	op.used = true
	now := d.clk.base.Now()
	rec, err := op.record(now.UnixNano())
	if err != nil {
		return syncPoint{}, fmt.Errorf("journal: encoding %s: %w", op.Op, err)
	}
	j := d.j
	if err := j.reserve(len(rec) + maxRewriteGrowth); err != nil {
		d.failures.Add(1)
		return syncPoint{}, diskError("writing the journal", err)
	}
	d.clk.pin(now)
	defer d.clk.unpin()
	if err := fn(); err != nil {
		return syncPoint{}, err
	}
	if op.rewritten {
		// The operation took effect: a record that cannot say so (past
		// the room made for it) ends the realm's writes, as a failed
		// append does.
		reserved := len(rec) + maxRewriteGrowth
		op.args, op.argsErr = nil, nil
		if rec, err = op.record(now.UnixNano()); err == nil && len(rec) > reserved {
			err = fmt.Errorf("the record grew past the room made for it")
		}
		if err != nil {
			d.failures.Add(1)
			d.broken = &Error{Code: CodeDiskError, Status: 503,
				Msg: fmt.Sprintf("The change may not be on disk (journal: encoding %s: %v): the realm takes no more changes until it is restarted", op.Op, err)}
			return syncPoint{}, d.broken
		}
	}
	end, err := j.append(rec)
	d.lastTables = false
	if err != nil {
		// The operation took effect and its record may not have: refuse
		// it and every change after it.
		d.failures.Add(1)
		return syncPoint{}, &Error{Code: CodeDiskError, Status: 503,
			Msg: fmt.Sprintf("The change may not be on disk (%v): the realm takes no more changes until it is restarted", err)}
	}
	if end > d.opts.journalLimit {
		// The record is written; the snapshot will hold it, synced.
		if err := d.compact(r); err != nil {
			d.opts.logf("minizulip: data: compaction failed, the journal goes on: %v", err)
		} else {
			return syncPoint{}, nil
		}
	}
	return syncPoint{j, end}, nil
}

// compact writes r as snapshot d.seq+1 and starts its journal empty; the
// caller holds r's write lock. Until the new snapshot's rename the old
// snapshot and journal stand; from it, the new snapshot does.
func (d *durability) compact(r *Realm) error {
	body, msgs, err := r.durableImage()
	if err != nil {
		return err
	}
	seq := d.seq + 1
	if err := writeSnapshot(d.dir, snapshotFileName, snapshotHeader{Format: dataFormat, RealmID: d.realmID, Seq: seq}, body, msgs); err != nil {
		return err
	}
	d.seq = seq
	d.noteFiles(r)
	d.tablesReplays, d.lastTables = 0, false
	old := d.j
	j, err := d.writeJournalHeader()
	if err != nil {
		// The snapshot holds everything so far, but nothing can be
		// appended: refuse writes until a restart.
		d.broken = &Error{Code: CodeDiskError, Status: 503,
			Msg: fmt.Sprintf("The journal could not be started again (%v): the realm takes no more changes until it is restarted", err)}
		if old != nil {
			old.supersede()
		}
		return nil
	}
	d.j = j
	if old != nil {
		old.supersede()
		_ = old.closeFile()
	}
	return nil
}

// Close writes the realm as a fresh snapshot (a clean shutdown: the next
// start replays nothing), closes the journal and releases the data
// directory. It does nothing for a realm not opened with Open.
func (r *Realm) Close() error {
	d := r.dur
	if d == nil {
		return nil
	}
	return r.exclusive(func() error {
		if d.lock == nil {
			return nil
		}
		var err error
		if d.broken == nil {
			err = d.compact(r)
		}
		if d.j != nil {
			if cerr := d.j.close(); err == nil {
				err = cerr
			}
		}
		d.release()
		return err
	})
}

// DataDir is the realm's data directory, "" for a realm in memory.
func (r *Realm) DataDir() string {
	if r.dur == nil {
		return ""
	}
	return r.dur.dir
}

// pinClock is a data directory realm's clock: the clock it was given,
// pinned to one time while an operation with a record runs, so that
// replaying the record sees the same time.
type pinClock struct {
	base   clock.Clock
	pinned atomic.Pointer[time.Time]
}

func (c *pinClock) Now() time.Time {
	if t := c.pinned.Load(); t != nil {
		return *t
	}
	return c.base.Now()
}

func (c *pinClock) AfterFunc(d time.Duration, f func()) clock.Timer { return c.base.AfterFunc(d, f) }

func (c *pinClock) pin(t time.Time) { c.pinned.Store(&t) }
func (c *pinClock) unpin()          { c.pinned.Store(nil) }

// baseClock is the clock r was given, under a data directory's pinClock.
func (r *Realm) baseClock() clock.Clock {
	if c, ok := r.clock.(*pinClock); ok {
		return c.base
	}
	return r.clock
}
