package realm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/clock"
)

// tablesChanges are changes that leave the messages as they are, or only
// add some (a new channel's notice), mixed with sends that need them
// replayed first (into the new channel).
func tablesChanges(t *testing.T, r *Realm) {
	t.Helper()
	must(t, errOf(r.As(idIago).CreateChannel(bg, CreateChannelRequest{Name: "stage", Description: "the stage", Subscribers: []int{idIago, idHamlet}})))
	must(t, errOf(r.As(idHamlet).SendChannelMessage(bg, "stage", "act 1", "to be")))
	must(t, errOf(r.As(idIago).UpdateRealm(bg, RealmUpdate{Name: str("Elsinore")})))
	must(t, errOf(r.As(idHamlet).AddAlertWords(bg, []string{"ghost"})))
	must(t, errOf(r.As(idHamlet).AddAlertWords(bg, []string{"skull"})))
	must(t, errOf(r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "players", Description: "the players", Members: []int{idHamlet}})))
	must(t, errOf(r.As(idHamlet).SendChannelMessage(bg, "stage", "act 1", "or not to be")))
	must(t, errOf(r.AddUser(NewUser{Email: "horatio@zulip.com", FullName: "Horatio"})))
	must(t, errOf(r.As(idHamlet).Upload(bg, UploadRequest{Name: "notes.txt", ContentType: "text/plain", Body: strings.NewReader("words, words, words")})))
}

// tablesRecords lists the operation names of the journal's records.
func journalOps(t *testing.T, dir string) []string {
	t.Helper()
	s, _ := journalRecords(t, dir)
	var ops []string
	for _, p := range s.payloads[1:] {
		var op opReplayed
		if err := json.Unmarshal(p, &op); err != nil {
			t.Fatal(err)
		}
		ops = append(ops, op.Op)
	}
	return ops
}

// A change that leaves the messages as they are (or only adds some)
// appends a tables record instead of writing a snapshot of every
// message; a crash and a clean restart give the same realm back.
func TestDataDirJournalsTablesWithoutASnapshot(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c)
	seq := r.dur.seq
	tablesChanges(t, r)
	if r.dur.seq != seq || r.dur.snapshots.Load() != 0 {
		t.Errorf("the changes wrote %d snapshots (%d by a message change), want none", r.dur.seq-seq, r.dur.snapshots.Load())
	}
	ops := strings.Join(journalOps(t, dir), " ")
	if want := "tables_adding send tables tables tables tables send tables tables_adding"; ops != want {
		t.Errorf("journal records: %s, want %s", ops, want)
	}
	want, wantFiles := dumpOf(t, r), filesOf(t, r)
	crash(r)
	r2, log := openTestDir(t, dir, clock.NewManual(c.Now()))
	sameState(t, r2, "after a crash", want, wantFiles)
	if log.Len() != 0 {
		t.Errorf("log: %s", log)
	}
	// The journal goes on, and the replayed realm journals as before.
	must(t, errOf(r2.As(idHamlet).SendChannelMessage(bg, "stage", "act 2", "after the restart")))
	must(t, errOf(r2.As(idHamlet).AddAlertWords(bg, []string{"yorick"})))
	want, wantFiles = dumpOf(t, r2), filesOf(t, r2)
	must(t, r2.Close())
	r3, _ := openTestDir(t, dir, clock.NewManual(c.Now()))
	defer r3.Close()
	sameState(t, r3, "after a clean restart", want, wantFiles)
}

