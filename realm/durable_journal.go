package realm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"runtime"
	"sync"
	"time"
)

// The journal of a data directory (durable.go): a file of records, each
//
//	length  uint32, little-endian: the payload's bytes
//	crc     uint32, little-endian: CRC-32C (Castagnoli) of the payload
//	payload
//
// The first record is the journal's header (a journalHeader in JSON);
// every later one is an operation (an opRecord in JSON). The file is
// allocated ahead of its records: zero bytes after the last record are
// that space, not damage.

// recordHeaderSize is the bytes before a record's payload.
const recordHeaderSize = 8

// maxRecordSize bounds one record's payload: a longer length is damage.
const maxRecordSize = 64 << 20

// castagnoli is the CRC-32C table records are checked with.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// FsyncPolicy says when the journal reaches the disk, as Redis's
// appendfsync does.
type FsyncPolicy int

const (
	// FsyncAlways syncs before a mutation's answer returns (the default):
	// nothing acknowledged is lost, even by a power cut.
	FsyncAlways FsyncPolicy = iota
	// FsyncEverySec syncs once a second: a crash of the process loses
	// nothing (the records are in the kernel's cache), a power cut or a
	// crash of the machine loses up to the last second's mutations.
	FsyncEverySec
)

// String is the policy's flag value.
func (p FsyncPolicy) String() string {
	if p == FsyncEverySec {
		return "everysec"
	}
	return "always"
}

// ParseFsyncPolicy reads "always" or "everysec".
func ParseFsyncPolicy(s string) (FsyncPolicy, error) {
	switch s {
	case "always":
		return FsyncAlways, nil
	case "everysec":
		return FsyncEverySec, nil
	}
	return 0, fmt.Errorf("fsync policy %q: want always or everysec", s)
}

// journalFile is the journal's file as the journal uses it: the file
// on disk (openJournalFile), or a test's failing stand-in.
type journalFile interface {
	// WriteAt writes p at off, which lies in the allocated space.
	WriteAt(p []byte, off int64) (int, error)
	// Allocate makes the file size bytes long, reserving the space where
	// the system can (a later write into it cannot fail for space).
	Allocate(size int64) error
	// DataSync makes what is written durable (fdatasync: the file's data
	// and size, not its times).
	DataSync() error
	Truncate(size int64) error
	Close() error
}

// journalChunk is how far ahead the journal's space is allocated, and
// the unit it is mapped in.
const journalChunk = 1 << 20

// journal is the open journal file being appended to. Space is
// allocated ahead of the records, so that a full disk refuses an
// operation before it takes effect. A record is written under the
// realm's lock once its operation took effect, in that order: under
// FsyncEverySec into the file's memory mapping where the system has one
// (the kernel has it, so a crash of the process loses nothing, and
// writing costs no system call), else by a write (durable_file.go says
// why FsyncAlways writes). Whoever then waits for its record to be on disk
// syncs everything written so far for everyone, outside the realm's
// lock: group commit, one sync per batch.
type journal struct {
	path   string
	f      journalFile
	policy FsyncPolicy

	mu   sync.Mutex
	cond sync.Cond
	// size is where the next record goes, synced how much of the file is
	// known to be on disk, allocated how long the file is.
	size, synced, allocated int64
	syncing                 bool
	// syncs and syncedRecords count the syncs and the records they
	// covered, for the benchmarks.
	syncs, syncedRecords int64
	syncedAt             int // the records the last sync covered
	records              int
	// err is a write's or sync's failure: nothing written since is known
	// to be on disk, and the realm refuses writes (durable.go).
	err error
	// superseded is set when a snapshot holds everything the journal
	// held: its waiters need no sync.
	superseded bool
	stop       chan struct{}
	stopped    chan struct{}
	// kick wakes FsyncAlways's syncer: a record waits for the disk.
	kick chan struct{}
}

// frame returns payload as a record.
func frame(payload []byte) []byte {
	return appendFrame(make([]byte, 0, recordHeaderSize+len(payload)), payload)
}

// appendFrame appends payload as a record to b.
func appendFrame(b, payload []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(payload, castagnoli))
	return append(b, payload...)
}

