package realm

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/clock"
)

// openTestDir opens a realm in dir on a manual clock, collecting the log.
func openTestDir(t *testing.T, dir string, c *clock.Manual, opts ...Option) (*Realm, *strings.Builder) {
	t.Helper()
	var log strings.Builder
	var mu sync.Mutex
	opts = append([]Option{WithClock(c), WithDataLog(func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(&log, format+"\n", args...)
	})}, opts...)
	r, err := Open(dir, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return r, &log
}

// crash abandons r as a killed process would: the journal and the lock
// are let go, nothing is compacted or synced.
func crash(r *Realm) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dur.j.stop != nil {
		close(r.dur.j.stop)
		<-r.dur.j.stopped
	}
	r.dur.j.f.Close()
	r.dur.release()
}

// dumpOf is r's fixture dump.
func dumpOf(t *testing.T, r *Realm) string {
	t.Helper()
	b, err := r.Dump()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// coreOperations runs every journaled operation once or more on r, moving
// the clock between them, and returns the IDs of the messages sent.
func coreOperations(t *testing.T, r *Realm, c *clock.Manual) []int64 {
	t.Helper()
	var ids []int64
	for i := range 5 {
		res, err := r.As(idIago).SendChannelMessage(bg, "Verona", "castle", fmt.Sprintf("message %d with **bold** and @**King Hamlet**", i))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.ID)
		c.Advance(1500 * time.Millisecond)
	}
	dm, err := r.As(idHamlet).SendDirectMessage(bg, []int{idIago, idOthello}, "a direct one")
	if err != nil {
		t.Fatal(err)
	}
	ids = append(ids, dm.ID)
	c.Advance(time.Minute)
	if _, err := r.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: ids[0], Content: str("edited, *twice*")}); err != nil {
		t.Fatal(err)
	}
	c.Advance(time.Second)
	if _, err := r.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: ids[1], Topic: str("moved"), PropagateMode: ChangeAll}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).DeleteMessage(bg, ids[4]); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idHamlet).AddReaction(bg, ReactionRequest{MessageID: ids[0], EmojiName: str("octopus")}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idOthello).AddReaction(bg, ReactionRequest{MessageID: ids[0], EmojiName: str("tada")}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idOthello).RemoveReaction(bg, ReactionRequest{MessageID: ids[0], EmojiName: str("tada")}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idHamlet).UpdateMessageFlags(bg, FlagsRequest{Messages: ids[:2], Op: "add", Flag: "starred"}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idHamlet).MarkChannelAsRead(bg, 0+r.channelIDOf(t, "Verona")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idOthello).MarkAllAsRead(bg); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idHamlet).UpdatePresence(bg, PresenceRequest{Status: "active", NewUserInput: true}); err != nil {
		t.Fatal(err)
	}
	// A refused operation leaves no record behind.
	if err := r.As(idHamlet).DeleteMessage(bg, ids[0]); err == nil {
		t.Fatal("hamlet deleted iago's message")
	}
	return ids
}

// channelIDOf is a channel's ID by name.
func (r *Realm) channelIDOf(t *testing.T, name string) int {
	t.Helper()
	var id int
	_ = r.view(func() error {
		if ch := r.channels.byName[strings.ToLower(name)]; ch != nil {
			id = ch.ID
		}
		return nil
	})
	if id == 0 {
		t.Fatalf("no channel %s", name)
	}
	return id
}

func TestDataDirKeepsEveryAcknowledgedOperationAcrossACrash(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c)
	coreOperations(t, r, c)
	wantNext := r.messages.nextID
	want := dumpOf(t, r)
	wantMessages := messagesOf(&r.tables)
	crash(r)

	r2, log := openTestDir(t, dir, clock.NewManual(c.Now()))
	defer r2.Close()
	if got := dumpOf(t, r2); got != want {
		t.Errorf("after the crash the dump differs:\n%s", lineDiff(want, got))
	}
	if got := messagesOf(&r2.tables); got != wantMessages {
		t.Errorf("after the crash the messages differ (edit history included):\n%s", lineDiff(wantMessages, got))
	}
	if log.Len() != 0 {
		t.Errorf("a clean journal logged %q", log.String())
	}
	// IDs go on from where they were, a deleted last message's included.
	res, err := r2.As(idIago).SendChannelMessage(bg, "Verona", "castle", "after")
	if err != nil {
		t.Fatal(err)
	}
	if res.ID != wantNext {
		t.Errorf("the next message is %d, want %d", res.ID, wantNext)
	}
}