// A tables record leaves out the bytes of the files the snapshot or an
// earlier record holds: a change after an upload costs the tables, not
// the files.
func TestDataDirTablesRecordsLeaveOutFilesOnDisk(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c)
	big := strings.Repeat("a large file. ", 20_000) // 280 kB
	must(t, errOf(r.As(idHamlet).AddAlertWords(bg, []string{"castle"})))
	s, _ := journalRecords(t, dir)
	tablesSize := len(s.payloads[len(s.payloads)-1])
	must(t, errOf(r.As(idHamlet).Upload(bg, UploadRequest{Name: "big.txt", ContentType: "text/plain", Body: strings.NewReader(big)})))
	s, _ = journalRecords(t, dir)
	if n := len(s.payloads[len(s.payloads)-1]); n < len(big) {
		t.Fatalf("the upload's record is %d bytes, want the file's %d at least", n, len(big))
	}
	must(t, errOf(r.As(idHamlet).AddAlertWords(bg, []string{"ghost"})))
	s, _ = journalRecords(t, dir)
	last := s.payloads[len(s.payloads)-1]
	if len(last) > tablesSize+1000 || !bytes.Contains(last, []byte(`"kept_files":[`)) {
		t.Errorf("the next record is %d bytes (kept_files: %v), want the file left out", len(last), bytes.Contains(last, []byte("kept_files")))
	}
	want, wantFiles := dumpOf(t, r), filesOf(t, r)
	crash(r)
	r2, _ := openTestDir(t, dir, clock.NewManual(c.Now()))
	if got := filesOf(t, r2); got != wantFiles || !strings.Contains(got, big) {
		t.Errorf("after a crash the files differ:\n%.500s", lineDiff(wantFiles, got))
	}
	// After the replay the file is known to be on disk: left out again.
	must(t, errOf(r2.As(idHamlet).AddAlertWords(bg, []string{"skull"})))
	s, _ = journalRecords(t, dir)
	if n := len(s.payloads[len(s.payloads)-1]); n > tablesSize+1000 {
		t.Errorf("the record after the restart is %d bytes, want the file left out", n)
	}
	want, wantFiles = dumpOf(t, r2), filesOf(t, r2)
	crash(r2)
	r3, _ := openTestDir(t, dir, clock.NewManual(c.Now()))
	defer r3.Close()
	sameState(t, r3, "after a second crash", want, wantFiles)
}

// A tables record torn by a crash is dropped: the realm is as it was
// before the change, which was never acknowledged.
func TestDataDirDropsATornTablesRecord(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c)
	must(t, errOf(r.As(idHamlet).AddAlertWords(bg, []string{"ghost"})))
	want := dumpOf(t, r)
	must(t, errOf(r.As(idIago).CreateChannel(bg, CreateChannelRequest{Name: "stage", Subscribers: []int{idIago}})))
	crash(r)
	s, data := journalRecords(t, dir)
	lastAt := s.offsets[len(s.offsets)-1]
	torn := append(data[:lastAt:lastAt], data[lastAt:lastAt+(s.good-lastAt)/2]...)
	torn = append(torn, make([]byte, len(data)-len(torn))...)
	if err := os.WriteFile(filepath.Join(dir, journalFileName), torn, 0o600); err != nil {
		t.Fatal(err)
	}
	r2, log := openTestDir(t, dir, clock.NewManual(c.Now()))
	defer r2.Close()
	if got := dumpOf(t, r2); got != want {
		t.Errorf("the dump differs from the one before the torn change:\n%s", lineDiff(want, got))
	}
	if !strings.Contains(log.String(), "dropping a torn record") {
		t.Errorf("log = %q, want the torn record dropped", log)
	}
	// The channel can be made again, after the cut.
	must(t, errOf(r2.As(idIago).CreateChannel(bg, CreateChannelRequest{Name: "stage", Subscribers: []int{idIago}})))
}

// A tables record that cannot be written leaves the realm as it was:
// a full disk refuses the change, a failing one refuses it and every
// later change.
func TestDataDirUnwrittenTablesRecordChangesNothing(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c)
	must(t, errOf(r.As(idHamlet).AddAlertWords(bg, []string{"ghost"})))
	before := dumpOf(t, r)
	fullDisk(t, r)
	_, err := r.As(idIago).CreateChannel(bg, CreateChannelRequest{Name: "stage", Subscribers: []int{idIago}})
	if !errors.Is(err, ErrDisk) || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("a channel created on a full disk = %v, want ErrDisk saying no space", err)
	}
	if got := dumpOf(t, r); got != before {
		t.Errorf("a refused change changed the realm:\n%s", lineDiff(before, got))
	}
	crash(r)

	r2, _ := openTestDir(t, dir, clock.NewManual(c.Now()))
	if got := dumpOf(t, r2); got != before {
		t.Errorf("after the refused change the restart differs:\n%s", lineDiff(before, got))
	}
	r2.mu.Lock()
	r2.dur.j.f = brokenFile{r2.dur.j.f}
	r2.mu.Unlock()
	_, err = r2.As(idHamlet).AddAlertWords(bg, []string{"skull"})
	if !errors.Is(err, ErrDisk) || !strings.Contains(err.Error(), "input/output error") {
		t.Fatalf("a change on a failing disk = %v, want ErrDisk", err)
	}
	if got := dumpOf(t, r2); got != before {
		t.Errorf("a change whose record failed changed the realm:\n%s", lineDiff(before, got))
	}
	if _, err := r2.As(idHamlet).AddAlertWords(bg, []string{"yorick"}); !errors.Is(err, ErrDisk) {
		t.Fatalf("the next change = %v, want ErrDisk", err)
	}
	crash(r2)
	r3, _ := openTestDir(t, dir, clock.NewManual(c.Now()))
	defer r3.Close()
	if got := dumpOf(t, r3); got != before {
		t.Errorf("after the failed change the restart differs:\n%s", lineDiff(before, got))
	}
}

