package realm

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/upload"
)

// This file dumps and loads uploaded files.

// dumpUploads adds the uploaded files, by ID, with their bytes read from
// the upload store; the caller holds the lock.
func (r *Realm) dumpUploads(f *fixture.Document) error {
	for _, id := range slices.Sorted(maps.Keys(r.files.byID)) {
		att := r.files.byID[id]
		data, err := r.readUpload(att.pathID)
		if err != nil {
			return fmt.Errorf("upload %d (%s): %w", att.id, att.pathID, err)
		}
		fu := fixture.Upload{ID: att.id, OwnerID: att.ownerID, Name: att.name, PathID: att.pathID,
			CreateTime: att.created.Unix(), MessageIDs: slices.Clone(att.messageIDs),
			Data: base64.StdEncoding.EncodeToString(data)}
		if att.contentType != upload.ContentType("", att.name) {
			fu.ContentType = att.contentType
		}
		f.Uploads = append(f.Uploads, fu)
	}
	return nil
}

// readUpload is the stored file's bytes.
func (r *Realm) readUpload(pathID string) ([]byte, error) {
	blob, err := r.files.store.Open(pathID)
	if err != nil {
		return nil, err
	}
	defer blob.Close()
	return io.ReadAll(blob)
}

// loadUploads checks each file (a user owns it, a name, a path_id as an
// upload makes them for this realm, base64 bytes within the upload size
// limit, messages of the document that link it), then writes the bytes
// to the upload store, replacing any file it holds at that path_id. It is
// the load's last step, so that a refused document leaves no bytes
// behind; should a write fail, those written are deleted.
func (r *Realm) loadUploads(f *fixture.Document) error {
	realmPrefix := strconv.Itoa(UploadRealmID)
	now := r.clock.Now()
	data := make([][]byte, len(f.Uploads))
	ids := []int{}
	for i, fu := range f.Uploads {
		at := fmt.Sprintf("uploads[%d]", i)
		if fu.ID <= 0 || r.files.byID[fu.ID] != nil {
			return badItem(at+".id", "%s upload ID %d", invalidOrDuplicate(fu.ID <= 0), fu.ID)
		}
		if r.realmUser(fu.OwnerID) == nil {
			return badItem(at+".owner_id", "no user %d", fu.OwnerID)
		}
		if strings.TrimSpace(fu.Name) == "" || strings.ContainsAny(fu.Name, `/\`) {
			return badItem(at+".name", "%q is not a file name", fu.Name)
		}
		if !upload.ValidPathID(fu.PathID) || upload.RealmIDOf(fu.PathID) != realmPrefix {
			return badItem(at+".path_id", "%q is not a path_id of this realm (%s/<hex>/<token>/<name>)", fu.PathID, realmPrefix)
		}
		if r.files.byPath[fu.PathID] != nil {
			return badItem(at+".path_id", "duplicate path_id %q", fu.PathID)
		}
		b, err := base64.StdEncoding.DecodeString(fu.Data)
		if err != nil {
			return badItem(at+".data", "not base64: %v", err)
		}
		if int64(len(b)) > r.uploadLimit() {
			return badItem(at+".data", "%s", fileTooLarge(r.opts.Limits.MaxFileUploadSizeMiB).Msg)
		}
		if fu.CreateTime < 0 {
			return badItem(at+".create_time", "%d is not a time", fu.CreateTime)
		}
		var last int64
		for j, id := range fu.MessageIDs {
			m, ok := r.messages.store.Message(id)
			jat := fmt.Sprintf("%s.message_ids[%d]", at, j)
			switch {
			case id <= last:
				return badItem(jat, "message IDs must be positive and ascending (%d after %d)", id, last)
			case !ok:
				return badItem(jat, "no message %d", id)
			case !slices.Contains(upload.LinkedPathIDs(m.Content), fu.PathID):
				return badItem(jat, "message %d does not link %s", id, upload.URL(fu.PathID))
			}
			last = id
		}
		created := now
		if fu.CreateTime != 0 {
			created = time.Unix(fu.CreateTime, 0)
		}
		contentType := fu.ContentType
		if contentType == "" {
			contentType = upload.ContentType("", fu.Name)
		}
		att := &storedAttachment{id: fu.ID, ownerID: fu.OwnerID, name: fu.Name, pathID: fu.PathID,
			contentType: contentType, size: int64(len(b)), created: created, messageIDs: slices.Clone(fu.MessageIDs)}
		r.files.byID[att.id], r.files.byPath[att.pathID] = att, att
		r.files.spaceUsed += att.size
		data[i] = b
		ids = append(ids, fu.ID)
	}
	r.files.nextID = nextAfter(1, ids...)
	for i, fu := range f.Uploads {
		_ = r.files.store.Delete(fu.PathID)
		if _, err := r.files.store.Append(fu.PathID, bytes.NewReader(data[i])); err != nil {
			for _, written := range f.Uploads[:i+1] {
				_ = r.files.store.Delete(written.PathID)
			}
			return badItem(fmt.Sprintf("uploads[%d].data", i), "cannot store the file: %v", err)
		}
	}
	return nil
}

// armUnclaimedSweeps arms the sweep of each loaded file no message
// claims, which goes UnclaimedUploadLifetime after its creation. The
// caller holds the write lock.
func (r *Realm) armUnclaimedSweeps() {
	for _, id := range slices.Sorted(maps.Keys(r.files.byID)) {
		if att := r.files.byID[id]; len(att.messageIDs) == 0 {
			r.armUnclaimedSweep(att)
		}
	}
}