func TestDataDirCleanCloseCompactsAndReopensTheSame(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c)
	coreOperations(t, r, c)
	// The last message deleted: its ID must not come back.
	last, err := r.As(idIago).SendChannelMessage(bg, "Verona", "castle", "last")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).DeleteMessage(bg, last.ID); err != nil {
		t.Fatal(err)
	}
	want, wantMessages := dumpOf(t, r), messagesOf(&r.tables)
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, journalFileName)); err != nil || fi.Size() > 200 {
		t.Fatalf("after a clean close the journal is %v, %v: want its header alone", fi.Size(), err)
	}
	r2, _ := openTestDir(t, dir, clock.NewManual(c.Now()))
	defer r2.Close()
	if got := dumpOf(t, r2); got != want {
		t.Errorf("after a clean close the dump differs:\n%s", lineDiff(want, got))
	}
	if got := messagesOf(&r2.tables); got != wantMessages {
		t.Errorf("after a clean close the messages differ:\n%s", lineDiff(wantMessages, got))
	}
	res, err := r2.As(idIago).SendChannelMessage(bg, "Verona", "castle", "after")
	if err != nil {
		t.Fatal(err)
	}
	if res.ID != last.ID+1 {
		t.Errorf("the next message is %d, want %d (the deleted last message's ID was given again)", res.ID, last.ID+1)
	}
}

// lineDiff shows the first lines where a and b differ.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, x, y)
		}
	}
	return "(same)"
}

// journalRecords are the offsets of the journal's records.
func journalRecords(t *testing.T, dir string) (*journalScan, []byte) {
	t.Helper()
	path := filepath.Join(dir, journalFileName)
	s, err := scanJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s, data
}

func TestDataDirDropsATornRecordWithALogLine(t *testing.T) {
	for _, tear := range []struct {
		name string
		cut  func(rec []byte) []byte
		// logged is unset for a record of zeros only: the space allocated
		// ahead of the records, which the write never reached.
		logged bool
	}{
		{"half a header", func(rec []byte) []byte { return rec[:5] }, true},
		{"half a payload", func(rec []byte) []byte { return rec[:len(rec)/2] }, true},
		{"bad checksum at the end", func(rec []byte) []byte { rec[len(rec)-1] ^= 0xff; return rec }, true},
		{"a header alone", func(rec []byte) []byte { return rec[:recordHeaderSize] }, true},
		{"zeros", func(rec []byte) []byte { return nil }, false},
	} {
		t.Run(tear.name, func(t *testing.T) {
			dir := t.TempDir()
			c := clock.NewManual(t0)
			r, _ := openTestDir(t, dir, c)
			if _, err := r.As(idIago).SendChannelMessage(bg, "Verona", "castle", "kept"); err != nil {
				t.Fatal(err)
			}
			want := dumpOf(t, r)
			if _, err := r.As(idIago).SendChannelMessage(bg, "Verona", "castle", "torn"); err != nil {
				t.Fatal(err)
			}
			crash(r)
			s, data := journalRecords(t, dir)
			lastAt := s.offsets[len(s.offsets)-1]
			// The torn record is followed by the allocated space's zeros,
			// as on disk.
			torn := append(data[:lastAt:lastAt], tear.cut(bytes.Clone(data[lastAt:s.good]))...)
			torn = append(torn, make([]byte, len(data)-len(torn))...)
			if err := os.WriteFile(filepath.Join(dir, journalFileName), torn, 0o600); err != nil {
				t.Fatal(err)
			}
			r2, log := openTestDir(t, dir, clock.NewManual(c.Now()))
			if got := dumpOf(t, r2); got != want {
				t.Errorf("the dump differs from the one before the torn send:\n%s", lineDiff(want, got))
			}
			if tear.logged && (!strings.Contains(log.String(), "dropping a torn record") || !strings.Contains(log.String(), fmt.Sprintf("offset %d", lastAt))) {
				t.Errorf("log = %q, want the torn record's offset %d", log.String(), lastAt)
			}
			if !tear.logged && log.Len() != 0 {
				t.Errorf("log = %q, want nothing for allocated space", log.String())
			}
			// The journal goes on after the cut.
			if _, err := r2.As(idIago).SendChannelMessage(bg, "Verona", "castle", "after"); err != nil {
				t.Fatal(err)
			}
			want = dumpOf(t, r2)
			crash(r2)
			r3, log := openTestDir(t, dir, clock.NewManual(c.Now()))
			defer r3.Close()
			if got := dumpOf(t, r3); got != want {
				t.Errorf("after writing past the cut the dump differs:\n%s", lineDiff(want, got))
			}
			if log.Len() != 0 {
				t.Errorf("the cut journal still logs %q", log.String())
			}
		})
	}
}

