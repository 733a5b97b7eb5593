package realm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/minizulip/minizulip/upload"
	"github.com/minizulip/minizulip/user"
)

// ResumableUploadLifetime is how long a resumable upload may stay
// unfinished before it is dropped with its bytes.
const ResumableUploadLifetime = 24 * time.Hour

// resumableUpload is a tus upload under way. Its bytes are in the upload
// store at pathID; it becomes an attachment when the last byte arrives.
type resumableUpload struct {
	pathID      string
	ownerID     int
	name        string
	contentType string
	length      int64
	offset      int64
	created     time.Time
	// busy is set while a request appends bytes, outside the lock.
	busy bool
}

// ResumableUploadRequest starts a resumable upload: the file's display
// name and content type (both may be empty) and its whole length.
type ResumableUploadRequest struct {
	Name        string
	ContentType string
	Length      int64
}

// ResumableProgress is where a resumable upload stands. Done is set by
// the request that delivered the last byte, with the finished file's
// Result.
type ResumableProgress struct {
	PathID string
	Offset int64
	Length int64
	Done   bool
	Result UploadResult
}

// The refusals of the resumable-upload protocol, with tus's statuses.
func uploadNotFound() *Error {
	return &Error{Code: CodeBadRequest, Msg: "Upload not found", Status: statusNotFound}
}

func uploadTooLarge(limitMiB int) *Error {
	e := fileTooLarge(limitMiB)
	e.Status = statusContentTooLarge
	return e
}

func uploadLocked() *Error {
	return &Error{Code: CodeBadRequest, Msg: "Upload is locked by another request", Status: statusLocked}
}

// StartResumableUpload begins a resumable upload (tus creation) and
// returns its ID, the path_id the file will have. A length over
// max_file_upload_size_mib is refused with 413. An empty file is done at
// once.
func (a *Actor) StartResumableUpload(ctx context.Context, req ResumableUploadRequest) (ResumableProgress, error) {
	r := a.r
	if req.Length < 0 {
		return ResumableProgress{}, BadRequest("Invalid upload length")
	}
	if limitMiB := r.currentMaxFileUploadSizeMiB(); req.Length > int64(limitMiB)*upload.MiB {
		return ResumableProgress{}, uploadTooLarge(limitMiB)
	}
	name := upload.DisplayName(req.Name)
	if name == "" {
		name = "uploaded-file"
	}
	pathID := upload.NewPathID(UploadRealmID, name)
	if err := r.createResumableBlob(pathID, req.Length); err != nil {
		return ResumableProgress{}, err
	}
	var out ResumableProgress
	err := a.write(ctx, func(me *user.User) error {
		if limit := r.opts.maxUnfinishedUploads(); limit > 0 && r.unfinishedUploads(me.ID) >= limit {
			return tooManyUnfinishedUploads(limit)
		}
		if err := r.checkUploadQuota(req.Length, statusContentTooLarge); err != nil {
			return err
		}
		up := &resumableUpload{pathID: pathID, ownerID: me.ID, name: name, length: req.Length,
			contentType: upload.ContentType(req.ContentType, name), created: r.clock.Now()}
		r.files.resumable[pathID] = up
		r.armResumableSweep(up)
		out = r.progress(up)
		if up.length == 0 {
			out = r.finishResumable(me, up, imageProbe{})
		}
		return nil
	})
	if err != nil {
		_ = r.files.store.Delete(pathID)
	}
	return out, err
}

// createResumableBlob makes the empty blob of a resumable upload; a store
// with a bound promises it the declared length first, refusing the
// upload with Zulip's quota error (413, as its tusd hook) when it has no
// room.
func (r *Realm) createResumableBlob(pathID string, length int64) error {
	if rs, ok := r.files.store.(upload.Reserver); ok {
		if err := rs.Reserve(pathID, length); err != nil {
			return uploadQuotaExceeded(statusContentTooLarge)
		}
		return nil
	}
	if _, err := r.files.store.Append(pathID, eofReader{}); err != nil {
		return BadRequest("Could not store the upload")
	}
	return nil
}

// unfinishedUploads counts userID's resumable uploads under way. The
// caller holds the lock.
func (r *Realm) unfinishedUploads(userID int) int {
	n := 0
	for _, up := range r.files.resumable {
		if up.ownerID == userID {
			n++
		}
	}
	return n
}

// tooManyUnfinishedUploads refuses one more resumable upload to a user
// who has limit under way.
func tooManyUnfinishedUploads(limit int) *Error {
	return &Error{Code: CodeBadRequest, Status: statusTooManyRequests,
		Msg: fmt.Sprintf("Too many unfinished uploads (limit: %d): finish or terminate one first", limit)}
}