// A change to messages already stored, outside the operation records (a
// restore), is written as a snapshot.
func TestDataDirSnapshotsAChangeToStoredMessages(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c)
	snap := r.Snapshot()
	must(t, errOf(r.As(idIago).SendChannelMessage(bg, "Verona", "castle", "undone")))
	seq := r.dur.seq
	must(t, r.Restore(snap))
	if r.dur.seq != seq+1 || r.dur.snapshots.Load() != 1 {
		t.Errorf("the restore wrote snapshot %d (%d by a message change), want %d", r.dur.seq, r.dur.snapshots.Load(), seq+1)
	}
	if ops := journalOps(t, dir); len(ops) != 0 {
		t.Errorf("the journal after the restore's snapshot holds %v", ops)
	}
}

// The journal limit counts tables records too: past it, a change
// compacts.
func TestDataDirTablesRecordsCompactPastTheLimit(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c, WithJournalLimit(64<<10))
	seq := r.dur.seq
	for i := range 40 {
		must(t, errOf(r.As(idHamlet).AddAlertWords(bg, []string{"word" + itoa(i)})))
	}
	if r.dur.seq == seq {
		t.Errorf("40 tables records never compacted past a 64 kB limit")
	}
	want := dumpOf(t, r)
	crash(r)
	r2, _ := openTestDir(t, dir, clock.NewManual(c.Now()))
	defer r2.Close()
	if got := dumpOf(t, r2); got != want {
		t.Errorf("after a crash the dump differs:\n%s", lineDiff(want, got))
	}
}

// The tables records a replay would load are bounded (maxTablesReplays):
// past the bound a change compacts, whatever the journal's size. Records
// that a later one supersedes do not count.
func TestDataDirBoundsTheTablesRecordsToReplay(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c, WithJournalLimit(1<<40))
	seq := r.dur.seq
	for i := range maxTablesReplays + 20 { // each superseded by the next
		must(t, errOf(r.As(idHamlet).AddAlertWords(bg, []string{"word" + itoa(i)})))
	}
	if r.dur.seq != seq || r.dur.tablesReplays != 1 {
		t.Fatalf("after %d tables records in a row: snapshot %d (want %d), %d to replay (want 1)", maxTablesReplays+20, r.dur.seq, seq, r.dur.tablesReplays)
	}
	crash(r)
	r, _ = openTestDir(t, dir, clock.NewManual(c.Now()), WithJournalLimit(1<<40))
	if r.dur.tablesReplays != 1 || !r.dur.lastTables {
		t.Fatalf("after the replay: %d tables records to replay, last superseded %v; want 1, true", r.dur.tablesReplays, r.dur.lastTables)
	}
	for i := 1; i < maxTablesReplays; i++ { // each kept by the send after it
		must(t, errOf(r.As(idIago).SendChannelMessage(bg, "Verona", "castle", "between")))
		must(t, errOf(r.As(idHamlet).AddAlertWords(bg, []string{"kept" + itoa(i)})))
	}
	if r.dur.seq != seq || r.dur.tablesReplays != maxTablesReplays {
		t.Fatalf("snapshot %d (want %d), %d tables records to replay (want %d)", r.dur.seq, seq, r.dur.tablesReplays, maxTablesReplays)
	}
	must(t, errOf(r.As(idIago).SendChannelMessage(bg, "Verona", "castle", "between")))
	must(t, errOf(r.As(idHamlet).AddAlertWords(bg, []string{"past the bound"})))
	if r.dur.seq != seq+1 || r.dur.tablesReplays != 0 {
		t.Errorf("past the bound: snapshot %d (want %d), %d tables records to replay (want 0)", r.dur.seq, seq+1, r.dur.tablesReplays)
	}
	want := dumpOf(t, r)
	crash(r)
	r2, _ := openTestDir(t, dir, clock.NewManual(c.Now()))
	defer r2.Close()
	if got := dumpOf(t, r2); got != want {
		t.Errorf("after a crash the dump differs:\n%s", lineDiff(want, got))
	}
}