func TestDataDirStopsAtDamageInTheMiddleUnlessRepaired(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c)
	for i := range 4 {
		if _, err := r.As(idIago).SendChannelMessage(bg, "Verona", "castle", fmt.Sprint("message ", i)); err != nil {
			t.Fatal(err)
		}
	}
	crash(r)
	s, data := journalRecords(t, dir)
	bad := s.offsets[2] // the second send
	data[bad+recordHeaderSize+3] ^= 0x20
	path := filepath.Join(dir, journalFileName)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir, WithClock(clock.NewManual(c.Now())))
	var de *DataError
	if !errors.As(err, &de) || de.File != path || de.Offset != bad {
		t.Fatalf("Open = %v, want a DataError at %s offset %d", err, path, bad)
	}
	if !strings.Contains(err.Error(), "-data-repair") {
		t.Errorf("the error %q does not say how to repair", err)
	}
	// The refused start changed nothing and let the directory go.
	if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
		t.Error("a refused start changed the journal")
	}
	r2, log := openTestDir(t, dir, clock.NewManual(c.Now()), WithDataRepair())
	defer r2.Close()
	if !strings.Contains(log.String(), fmt.Sprintf("cutting %s back to offset %d", path, bad)) {
		t.Errorf("log = %q, want the repair's cut", log.String())
	}
	var contents []string
	r2.messages.store.All().Up(0, func(m *message.Message) bool {
		contents = append(contents, m.Content)
		return true
	})
	if got := strings.Join(contents[len(contents)-1:], ","); got != "message 0" {
		t.Errorf("after the repair the last message is %q, want message 0", got)
	}
}