// eofReader is an empty body.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// ResumableUploadOffset tells how far the acting user's upload has come
// (tus HEAD). A finished upload reports its whole length; an unknown
// upload, or another user's, is 404.
func (a *Actor) ResumableUploadOffset(ctx context.Context, pathID string) (ResumableProgress, error) {
	r := a.r
	var out ResumableProgress
	err := a.read(ctx, func(me *user.User) error {
		if up := r.files.resumable[pathID]; up != nil && up.ownerID == me.ID {
			out = r.progress(up)
			return nil
		}
		if att := r.files.byPath[pathID]; att != nil && att.ownerID == me.ID {
			out = ResumableProgress{PathID: pathID, Offset: att.size, Length: att.size, Done: true, Result: r.uploadResult(att)}
			return nil
		}
		return uploadNotFound()
	})
	return out, err
}

// AppendResumableUpload adds body's bytes to the acting user's upload at
// offset (tus PATCH), streaming them into the store with no lock held.
// offset must be where the upload stands (409 otherwise); one request at
// a time appends (423 for another meanwhile). Bytes past the declared
// length refuse the request with 413 and drop the whole upload; a body
// that breaks off keeps what arrived, so the client can resume. The
// request that delivers the last byte makes the file an attachment and
// gets its Result.
func (a *Actor) AppendResumableUpload(ctx context.Context, pathID string, offset int64, body io.Reader) (ResumableProgress, error) {
	r := a.r
	var up *resumableUpload
	var remaining int64
	err := a.write(ctx, func(me *user.User) error {
		up = r.files.resumable[pathID]
		switch {
		case up == nil || up.ownerID != me.ID:
			return uploadNotFound()
		case up.busy:
			return uploadLocked()
		case offset != up.offset:
			return &Error{Code: CodeBadRequest, Status: statusConflict,
				Msg: "Upload-Offset does not match the upload's offset"}
		}
		up.busy = true
		remaining = up.length - up.offset
		return nil
	})
	if err != nil {
		return ResumableProgress{}, err
	}
	n, readErr := r.files.store.Append(pathID, &upload.LimitedReader{R: body, N: remaining})
	var probe imageProbe
	if readErr == nil && n == remaining { // the last bytes: look at the file as an image
		probe = r.probeImage(r.files.store, r.files.thumbs, pathID, up.contentType)
	}
	var out ResumableProgress
	err = r.update(func() error {
		up.busy = false
		if r.files.resumable[pathID] != up { // dropped by a restore meanwhile
			_ = r.files.store.Delete(pathID)
			return uploadNotFound()
		}
		if errors.Is(readErr, upload.ErrTooLarge) {
			r.dropResumable(up)
			return uploadTooLarge(r.maxFileUploadSizeMiB())
		}
		if errors.Is(readErr, upload.ErrFull) { // a store that promised nothing
			up.offset += n
			return uploadQuotaExceeded(statusContentTooLarge)
		}
		up.offset += n
		out = r.progress(up)
		if readErr != nil {
			return uploadReadError(readErr, r.maxFileUploadSizeMiB())
		}
		if up.offset == up.length {
			owner := r.users.byID[up.ownerID]
			if owner == nil || !owner.IsActive {
				r.dropResumable(up)
				return Unauthorized("Account is deactivated")
			}
			out = r.finishResumable(owner, up, probe)
		}
		return nil
	})
	return out, err
}

// CancelResumableUpload drops the acting user's unfinished upload and its
// bytes (tus termination). A finished upload is an attachment and is
// deleted through DELETE /attachments instead.
func (a *Actor) CancelResumableUpload(ctx context.Context, pathID string) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		up := r.files.resumable[pathID]
		if up == nil || up.ownerID != me.ID {
			if att := r.files.byPath[pathID]; att != nil && att.ownerID == me.ID {
				return BadRequest("A finished upload cannot be terminated")
			}
			return uploadNotFound()
		}
		if up.busy {
			return uploadLocked()
		}
		r.dropResumable(up)
		return nil
	})
}

// progress is up's state. The caller holds the lock.
func (r *Realm) progress(up *resumableUpload) ResumableProgress {
	return ResumableProgress{PathID: up.pathID, Offset: up.offset, Length: up.length}
}

// finishResumable turns a complete upload into an attachment. The caller
// holds the write lock.
func (r *Realm) finishResumable(owner *user.User, up *resumableUpload, probe imageProbe) ResumableProgress {
	delete(r.files.resumable, up.pathID)
	att := r.addAttachment(owner, up.name, up.pathID, up.contentType, up.length, probe)
	return ResumableProgress{PathID: up.pathID, Offset: up.length, Length: up.length, Done: true, Result: r.uploadResult(att)}
}

// dropResumable forgets an upload and deletes its bytes. The caller
// holds the write lock.
func (r *Realm) dropResumable(up *resumableUpload) {
	delete(r.files.resumable, up.pathID)
	_ = r.files.store.Delete(up.pathID)
}

// armResumableSweep drops up if it is still unfinished after
// ResumableUploadLifetime. The caller holds the write lock.
func (r *Realm) armResumableSweep(up *resumableUpload) {
	r.clock.AfterFunc(ResumableUploadLifetime, func() {
		_ = r.update(func() error {
			if r.files.resumable[up.pathID] == up && !up.busy {
				r.dropResumable(up)
			}
			return nil
		})
	})
}