// openJournal opens the journal at path, whose good records end at size,
// for appending.
func openJournal(path string, size int64, records int, policy FsyncPolicy) (*journal, error) {
	f, allocated, err := openJournalFile(path, policy == FsyncEverySec)
	if err != nil {
		return nil, err
	}
	j := &journal{path: path, f: f, policy: policy, size: size, synced: size,
		allocated: max(allocated, size), records: records}
	j.cond.L = &j.mu
	j.stop, j.stopped = make(chan struct{}), make(chan struct{})
	if policy == FsyncEverySec {
		go j.syncEverySecond()
	} else {
		j.kick = make(chan struct{}, 1)
		go j.syncWhileWaited()
	}
	return j, nil
}

// reserve makes room for a record of n bytes after the journal's end,
// allocating more of the file when it runs out; the caller holds the
// realm's lock. An error (a full disk) leaves the journal as it was.
func (j *journal) reserve(n int) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return j.err
	}
	need := j.size + int64(n)
	if need <= j.allocated {
		return nil
	}
	to := (need + journalChunk - 1) / journalChunk * journalChunk
	if err := j.f.Allocate(to); err != nil {
		// Take back what the failed call may have allocated.
		_ = j.f.Truncate(j.allocated)
		return err
	}
	j.allocated = to
	return nil
}

// append writes a framed record, for which reserve made room, after the
// last and returns where it ends; the caller holds the realm's lock, so
// appends never interleave. A failed write is the journal's failure
// (failed): the realm takes no more changes.
func (j *journal) append(rec []byte) (int64, error) {
	j.mu.Lock()
	at := j.size
	j.mu.Unlock()
	// The file's end is the caller's alone: no lock for the write.
	_, err := j.f.WriteAt(rec, at)
	j.mu.Lock()
	defer j.mu.Unlock()
	if err != nil {
		if j.err == nil {
			j.err = fmt.Errorf("journal %s: write: %w", j.path, err)
		}
		return 0, j.err
	}
	j.size = at + int64(len(rec))
	j.records++
	return j.size, nil
}

// waitSynced returns once the journal is on disk up to end (at once with
// FsyncEverySec), syncing it when no one else is: concurrent writers
// share one sync.
func (j *journal) waitSynced(end int64) error {
	if j.policy == FsyncEverySec {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	for !j.superseded && j.err == nil && j.synced < end {
		select {
		case j.kick <- struct{}{}:
		default: // the syncer is kicked already
		}
		j.cond.Wait()
	}
	if j.superseded {
		return nil
	}
	return j.err
}

// syncWhileWaited is FsyncAlways's syncer: it syncs everything written
// as long as records wait for the disk, one sync after the other, so
// that the records written during one sync go with the next as soon as
// it ends (a waiter's own goroutine would first have to be woken and
// scheduled).
func (j *journal) syncWhileWaited() {
	defer close(j.stopped)
	for {
		select {
		case <-j.stop:
			return
		case <-j.kick:
		}
		j.mu.Lock()
		for !j.superseded && j.err == nil && j.synced < j.size {
			if j.syncing {
				j.cond.Wait()
			} else {
				j.syncWritten()
			}
		}
		j.mu.Unlock()
	}
}

// syncTo returns once the journal is on disk up to end.
func (j *journal) syncTo(end int64) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	for !j.superseded && j.err == nil && j.synced < end {
		if j.syncing {
			j.cond.Wait()
		} else {
			j.syncWritten()
		}
	}
	if j.superseded {
		return nil
	}
	return j.err
}

// syncWritten syncs what is written; the caller holds j.mu, which it
// releases meanwhile.
func (j *journal) syncWritten() {
	j.syncing = true
	// Let the senders ready to write their records do so first, so that
	// the sync takes them too.
	j.mu.Unlock()
	runtime.Gosched()
	j.mu.Lock()
	end, records := j.size, j.records
	j.mu.Unlock()
	err := j.f.DataSync()
	j.mu.Lock()
	j.syncing = false
	if err != nil {
		if j.err == nil {
			j.err = fmt.Errorf("journal %s: fsync: %w", j.path, err)
		}
	} else if end > j.synced {
		j.syncs++
		j.syncedRecords += int64(records - j.syncedAt)
		j.synced, j.syncedAt = end, records
	}
	j.cond.Broadcast()
}

