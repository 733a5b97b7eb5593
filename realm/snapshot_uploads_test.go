package realm

import (
	"io"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/upload"
)

// uploadText uploads a small file as the user and returns its path_id
// and attachment ID.
func uploadText(t *testing.T, r *Realm, userID int, name, text string) (string, int) {
	t.Helper()
	res, err := r.As(userID).Upload(bg, UploadRequest{Name: name, Body: strings.NewReader(text)})
	if err != nil {
		t.Fatal(err)
	}
	list, err := r.As(userID).Attachments(bg)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range list.Attachments {
		if a.PathID == res.PathID {
			return res.PathID, a.ID
		}
	}
	t.Fatalf("no attachment for %s", res.PathID)
	return "", 0
}

// readUpload reads a stored file as the user, or reports the error.
func readUpload(r *Realm, userID int, pathID string) (string, error) {
	f, err := r.As(userID).OpenUpload(bg, pathID)
	if err != nil {
		return "", err
	}
	defer f.Blob.Close()
	b, err := io.ReadAll(f.Blob)
	return string(b), err
}

// TestDeletedUploadComesBackWithRestore: a file deleted after a snapshot
// is whole again once the snapshot is restored, and a fork deleting a
// file leaves the parent's copy readable; a file no snapshot or fork
// holds leaves the store when deleted.
func TestDeletedUploadComesBackWithRestore(t *testing.T) {
	r, _ := newTestRealm(t)
	store := r.UploadStore().(*upload.MemoryStore)
	kept, keptID := uploadText(t, r, idHamlet, "kept.txt", "kept bytes")
	snap := r.Snapshot()
	if err := r.As(idHamlet).DeleteAttachment(bg, keptID); err != nil {
		t.Fatal(err)
	}
	if _, err := readUpload(r, idHamlet, kept); err == nil {
		t.Fatal("a deleted file is still served")
	}
	if err := r.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if got, err := readUpload(r, idHamlet, kept); err != nil || got != "kept bytes" {
		t.Fatalf("after Restore: %q, %v", got, err)
	}

	shared, sharedID := uploadText(t, r, idHamlet, "shared.txt", "shared bytes")
	fork := r.Fork()
	if err := fork.As(idHamlet).DeleteAttachment(bg, sharedID); err != nil {
		t.Fatal(err)
	}
	if got, err := readUpload(r, idHamlet, shared); err != nil || got != "shared bytes" {
		t.Fatalf("the parent lost a file its fork deleted: %q, %v", got, err)
	}

	before := store.Len()
	_, ownID := uploadText(t, r, idHamlet, "own.txt", "own bytes")
	if err := r.As(idHamlet).DeleteAttachment(bg, ownID); err != nil {
		t.Fatal(err)
	}
	if n := store.Len(); n != before {
		t.Fatalf("store holds %d files after deleting an unsnapshotted one, want %d", n, before)
	}
}