// A tables record longer than the journal takes (maxRecordSize: large
// files) is written as a snapshot instead.
func TestDataDirSnapshotsATablesRecordTooLong(t *testing.T) {
	defer func(n int) { maxTablesRecord = n }(maxTablesRecord)
	maxTablesRecord = 200 << 10
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c)
	seq := r.dur.seq
	must(t, errOf(r.As(idHamlet).AddAlertWords(bg, []string{"ghost"})))
	if r.dur.seq != seq {
		t.Fatalf("a short tables record wrote a snapshot")
	}
	big := strings.Repeat("a large file. ", 20_000) // 280 kB
	must(t, errOf(r.As(idHamlet).Upload(bg, UploadRequest{Name: "big.txt", ContentType: "text/plain", Body: strings.NewReader(big)})))
	if r.dur.seq != seq+1 {
		t.Errorf("a tables record past the bound did not write a snapshot (snapshot %d, want %d)", r.dur.seq, seq+1)
	}
	want, wantFiles := dumpOf(t, r), filesOf(t, r)
	crash(r)
	r2, _ := openTestDir(t, dir, clock.NewManual(c.Now()))
	defer r2.Close()
	sameState(t, r2, "after a crash", want, wantFiles)
}

// sameState checks that r holds the dump and the files it held before
// what (a crash, a restart).
func sameState(t *testing.T, r *Realm, what, want, wantFiles string) {
	t.Helper()
	if got := dumpOf(t, r); got != want {
		t.Errorf("%s the dump differs:\n%s", what, lineDiff(want, got))
	}
	if got := filesOf(t, r); got != wantFiles {
		t.Errorf("%s the files differ:\n%.500s", what, lineDiff(wantFiles, got))
	}
}

// A topic's deletion removes stored messages without changing any other:
// a tables record lists them, with no snapshot of every message; the
// replay removes them, also when later tables records follow.
func TestDataDirJournalsATopicDeletion(t *testing.T) {
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c)
	seq := r.dur.seq
	for i := range 3 {
		must(t, errOf(r.As(idHamlet).SendChannelMessage(bg, "Verona", "doomed", fmt.Sprint("line ", i))))
		must(t, errOf(r.As(idOthello).SendChannelMessage(bg, "Verona", "kept", fmt.Sprint("line ", i))))
	}
	must(t, errOf(r.As(idHamlet).SendDirectMessage(bg, []int{idOthello}, "aside")))
	verona := r.channelIDOf(t, "Verona")
	res, err := r.As(idIago).DeleteTopic(bg, verona, "doomed")
	if err != nil || !res.Complete {
		t.Fatalf("DeleteTopic = %+v, %v", res, err)
	}
	must(t, errOf(r.As(idHamlet).AddAlertWords(bg, []string{"ghost"}))) // a tables record after it
	if r.dur.seq != seq || r.dur.snapshots.Load() != 0 {
		t.Errorf("the deletion wrote %d snapshots (%d by a message change), want none", r.dur.seq-seq, r.dur.snapshots.Load())
	}
	ops := journalOps(t, dir)
	if want := "tables_adding tables"; strings.Join(ops[len(ops)-2:], " ") != want {
		t.Errorf("journal records: %v, want it to end with %s", ops, want)
	}
	want, wantFiles := dumpOf(t, r), filesOf(t, r)
	if n := topicMessages(r, verona, "doomed"); n != 0 {
		t.Fatalf("%d messages of the deleted topic are left", n)
	}
	crash(r)
	r2, log := openTestDir(t, dir, clock.NewManual(c.Now()))
	sameState(t, r2, "after a crash", want, wantFiles)
	if log.Len() != 0 {
		t.Errorf("log: %s", log)
	}
	checkStore(t, r2)
	if n := topicMessages(r2, verona, "doomed"); n != 0 || topicMessages(r2, verona, "kept") != 3 {
		t.Errorf("after the replay: %d messages of the deleted topic, %d of the other", n, topicMessages(r2, verona, "kept"))
	}
	must(t, r2.Close())
	r3, _ := openTestDir(t, dir, clock.NewManual(c.Now()))
	defer r3.Close()
	sameState(t, r3, "after a clean restart", want, wantFiles)
}

// A tables record that removes a message the realm does not have stops
// the replay with an error naming it.
func TestDataDirRemovalOfAnUnknownMessageFails(t *testing.T) {
	r, _ := newTestRealm(t)
	kept := r.messages.clone()
	err := r.removeFrom(&kept, []int64{1 << 40})
	if err == nil || !strings.Contains(err.Error(), "1099511627776") {
		t.Errorf("removeFrom = %v, want an error naming the message", err)
	}
}

// topicMessages counts the stored messages of a channel's topic.
func topicMessages(r *Realm, channelID int, topic string) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	n := 0
	r.messages.store.Topic(channelID, topic).Up(0, func(*message.Message) bool { n++; return true })
	return n
}