func TestDataDirRefusesASecondProcess(t *testing.T) {
	dir := t.TempDir()
	r, _ := openTestDir(t, dir, clock.NewManual(t0))
	_, err := Open(dir)
	if err == nil || !strings.Contains(err.Error(), "in use by another process") {
		t.Fatalf("second Open = %v, want the directory in use", err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	r2, _ := openTestDir(t, dir, clock.NewManual(t0))
	r2.Close()
}

func TestDataDirBadInput(t *testing.T) {
	t.Run("a directory that cannot be made", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(file, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Open(filepath.Join(file, "data"))
		if err == nil || !strings.Contains(err.Error(), "data directory") {
			t.Fatalf("Open = %v", err)
		}
	})
	t.Run("a directory that is not writable", func(t *testing.T) {
		dir := t.TempDir()
		if os.Getuid() == 0 {
			// Root writes in any directory of a writable file system:
			// take one where no one can create a file.
			dir = "/proc/self"
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				t.Skip("root writes anywhere, and there is no /proc")
			}
		} else {
			if err := os.Chmod(dir, 0o500); err != nil {
				t.Fatal(err)
			}
			defer os.Chmod(dir, 0o700)
		}
		_, err := Open(dir)
		if err == nil || !strings.Contains(err.Error(), "not writable") {
			t.Fatalf("Open = %v", err)
		}
	})
	t.Run("a snapshot from a newer version", func(t *testing.T) {
		dir := t.TempDir()
		r, _ := openTestDir(t, dir, clock.NewManual(t0))
		r.Close()
		path := filepath.Join(dir, snapshotFileName)
		data, _ := os.ReadFile(path)
		data = bytes.Replace(data, []byte(`"minizulip_data":1`), []byte(`"minizulip_data":2`), 1)
		os.WriteFile(path, data, 0o600)
		_, err := Open(dir)
		if err == nil || !strings.Contains(err.Error(), "newer minizulip") || !strings.Contains(err.Error(), path) {
			t.Fatalf("Open = %v", err)
		}
	})
	t.Run("a damaged snapshot", func(t *testing.T) {
		dir := t.TempDir()
		r, _ := openTestDir(t, dir, clock.NewManual(t0))
		r.Close()
		path := filepath.Join(dir, snapshotFileName)
		data, _ := os.ReadFile(path)
		data[len(data)-10] ^= 1
		os.WriteFile(path, data, 0o600)
		_, err := Open(dir)
		if err == nil || !strings.Contains(err.Error(), "checksum") {
			t.Fatalf("Open = %v", err)
		}
	})
	t.Run("a journal from another realm", func(t *testing.T) {
		a, b := t.TempDir(), t.TempDir()
		ra, _ := openTestDir(t, a, clock.NewManual(t0))
		rb, _ := openTestDir(t, b, clock.NewManual(t0))
		ra.As(idIago).SendChannelMessage(bg, "Verona", "castle", "in a")
		crash(ra)
		crash(rb)
		data, _ := os.ReadFile(filepath.Join(a, journalFileName))
		os.WriteFile(filepath.Join(b, journalFileName), data, 0o600)
		_, err := Open(b)
		if err == nil || !strings.Contains(err.Error(), "journal of another realm") {
			t.Fatalf("Open = %v", err)
		}
	})
	t.Run("a journal without its snapshot", func(t *testing.T) {
		dir := t.TempDir()
		r, _ := openTestDir(t, dir, clock.NewManual(t0))
		r.Close()
		os.Remove(filepath.Join(dir, snapshotFileName))
		_, err := Open(dir)
		if err == nil || !strings.Contains(err.Error(), "without its snapshot") {
			t.Fatalf("Open = %v", err)
		}
	})
}

// fullFile is a journal file on a full disk: no space to allocate, no
// write goes through.
type fullFile struct{ journalFile }

func (fullFile) Allocate(int64) error                     { return syscall.ENOSPC }
func (fullFile) WriteAt(p []byte, off int64) (int, error) { return 0, syscall.ENOSPC }

// fullDisk makes the journal's file a full disk's, its allocated space
// used up.
func fullDisk(t *testing.T, r *Realm) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	j := r.dur.j
	j.mu.Lock()
	defer j.mu.Unlock()
	j.f = fullFile{j.f}
	j.allocated = j.size
}

func TestDataDirFullDiskRefusesTheWriteAndChangesNothing(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c)
	snap := r.Snapshot()
	sent, err := r.As(idIago).SendChannelMessage(bg, "Verona", "castle", "before")
	if err != nil {
		t.Fatal(err)
	}
	before := dumpOf(t, r)
	fullDisk(t, r)
	_, err = r.As(idIago).SendChannelMessage(bg, "Verona", "castle", "refused")
	if !errors.Is(err, ErrDisk) || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("send on a full disk = %v, want ErrDisk saying no space", err)
	}
	err = r.As(idHamlet).AddReaction(bg, ReactionRequest{MessageID: sent.ID, EmojiName: str("octopus")})
	if !errors.Is(err, ErrDisk) {
		t.Fatalf("reaction on a full disk = %v, want ErrDisk", err)
	}
	if got := dumpOf(t, r); got != before {
		t.Errorf("a refused write changed the realm:\n%s", lineDiff(before, got))
	}

	// A mutation written as a tables record (durable_tables.go).
	_, err = r.As(idIago).AddAlertWords(bg, []string{"castle"})
	if !errors.Is(err, ErrDisk) || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("a tables record on a full disk = %v, want ErrDisk saying no space", err)
	}
	if got := dumpOf(t, r); got != before {
		t.Errorf("a refused tables record changed the realm:\n%s", lineDiff(before, got))
	}

	// A mutation written as a snapshot (a restore, which changes stored
	// messages): the snapshot's temporary file is /dev/full.
	tmp := filepath.Join(dir, snapshotFileName+".tmp")
	if err := os.Symlink("/dev/full", tmp); err != nil {
		t.Fatal(err)
	}
	if err := r.Restore(snap); !errors.Is(err, ErrDisk) {
		t.Fatalf("a snapshotted write on a full disk = %v, want ErrDisk", err)
	}
	if got := dumpOf(t, r); got != before {
		t.Errorf("a refused snapshotted write changed the realm:\n%s", lineDiff(before, got))
	}
	crash(r)
	r2, _ := openTestDir(t, dir, clock.NewManual(c.Now()))
	defer r2.Close()
	if got := dumpOf(t, r2); got != before {
		t.Errorf("after the refused writes the restart differs:\n%s", lineDiff(before, got))
	}
}