// syncEverySecond is FsyncEverySec's syncer.
func (j *journal) syncEverySecond() {
	defer close(j.stopped)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-j.stop:
			return
		case <-t.C:
		}
		j.mu.Lock()
		end := j.size
		stale := j.synced < end && !j.superseded
		j.mu.Unlock()
		if stale {
			_ = j.syncTo(end)
		}
	}
}

// supersede marks the journal as held by a snapshot and wakes its
// waiters.
func (j *journal) supersede() {
	j.mu.Lock()
	j.superseded = true
	j.cond.Broadcast()
	j.mu.Unlock()
}

// close syncs the file and closes it.
func (j *journal) close() error {
	if j.stop != nil {
		close(j.stop)
		<-j.stopped
		j.stop = nil
	}
	j.mu.Lock()
	end, superseded := j.size, j.superseded
	j.mu.Unlock()
	var err error
	if !superseded {
		err = j.syncTo(end)
	}
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// DataError refuses a data directory's file: it names the file and,
// for damage, the offset of the first bad byte.
type DataError struct {
	File   string
	Offset int64 // -1 when no offset applies
	Msg    string
}

func (e *DataError) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s: offset %d: %s", e.File, e.Offset, e.Msg)
}

// errDamaged marks a DataError about damage that -data-repair can cut
// off.
var errDamaged = errors.New("damaged")

// journalScan is what reading a journal found.
type journalScan struct {
	payloads [][]byte
	offsets  []int64 // where each payload's record starts
	good     int64   // where the last good record ends
	size     int64   // the file's size
	// torn is set when the file ends with an incomplete record, which
	// starts at good (and may be followed by zeros).
	torn bool
	// allocated is set when the records are followed by zeros only: the
	// space allocated ahead of them.
	allocated bool
	// damage is set when a bad record is followed by more bytes: the
	// journal cannot be trusted past good.
	damage *DataError
}

// scanJournal reads every record of the journal at path.
func scanJournal(path string) (*journalScan, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	s := &journalScan{size: int64(len(data))}
	off := 0
	for off < len(data) {
		rest := data[off:]
		if allZero(rest) {
			s.allocated = true // space allocated ahead (durable_journal.go)
			break
		}
		if len(rest) < recordHeaderSize {
			s.torn = true
			break
		}
		n := int(binary.LittleEndian.Uint32(rest[0:]))
		sum := binary.LittleEndian.Uint32(rest[4:])
		if n > maxRecordSize || n == 0 {
			// A torn header is followed by the allocated space's zeros.
			if n > maxRecordSize && recordHeaderSize+n > len(rest) || allZero(rest[recordHeaderSize:]) {
				s.torn = true
			} else {
				s.damage = &DataError{File: path, Offset: int64(off), Msg: fmt.Sprintf("bad record length %d", n)}
			}
			break
		}
		if recordHeaderSize+n > len(rest) {
			s.torn = true
			break
		}
		payload := rest[recordHeaderSize : recordHeaderSize+n]
		if crc32.Checksum(payload, castagnoli) != sum {
			if allZero(rest[recordHeaderSize+n:]) {
				s.torn = true // the last record, half written
			} else {
				s.damage = &DataError{File: path, Offset: int64(off), Msg: "record checksum mismatch"}
			}
			break
		}
		s.payloads = append(s.payloads, payload)
		s.offsets = append(s.offsets, int64(off))
		off += recordHeaderSize + n
	}
	s.good = int64(off)
	return s, nil
}

// allZero reports whether b holds only zero bytes.
func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// failed is the journal's write or sync failure, if any.
func (j *journal) failed() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// closeFile closes a superseded journal without writing it: the
// snapshot holds what it held.
func (j *journal) closeFile() error {
	if j.stop != nil {
		close(j.stop)
		<-j.stopped
		j.stop = nil
	}
	return j.f.Close()
}
