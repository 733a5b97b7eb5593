package realm

import (
	"bytes"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/upload"
)

// memoryHeld is what the realm's memory upload store holds and promised.
func memoryHeld(r *Realm) (held, promised int64) {
	return r.UploadStore().(*upload.MemoryStore).Used()
}

func TestUploadMemoryLimitRefusesWithZulipsQuotaError(t *testing.T) {
	r, _ := newTestRealm(t, WithUploadMemoryLimit(upload.MiB))
	a := r.As(idHamlet)
	first, err := a.Upload(bg, UploadRequest{Name: "a.bin", Body: bytes.NewReader(make([]byte, 600<<10))})
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.Upload(bg, UploadRequest{Name: "b.bin", Body: bytes.NewReader(make([]byte, 600<<10))})
	if re := wantCode(t, err, CodeRealmUploadQuota, "Upload would exceed your organization's upload quota."); re.Status != 400 {
		t.Fatalf("status %d, want 400", re.Status)
	}
	// The refused upload left nothing: no attachment, no bytes.
	if held, _ := memoryHeld(r); held != 600<<10 {
		t.Fatalf("store holds %d bytes, want the first file's %d", held, 600<<10)
	}
	list, _ := a.Attachments(bg)
	if len(list.Attachments) != 1 || list.UploadSpaceUsed != 600<<10 {
		t.Fatalf("attachments %+v", list)
	}
	// Deleting the first file gives its bytes back.
	if err := a.DeleteAttachment(bg, list.Attachments[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := readUpload(r, idHamlet, first.PathID); err == nil {
		t.Fatal("deleted file still served")
	}
	if _, err := a.Upload(bg, UploadRequest{Name: "b.bin", Body: bytes.NewReader(make([]byte, 600<<10))}); err != nil {
		t.Fatalf("upload after a delete gave room back: %v", err)
	}
}

func TestResumableUploadsReserveTheirLengthAndGiveItBack(t *testing.T) {
	r, clock := newTestRealm(t, WithUploadMemoryLimit(upload.MiB))
	a := r.As(idHamlet)
	prog, err := a.StartResumableUpload(bg, ResumableUploadRequest{Name: "big.bin", Length: 800 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if held, promised := memoryHeld(r); held != 0 || promised != 800<<10 {
		t.Fatalf("after creation: held %d, promised %d", held, promised)
	}
	// Neither another resumable upload nor a plain one can take the
	// promised room.
	_, err = a.StartResumableUpload(bg, ResumableUploadRequest{Name: "more.bin", Length: 300 << 10})
	if re := wantCode(t, err, CodeRealmUploadQuota, "Upload would exceed your organization's upload quota."); re.Status != 413 {
		t.Fatalf("status %d, want 413 (Zulip's tusd hook)", re.Status)
	}
	_, err = a.Upload(bg, UploadRequest{Name: "c.bin", Body: bytes.NewReader(make([]byte, 300<<10))})
	wantCode(t, err, CodeRealmUploadQuota, "upload quota")
	if n := r.UploadStore().(*upload.MemoryStore).Len(); n != 1 {
		t.Fatalf("refused uploads left blobs: %d", n)
	}
	if _, err := a.AppendResumableUpload(bg, prog.PathID, 0, bytes.NewReader(make([]byte, 500<<10))); err != nil {
		t.Fatalf("append of promised bytes: %v", err)
	}
	// Dropped unfinished, it gives back what it held and was promised.
	clock.Advance(ResumableUploadLifetime)
	if held, promised := memoryHeld(r); held != 0 || promised != 0 {
		t.Fatalf("after the sweep: held %d, promised %d", held, promised)
	}
}

func TestUnfinishedResumableUploadsPerUser(t *testing.T) {
	r, _ := newTestRealm(t, WithMaxUnfinishedUploads(3))
	a := r.As(idHamlet)
	var ids []string
	for range 3 {
		p, err := a.StartResumableUpload(bg, ResumableUploadRequest{Name: "x.bin", Length: 10})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.PathID)
	}
	_, err := a.StartResumableUpload(bg, ResumableUploadRequest{Name: "x.bin", Length: 10})
	if re := wantCode(t, err, CodeBadRequest, "Too many unfinished uploads (limit: 3)"); re.Status != 429 {
		t.Fatalf("status %d, want 429", re.Status)
	}
	if n := r.UploadStore().(*upload.MemoryStore).Len(); n != 3 {
		t.Fatalf("the refused upload left a blob: %d blobs", n)
	}
	// Another user has a cap of their own; an empty file is done at once
	// and counts for nobody.
	if _, err := r.As(idIago).StartResumableUpload(bg, ResumableUploadRequest{Name: "y.bin", Length: 10}); err != nil {
		t.Fatalf("another user: %v", err)
	}
	// Finishing one and terminating one make room for two.
	if p, err := a.AppendResumableUpload(bg, ids[0], 0, strings.NewReader("0123456789")); err != nil || !p.Done {
		t.Fatalf("finish: %+v %v", p, err)
	}
	if err := a.CancelResumableUpload(bg, ids[1]); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := a.StartResumableUpload(bg, ResumableUploadRequest{Name: "x.bin", Length: 10}); err != nil {
			t.Fatalf("after finishing and terminating: %v", err)
		}
	}
	_, err = a.StartResumableUpload(bg, ResumableUploadRequest{Name: "x.bin", Length: 10})
	wantCode(t, err, CodeBadRequest, "Too many unfinished uploads")

	// No cap at all.
	r, _ = newTestRealm(t, WithMaxUnfinishedUploads(0))
	for i := range DefaultMaxUnfinishedUploads + 1 {
		if _, err := r.As(idHamlet).StartResumableUpload(bg, ResumableUploadRequest{Name: "x.bin", Length: 10}); err != nil {
			t.Fatalf("upload %d without a cap: %v", i, err)
		}
	}
}

func TestRestoreGivesBackTheBytesOfFilesNoSnapshotHolds(t *testing.T) {
	r, _ := newTestRealm(t)
	a := r.As(idHamlet)
	kept, _ := uploadText(t, r, idHamlet, "kept.txt", "kept")
	snap := r.Snapshot()
	_, _ = uploadText(t, r, idHamlet, "later.txt", "later bytes")
	prog, err := a.StartResumableUpload(bg, ResumableUploadRequest{Name: "x.bin", Length: 100})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.AppendResumableUpload(bg, prog.PathID, 0, strings.NewReader("partial")); err != nil {
		t.Fatal(err)
	}
	if err := r.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if held, promised := memoryHeld(r); held != int64(len("kept")) || promised != 0 {
		t.Fatalf("after Restore: held %d, promised %d; want only the snapshot's file", held, promised)
	}
	if got, err := readUpload(r, idHamlet, kept); err != nil || got != "kept" {
		t.Fatalf("the snapshot's file: %q, %v", got, err)
	}
	// A file in a later snapshot survives restoring an earlier one.
	later, _ := uploadText(t, r, idHamlet, "later.txt", "later bytes")
	snap2 := r.Snapshot()
	if err := r.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if err := r.Restore(snap2); err != nil {
		t.Fatal(err)
	}
	if got, err := readUpload(r, idHamlet, later); err != nil || got != "later bytes" {
		t.Fatalf("a later snapshot's file: %q, %v", got, err)
	}
	r.Reset()
	if held, _ := memoryHeld(r); held != int64(len("kept")+len("later bytes")) {
		// Both files are in snapshots that may still be restored.
		t.Fatalf("after Reset: held %d", held)
	}
}

func TestUploadDirHasNoMemoryLimit(t *testing.T) {
	store, err := upload.NewDirStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r, _ := newTestRealm(t, WithUploadStore(store), WithUploadMemoryLimit(1000))
	if _, err := r.As(idHamlet).Upload(bg, UploadRequest{Name: "a.bin", Body: bytes.NewReader(make([]byte, 5000))}); err != nil {
		t.Fatalf("upload to a directory: %v", err)
	}
	if _, err := r.As(idHamlet).StartResumableUpload(bg, ResumableUploadRequest{Name: "b.bin", Length: 5000}); err != nil {
		t.Fatalf("resumable upload to a directory: %v", err)
	}
}