// brokenFile is a journal file whose writes fail after its space was
// allocated, as on a failing disk.
type brokenFile struct{ journalFile }

func (brokenFile) WriteAt(p []byte, off int64) (int, error) { return 0, syscall.EIO }

// A write that fails after the operation took effect cannot be taken
// back: the caller hears DISK_ERROR, and the realm takes no more changes
// (nothing it acknowledges could be kept); a restart has what was
// acknowledged.
func TestDataDirFailedWriteStopsTheRealm(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c)
	if _, err := r.As(idIago).SendChannelMessage(bg, "Verona", "castle", "kept"); err != nil {
		t.Fatal(err)
	}
	want := dumpOf(t, r)
	r.mu.Lock()
	r.dur.j.f = brokenFile{r.dur.j.f}
	r.mu.Unlock()
	_, err := r.As(idIago).SendChannelMessage(bg, "Verona", "castle", "lost")
	if !errors.Is(err, ErrDisk) || !strings.Contains(err.Error(), "input/output error") {
		t.Fatalf("send on a failing disk = %v, want ErrDisk", err)
	}
	_, err = r.As(idHamlet).SendChannelMessage(bg, "Verona", "castle", "refused")
	if !errors.Is(err, ErrDisk) {
		t.Fatalf("the next send = %v, want ErrDisk", err)
	}
	crash(r)
	r2, _ := openTestDir(t, dir, clock.NewManual(c.Now()))
	defer r2.Close()
	if got := dumpOf(t, r2); got != want {
		t.Errorf("after a failed write the restart differs from what was acknowledged:\n%s", lineDiff(want, got))
	}
}

func TestDataDirConcurrentWritersShareFsyncs(t *testing.T) {
	for _, policy := range []FsyncPolicy{FsyncAlways, FsyncEverySec} {
		t.Run(policy.String(), func(t *testing.T) {
			dir := t.TempDir()
			c := clock.NewManual(t0)
			r, _ := openTestDir(t, dir, c, WithFsync(policy))
			var wg sync.WaitGroup
			senders := []int{idIago, idHamlet, idOthello, idCordelia}
			acked := make([][]int64, len(senders))
			for w, uid := range senders {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range 50 {
						res, err := r.As(uid).SendChannelMessage(bg, "Verona", fmt.Sprint("topic ", w), fmt.Sprintf("from %d: %d", uid, i))
						if err != nil {
							t.Error(err)
							return
						}
						acked[w] = append(acked[w], res.ID)
						if i%10 == 0 {
							if _, err := r.As(uid).UpdateMessage(bg, UpdateMessageRequest{MessageID: res.ID, Content: str(fmt.Sprintf("edited %d: %d", uid, i))}); err != nil {
								t.Error(err)
								return
							}
						}
					}
				}()
			}
			wg.Wait()
			want := messagesOf(&r.tables)
			crash(r)
			r2, _ := openTestDir(t, dir, clock.NewManual(c.Now()))
			defer r2.Close()
			if got := messagesOf(&r2.tables); got != want {
				t.Errorf("after the crash the messages differ:\n%s", lineDiff(want, got))
			}
			for _, ids := range acked {
				for _, id := range ids {
					if _, ok := r2.messages.store.Message(id); !ok {
						t.Errorf("acknowledged message %d is lost", id)
					}
				}
			}
		})
	}
}

