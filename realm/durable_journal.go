package realm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
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
// every later one is an operation (an opRecord in JSON). Records are
// appended under the realm's lock, in the order the operations took
// effect, and fsynced by group commit: whoever waits first syncs for
// everyone whose record is written by then.

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

// journal is the open journal file being appended to.
type journal struct {
	path   string
	f      *os.File
	policy FsyncPolicy

	mu   sync.Mutex
	cond sync.Cond
	// size is where the next record goes; synced is how much of the file
	// is known to be on disk; epoch moves when the file is cut back, so
	// that a sync begun before the cut does not count what was cut.
	size, synced int64
	epoch        uint64
	syncing      bool
	records      int
	// err is a sync's failure: nothing written since is known to be on
	// disk, and the realm refuses writes (durable.go).
	err error
	// superseded is set when a snapshot holds everything the journal
	// held: its waiters need no sync.
	superseded bool
	stop       chan struct{}
	stopped    chan struct{}
}

// frame returns payload as a record.
func frame(payload []byte) []byte {
	b := make([]byte, recordHeaderSize+len(payload))
	binary.LittleEndian.PutUint32(b[0:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(b[4:], crc32.Checksum(payload, castagnoli))
	copy(b[recordHeaderSize:], payload)
	return b
}

// openJournal opens the journal at path, whose good records end at size,
// for appending.
func openJournal(path string, size int64, records int, policy FsyncPolicy) (*journal, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	j := &journal{path: path, f: f, policy: policy, size: size, synced: size, records: records}
	j.cond.L = &j.mu
	if policy == FsyncEverySec {
		j.stop, j.stopped = make(chan struct{}), make(chan struct{})
		go j.syncEverySecond()
	}
	return j, nil
}

// appendRecord writes payload as the next record and returns where it
// ends; the caller holds the realm's lock, so appends never interleave.
// A failed write leaves the file as it was.
func (j *journal) appendRecord(payload []byte) (int64, error) {
	rec := frame(payload)
	j.mu.Lock()
	off := j.size
	j.mu.Unlock()
	if _, err := j.f.WriteAt(rec, off); err != nil {
		if terr := j.cut(off); terr != nil {
			return 0, fmt.Errorf("%w (and cutting it back failed: %v)", err, terr)
		}
		return 0, err
	}
	j.mu.Lock()
	j.size = off + int64(len(rec))
	j.records++
	j.mu.Unlock()
	return off + int64(len(rec)), nil
}

// cut truncates the journal back to off, dropping the records after it
// (a record whose operation failed, or a short write).
func (j *journal) cut(off int64) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.f.Truncate(off); err != nil {
		if j.err == nil {
			j.err = err
		}
		return err
	}
	if j.size > off {
		j.records--
	}
	j.size = off
	j.synced = min(j.synced, off)
	j.epoch++
	return nil
}

// waitSynced returns once the journal is on disk up to end (at once with
// FsyncEverySec), syncing it when no one else is: concurrent writers
// share one fsync.
func (j *journal) waitSynced(end int64) error {
	if j.policy == FsyncEverySec {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	for !j.superseded && j.synced < end && j.err == nil {
		if j.syncing {
			j.cond.Wait()
			continue
		}
		j.syncOnce()
	}
	if j.superseded {
		return nil
	}
	return j.err
}

// syncOnce syncs what is written; the caller holds j.mu, which it
// releases during the sync.
func (j *journal) syncOnce() {
	j.syncing = true
	target, epoch := j.size, j.epoch
	j.mu.Unlock()
	err := j.f.Sync()
	j.mu.Lock()
	j.syncing = false
	switch {
	case err != nil:
		if j.err == nil {
			j.err = fmt.Errorf("journal %s: fsync: %w", j.path, err)
		}
	case epoch == j.epoch && target > j.synced:
		j.synced = target
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
		if !j.syncing && j.synced < j.size && !j.superseded {
			j.syncOnce()
		}
		j.mu.Unlock()
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

// close syncs and closes the file.
func (j *journal) close() error {
	if j.stop != nil {
		close(j.stop)
		<-j.stopped
	}
	err := j.f.Sync()
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
	// starts at good.
	torn bool
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
		if len(rest) < recordHeaderSize {
			s.torn = true
			break
		}
		n := int(binary.LittleEndian.Uint32(rest[0:]))
		sum := binary.LittleEndian.Uint32(rest[4:])
		if n == 0 && allZero(rest) {
			s.torn = true // space the file system gave before the data arrived
			break
		}
		if n > maxRecordSize && recordHeaderSize+n <= len(rest) || n == 0 {
			s.damage = &DataError{File: path, Offset: int64(off), Msg: fmt.Sprintf("bad record length %d", n)}
			break
		}
		if recordHeaderSize+n > len(rest) {
			s.torn = true
			break
		}
		payload := rest[recordHeaderSize : recordHeaderSize+n]
		if crc32.Checksum(payload, castagnoli) != sum {
			if recordHeaderSize+n == len(rest) {
				s.torn = true
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

// failed is the journal's sync failure, if any.
func (j *journal) failed() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// closeFile closes a superseded journal without syncing it: the
// snapshot holds what it held.
func (j *journal) closeFile() error {
	if j.stop != nil {
		close(j.stop)
		<-j.stopped
		j.stop = nil
	}
	return j.f.Close()
}