func TestDataDirKeepsTheClockOffset(t *testing.T) {
	dir := t.TempDir()
	r, err := Open(dir, WithClock(clock.NewOffset()))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.AdvanceClock(48 * time.Hour); err != nil {
		t.Fatal(err)
	}
	crash(r)
	c := clock.NewOffset()
	r2, err := Open(dir, WithClock(c))
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if off := c.Offset(); off < 48*time.Hour-time.Second || off > 48*time.Hour+time.Second {
		t.Errorf("after the restart the clock's offset is %v, want 48h", off)
	}
}

// A restore and a reset are changes like any other: a crash after one
// comes back to the state it made.
func TestDataDirKeepsARestoreAndAReset(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c)
	initial := dumpOf(t, r)
	snap := r.Snapshot()
	if _, err := r.As(idIago).SendChannelMessage(bg, "Verona", "castle", "undone by the restore"); err != nil {
		t.Fatal(err)
	}
	must(t, r.Restore(snap))
	crash(r)
	r2, _ := openTestDir(t, dir, clock.NewManual(c.Now()))
	if got := dumpOf(t, r2); got != initial {
		t.Errorf("after a restore and a crash the dump differs:\n%s", lineDiff(initial, got))
	}
	if _, err := r2.As(idIago).SendChannelMessage(bg, "Verona", "castle", "undone by the reset"); err != nil {
		t.Fatal(err)
	}
	r2.Reset()
	crash(r2)
	r3, _ := openTestDir(t, dir, clock.NewManual(c.Now()))
	defer r3.Close()
	if got := dumpOf(t, r3); got != initial {
		t.Errorf("after a reset and a crash the dump differs:\n%s", lineDiff(initial, got))
	}
}

// Past the journal limit a write compacts: the snapshot takes the
// journal's place, and a crash after it loses nothing.
func TestDataDirCompactsPastTheJournalLimit(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c, WithJournalLimit(4096))
	seq := r.dur.seq
	for i := range 40 {
		if _, err := r.As(idIago).SendChannelMessage(bg, "Verona", "castle", fmt.Sprint("message ", i)); err != nil {
			t.Fatal(err)
		}
	}
	if r.dur.seq == seq {
		t.Fatal("40 sends past a 4 KiB journal limit wrote no snapshot")
	}
	if s, _ := journalRecords(t, dir); s.good > 4096+1024 {
		t.Fatalf("the journal's records are %d bytes, want it started again", s.good)
	}
	want, wantMessages := dumpOf(t, r), messagesOf(&r.tables)
	crash(r)
	r2, _ := openTestDir(t, dir, clock.NewManual(c.Now()))
	defer r2.Close()
	if got := dumpOf(t, r2); got != want {
		t.Errorf("after compactions and a crash the dump differs:\n%s", lineDiff(want, got))
	}
	if got := messagesOf(&r2.tables); got != wantMessages {
		t.Errorf("after compactions and a crash the messages differ:\n%s", lineDiff(wantMessages, got))
	}
}

// Reset after a restart goes back to the state the realm's options seed,
// as at the first start, not to the state the restart loaded.
func TestDataDirResetAfterARestartGoesBackToTheSeed(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c)
	seeded := dumpOf(t, r)
	if _, err := r.As(idIago).SendChannelMessage(bg, "Verona", "castle", "kept across the restart"); err != nil {
		t.Fatal(err)
	}
	must(t, r.Close())
	r2, _ := openTestDir(t, dir, c)
	if dumpOf(t, r2) == seeded {
		t.Fatal("the restart lost the message")
	}
	r2.Reset()
	if got := dumpOf(t, r2); got != seeded {
		t.Errorf("Reset after a restart differs from the first start's seed:\n%s", lineDiff(seeded, got))
	}
	// The reset is a change like any other: a crash keeps it.
	crash(r2)
	r3, _ := openTestDir(t, dir, c)
	defer r3.Close()
	if got := dumpOf(t, r3); got != seeded {
		t.Errorf("after a reset and a crash the dump differs from the seed:\n%s", lineDiff(seeded, got))
	}
}
