package realm

import (
	"bytes"
	"cmp"
	"context"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/upload"
	"github.com/minizulip/minizulip/user"
)

// UploadRealmID is the realm ID that path_ids start with: the dev realm's
// (its "zulip" realm is the second after the system bots' realm).
const UploadRealmID = 2

// UnclaimedUploadLifetime is how long an uploaded file that no message
// links is kept: Zulip's unused-upload sweep deletes them after 5 weeks.
const UnclaimedUploadLifetime = 5 * 7 * 24 * time.Hour

// WithUploadStore keeps uploaded files in s instead of memory (for
// example an upload.DirStore).
func WithUploadStore(s upload.Store) Option { return func(o *Options) { o.UploadStore = s } }

// DefaultUploadMemoryLimit is how many bytes of files the memory upload
// store holds unless WithUploadMemoryLimit says otherwise.
const DefaultUploadMemoryLimit = 512 * upload.MiB

// WithUploadMemoryLimit bounds the bytes of uploaded files (finished, and
// promised to resumable uploads under way) that the realm keeps in
// memory: an upload past it is refused with Zulip's REALM_UPLOAD_QUOTA
// error, and deleted or expired files give their bytes back. A limit of
// 0 or less means none. It does not apply with WithUploadStore.
func WithUploadMemoryLimit(bytes int64) Option {
	return func(o *Options) { o.UploadMemoryLimit = cmp.Or(max(bytes, -1), -1) }
}

// DefaultMaxUnfinishedUploads is how many unfinished resumable uploads
// one user may have unless WithMaxUnfinishedUploads says otherwise:
// Zulip's web app runs 5 at once per compose box.
const DefaultMaxUnfinishedUploads = 20

// WithMaxUnfinishedUploads caps the resumable (tus) uploads one user may
// have started and not finished or terminated; one more is refused with
// 429 until one ends (or is dropped, ResumableUploadLifetime after it
// started). A cap of 0 or less means none.
func WithMaxUnfinishedUploads(n int) Option {
	return func(o *Options) { o.MaxUnfinishedUploads = cmp.Or(max(n, -1), -1) }
}

// uploadStore is where a realm made with o keeps files: o's UploadStore,
// else memory bounded by o's UploadMemoryLimit.
func (o Options) uploadStore() upload.Store {
	if o.UploadStore != nil {
		return o.UploadStore
	}
	return upload.NewLimitedMemoryStore(cmp.Or(o.UploadMemoryLimit, DefaultUploadMemoryLimit))
}

// maxUnfinishedUploads is o's cap on a user's unfinished resumable
// uploads; 0 means none.
func (o Options) maxUnfinishedUploads() int {
	return max(cmp.Or(o.MaxUnfinishedUploads, DefaultMaxUnfinishedUploads), 0)
}

// uploadQuotaExceeded is Zulip's answer to an upload the realm has no
// room for, with POST /user_uploads's status (400; tus creation says 413).
func uploadQuotaExceeded(status int) *Error {
	return &Error{Code: CodeRealmUploadQuota, Msg: "Upload would exceed your organization's upload quota.", Status: status}
}

// uploadTable is the realm's files: the stored attachments and the
// resumable uploads under way.
type uploadTable struct {
	store     upload.Store                 // the files' bytes, shared by snapshots and forks
	byID      map[int]*storedAttachment    // the attachments by ID
	byPath    map[string]*storedAttachment // the same attachments by path_id
	nextID    int                          // the next attachment ID to give
	spaceUsed int64                        // the attachments' total size in bytes
	// resumable are the tus uploads not finished, by path_id.
	resumable map[string]*resumableUpload
	// tokens are the temporary URLs handed out, by token.
	tokens map[string]temporaryURL
	// thumbs keeps made thumbnails, shared like store.
	thumbs thumbnailCache
	// pinnedBelow: the attachments with lower IDs existed when a snapshot
	// or fork was taken, which may bring them back: deleting one keeps
	// its bytes in the store.
	pinnedBelow int
}

func (t *uploadTable) init(store upload.Store, thumbCacheBytes int64) {
	*t = uploadTable{store: store, thumbs: upload.NewThumbnailCache(thumbCacheBytes), byID: map[int]*storedAttachment{}, byPath: map[string]*storedAttachment{},
		nextID: 1, resumable: map[string]*resumableUpload{}, tokens: map[string]temporaryURL{}}
}

// clone copies the uploads' metadata; the bytes stay in the shared upload
// store. Resumable uploads under way are not taken: like event queues,
// they belong to connections of the moment.
func (t *uploadTable) clone() uploadTable {
	c := uploadTable{store: t.store, thumbs: t.thumbs, nextID: t.nextID, spaceUsed: t.spaceUsed, pinnedBelow: t.pinnedBelow,
		byID: make(map[int]*storedAttachment, len(t.byID)), byPath: make(map[string]*storedAttachment, len(t.byPath)),
		resumable: map[string]*resumableUpload{}, tokens: maps.Clone(t.tokens)}
	copies := map[*storedAttachment]*storedAttachment{}
	cp := func(a *storedAttachment) *storedAttachment {
		if c, ok := copies[a]; ok {
			return c
		}
		ca := *a
		ca.messageIDs = slices.Clone(a.messageIDs)
		copies[a] = &ca
		return &ca
	}
	for id, a := range t.byID {
		c.byID[id] = cp(a)
	}
	for path, a := range t.byPath {
		c.byPath[path] = cp(a)
	}
	if c.tokens == nil {
		c.tokens = map[string]temporaryURL{}
	}
	return c
}

// UploadStore is where the realm keeps uploaded files.
func (r *Realm) UploadStore() upload.Store { return r.files.store }

// storedAttachment is one uploaded file and the messages linking it.
type storedAttachment struct {
	id          int
	ownerID     int
	name        string // display name
	pathID      string
	contentType string
	size        int64
	created     time.Time
	messageIDs  []int64 // ascending
	// image is set for an image the server thumbnails (Zulip's
	// ImageAttachment row); never changed once set, so shared by clones.
	image *upload.ImageInfo
	// thumbnailed: its thumbnails are made (messages show them rather
	// than the loading placeholder).
	thumbnailed bool
}

// UploadRequest is one file to upload: its name as the client sent it
// (percent-encoded or not), its declared content type (may be empty) and
// its bytes.
type UploadRequest struct {
	Name        string
	ContentType string
	// Body is read to its end. An error from it other than io.EOF fails
	// the upload; an *Error is returned as it is.
	Body io.Reader
}

// UploadResult is the answer of POST /user_uploads, shaped for the
// realm's feature level (url from 272, filename from 285).
type UploadResult struct {
	URL      string `json:"url,omitempty"`
	URI      string `json:"uri"`
	Filename string `json:"filename,omitempty"`
	// PathID is the file's path_id; its URL is /user_uploads/<PathID>.
	PathID string `json:"-"`
}

// Upload stores a file for the acting user (POST /user_uploads): the body
// streams into the upload store with the realm's max_file_upload_size_mib
// enforced as it comes, and no lock is held meanwhile. A rejected upload
// (too large, a failing body) keeps nothing. The new attachment is the
// uploader's alone until a message links it; the uploader gets an
// attachment add event.
func (a *Actor) Upload(ctx context.Context, req UploadRequest) (UploadResult, error) {
	if err := a.checkActive(ctx); err != nil {
		return UploadResult{}, err
	}
	r := a.r
	name := upload.DisplayName(req.Name)
	pathID := upload.NewPathID(UploadRealmID, name)
	limitMiB := r.currentMaxFileUploadSizeMiB()
	size, err := r.files.store.Append(pathID, &upload.LimitedReader{R: req.Body, N: int64(limitMiB) * upload.MiB})
	if err != nil {
		_ = r.files.store.Delete(pathID)
		return UploadResult{}, uploadReadError(err, limitMiB)
	}
	contentType := upload.ContentType(req.ContentType, name)
	probe := r.probeImage(r.files.store, r.files.thumbs, pathID, contentType)
	var res UploadResult
	err = a.write(ctx, func(me *user.User) error {
		if err := r.checkUploadQuota(size, statusBadRequest); err != nil {
			return err
		}
		att := r.addAttachment(me, name, pathID, contentType, size, probe)
		res = r.uploadResult(att)
		return nil
	})
	if err != nil {
		_ = r.files.store.Delete(pathID)
		return UploadResult{}, err
	}
	return res, nil
}

// uploadLimit is max_file_upload_size_mib in bytes.
func (r *Realm) uploadLimit() int64 { return int64(r.maxFileUploadSizeMiB()) * upload.MiB }

// currentMaxFileUploadSizeMiB is maxFileUploadSizeMiB for a caller that
// holds no lock (an upload streaming its body).
func (r *Realm) currentMaxFileUploadSizeMiB() int {
	r.readLock()
	defer r.readUnlock()
	return r.maxFileUploadSizeMiB()
}

// uploadReadError maps a failure while storing an upload's body.
func uploadReadError(err error, limitMiB int) error {
	var re *Error
	switch {
	case errors.Is(err, upload.ErrTooLarge):
		return fileTooLarge(limitMiB)
	case errors.Is(err, upload.ErrFull):
		return uploadQuotaExceeded(statusBadRequest)
	case errors.As(err, &re):
		return re
	}
	return BadRequest("Could not read the uploaded file")
}

// fileTooLarge is Zulip's answer to a file over the upload limit.
func fileTooLarge(limitMiB int) *Error {
	return BadRequest("Uploaded file is larger than the allowed limit of %d MiB", limitMiB)
}

// addAttachment records a stored file as the owner's new attachment
// (with what probeImage found in it), tells the owner, and arms the
// unclaimed-file sweep and any delayed thumbnailing. The caller holds the
// write lock.
func (r *Realm) addAttachment(owner *user.User, name, pathID, contentType string, size int64, probe imageProbe) *storedAttachment {
	f := &r.files
	att := &storedAttachment{id: f.nextID, ownerID: owner.ID, name: name, pathID: pathID,
		contentType: contentType, size: size, created: r.clock.Now(), image: probe.info, thumbnailed: probe.thumbnailed}
	f.nextID++
	f.byID[att.id] = att
	f.byPath[pathID] = att
	f.spaceUsed += size
	r.emit("attachment", AttachmentEvent{Op: "add", Attachment: r.attachmentView(att), UploadSpaceUsed: f.spaceUsed}, owner.ID)
	r.armUnclaimedSweep(att)
	r.armThumbnailing(att)
	return att
}

// uploadResult is the answer naming a stored file.
func (r *Realm) uploadResult(att *storedAttachment) UploadResult {
	url := upload.URL(att.pathID)
	res := UploadResult{URI: url, PathID: att.pathID}
	if r.has(changeUploadURL) {
		res.URL = url
	}
	if r.has(changeUploadFilename) {
		res.Filename = att.name
	}
	return res
}

// armUnclaimedSweep deletes att once it has gone unclaimed for
// UnclaimedUploadLifetime, by the realm's clock. The caller holds the
// write lock.
func (r *Realm) armUnclaimedSweep(att *storedAttachment) {
	wait := att.created.Add(UnclaimedUploadLifetime).Sub(r.clock.Now())
	id := att.id
	r.clock.AfterFunc(max(wait, 0), func() {
		_ = r.update(func() error {
			if att := r.files.byID[id]; att != nil && len(att.messageIDs) == 0 &&
				!r.clock.Now().Before(att.created.Add(UnclaimedUploadLifetime)) {
				r.deleteAttachment(att)
			}
			return nil
		})
	})
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

// deleteAttachment removes the file and its record and tells the owner;
// the bytes stay in the store when a snapshot or fork may hold the file.
// The caller holds the write lock.
func (r *Realm) deleteAttachment(att *storedAttachment) {
	f := &r.files
	delete(f.byID, att.id)
	delete(f.byPath, att.pathID)
	f.spaceUsed -= att.size
	if att.id >= f.pinnedBelow {
		_ = f.store.Delete(att.pathID)
	}
	f.thumbs.Forget(att.pathID)
	r.emit("attachment", AttachmentEvent{Op: "remove", RemovedID: att.id, UploadSpaceUsed: f.spaceUsed}, att.ownerID)
}

// unsharedBlobs lists the files of s that no snapshot or fork holds: the
// attachments made since the latest of them and the resumable uploads
// not streaming (one streaming deletes its own bytes when it finds
// itself dropped). A restore gives their bytes back.
func (s *uploadTable) unsharedBlobs() []string {
	var out []string
	for id, att := range s.byID {
		if id >= s.pinnedBelow {
			out = append(out, att.pathID)
		}
	}
	for pathID, up := range s.resumable {
		if !up.busy {
			out = append(out, pathID)
		}
	}
	return out
}

// deleteBlobs deletes files' bytes from the store.
func (s *uploadTable) deleteBlobs(pathIDs []string) {
	for _, p := range pathIDs {
		_ = s.store.Delete(p)
	}
}

// UploadedFile is a stored file opened for serving. Close its Blob.
type UploadedFile struct {
	Blob        upload.Blob
	Name        string
	ContentType string
}

// The answers Zulip gives for a file that cannot be served.
func fileNotFound() *Error {
	return &Error{Code: CodeBadRequest, Msg: "This file does not exist or has been deleted.", Status: statusNotFound}
}

func fileNotAuthorized() *Error {
	return &Error{Code: CodeBadRequest, Msg: "You are not authorized to view this file.", Status: statusForbidden}
}

// OpenUpload opens the file at pathID (GET /user_uploads/<path_id>) for
// the acting user: 404 for a file that does not exist, 403 for one the
// user may not read (see upload.MayRead).
func (a *Actor) OpenUpload(ctx context.Context, pathID string) (*UploadedFile, error) {
	var out *UploadedFile
	err := a.read(ctx, func(me *user.User) (err error) {
		out, err = a.r.openUpload(me, pathID)
		return err
	})
	return out, err
}

// OpenUploadAsVisitor opens a file for a request without credentials: only
// files linked from web-public channels are served.
func (r *Realm) OpenUploadAsVisitor(ctx context.Context, pathID string) (*UploadedFile, error) {
	var out *UploadedFile
	err := r.view(func() (err error) {
		out, err = r.openUpload(nil, pathID)
		return err
	})
	return out, err
}

// openUpload checks access and opens the blob. The caller holds the lock.
func (r *Realm) openUpload(reader *user.User, pathID string) (*UploadedFile, error) {
	att := r.files.byPath[pathID]
	if att == nil {
		if f, ok, err := r.openExport(reader, pathID); ok {
			return f, err
		}
		return nil, fileNotFound()
	}
	if !r.mayReadAttachment(reader, att) {
		return nil, fileNotAuthorized()
	}
	blob, err := r.files.store.Open(pathID)
	if err != nil {
		return nil, fileNotFound()
	}
	return &UploadedFile{Blob: blob, Name: att.name, ContentType: att.contentType}, nil
}

// mayReadAttachment applies upload.MayRead; reader is nil for a visitor.
// The caller holds the lock.
func (r *Realm) mayReadAttachment(reader *user.User, att *storedAttachment) bool {
	who := upload.Reader{}
	if reader != nil {
		who = upload.Reader{UserID: reader.ID, Guest: reader.IsGuest()}
	}
	if who.UserID == att.ownerID {
		return true
	}
	refs := make([]upload.Reference, 0, len(att.messageIDs))
	for _, id := range att.messageIDs {
		m, ok := r.messages.store.Message(id)
		if !ok {
			continue
		}
		var ref upload.Reference
		if ch := r.channels.byID[m.ChannelID]; m.Type == message.Channel && ch != nil {
			ref.PublicChannel = !ch.InviteOnly
			ref.WebPublicChannel = ch.IsWebPublic && !ch.InviteOnly && r.settings.EnableSpectatorAccess
			ref.ReaderSubscribedSharedHistory = reader != nil && ch.HistoryPublicToSubscribers && r.isSubscribed(ch.ID, reader.ID)
		}
		ref.ReaderHasCopy = reader != nil && r.messages.store.HasCopy(reader.ID, id)
		refs = append(refs, ref)
	}
	return upload.MayRead(att.ownerID, who, refs)
}

// temporaryURLLifetime is how long a temporary file URL works.
const temporaryURLLifetime = 60 * time.Second

// temporaryURL is one handed-out URL that needs no credentials.
type temporaryURL struct {
	pathID  string
	expires time.Time
}

// TemporaryUploadURL answers GET /api/v1/user_uploads/<path_id>: a URL
// for the file that needs no credentials and works for 60 seconds,
// /user_uploads/temporary/<token>/<name>. The acting user must be able to
// read the file.
func (a *Actor) TemporaryUploadURL(ctx context.Context, pathID string) (string, error) {
	r := a.r
	var url string
	err := a.write(ctx, func(me *user.User) error {
		att := r.files.byPath[pathID]
		if att == nil {
			return fileNotFound()
		}
		if !r.mayReadAttachment(me, att) {
			return fileNotAuthorized()
		}
		now := r.clock.Now()
		for token, t := range r.files.tokens {
			if !now.Before(t.expires) {
				delete(r.files.tokens, token)
			}
		}
		token := user.NewAPIKey()
		r.files.tokens[token] = temporaryURL{pathID: pathID, expires: now.Add(temporaryURLLifetime)}
		url = "/user_uploads/temporary/" + token + "/" + upload.SanitizeName(att.name)
		return nil
	})
	return url, err
}

// OpenTemporaryUpload opens the file a temporary URL's token names; an
// unknown or expired token is 400 "Invalid token".
func (r *Realm) OpenTemporaryUpload(ctx context.Context, token string) (*UploadedFile, error) {
	var out *UploadedFile
	err := r.view(func() error {
		t, ok := r.files.tokens[token]
		if !ok || !r.clock.Now().Before(t.expires) {
			return BadRequest("Invalid token")
		}
		att := r.files.byPath[t.pathID]
		if att == nil {
			return fileNotFound()
		}
		blob, err := r.files.store.Open(t.pathID)
		if err != nil {
			return fileNotFound()
		}
		out = &UploadedFile{Blob: blob, Name: att.name, ContentType: att.contentType}
		return nil
	})
	return out, err
}

// AuthenticateFileKey checks the legacy ?api_key= credential that file
// URLs accept: the key alone names the user. Failures are 401
// INVALID_API_KEY.
func (r *Realm) AuthenticateFileKey(apiKey string) (*Actor, error) {
	bad := &Error{Code: CodeInvalidAPIKey, Msg: "Invalid API key", Status: statusUnauthorized}
	if !user.WellFormedAPIKey(apiKey) {
		return nil, bad
	}
	var actor *Actor
	err := r.view(func() error {
		for _, u := range r.users.byID {
			if subtle.ConstantTimeCompare([]byte(u.APIKey), []byte(apiKey)) == 1 && u.IsActive {
				actor = r.As(u.ID)
				return nil
			}
		}
		return bad
	})
	return actor, err
}

// dump adds the uploaded files to f, by ID, with their bytes read from
// the upload store.
func (t *uploadTable) dump(r *Realm, f *fixture.Document) error {
	for _, id := range slices.Sorted(maps.Keys(t.byID)) {
		att := t.byID[id]
		fu := fixture.Upload{ID: att.id, OwnerID: att.ownerID, Name: att.name, PathID: att.pathID,
			CreateTime: att.created.Unix(), MessageIDs: slices.Clone(att.messageIDs)}
		if r.dur == nil || !r.dur.dumpWithout[att.pathID] { // a data directory's tables record (durable_tables.go)
			data, err := t.read(att.pathID)
			if err != nil {
				return fmt.Errorf("upload %d (%s): %w", att.id, att.pathID, err)
			}
			fu.Data = base64.StdEncoding.EncodeToString(data)
		}
		if att.contentType != upload.ContentType("", att.name) {
			fu.ContentType = att.contentType
		}
		f.Uploads = append(f.Uploads, fu)
	}
	return nil
}

// read is the stored file's bytes.
func (t *uploadTable) read(pathID string) ([]byte, error) {
	blob, err := t.store.Open(pathID)
	if err != nil {
		return nil, err
	}
	defer blob.Close()
	return io.ReadAll(blob)
}

// load checks each file (a user owns it, a name, a path_id as an
// upload makes them for this realm, base64 bytes within the upload size
// limit, messages of the document that link it), then writes the bytes
// to the upload store, replacing any file it holds at that path_id. It is
// the load's last step (the last row of domains), so that a refused
// document leaves no bytes behind; should a write fail, those written
// are deleted.
func (t *uploadTable) load(r *Realm, f *fixture.Document) error {
	realmPrefix := strconv.Itoa(UploadRealmID)
	now := r.clock.Now()
	data := make([][]byte, len(f.Uploads))
	ids := []int{}
	for i, fu := range f.Uploads {
		at := fmt.Sprintf("uploads[%d]", i)
		if fu.ID <= 0 || t.byID[fu.ID] != nil {
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
		if t.byPath[fu.PathID] != nil {
			return badItem(at+".path_id", "duplicate path_id %q", fu.PathID)
		}
		b, err := base64.StdEncoding.DecodeString(fu.Data)
		if err != nil {
			return badItem(at+".data", "not base64: %v", err)
		}
		if kept, ok := r.opts.data.keptFiles[fu.PathID]; ok && fu.Data == "" {
			b = kept // a data directory's tables record (durable_tables.go)
		}
		if int64(len(b)) > r.uploadLimit() {
			return badItem(at+".data", "%s", fileTooLarge(r.maxFileUploadSizeMiB()).Msg)
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
		t.byID[att.id], t.byPath[att.pathID] = att, att
		t.spaceUsed += att.size
		data[i] = b
		ids = append(ids, fu.ID)
	}
	t.nextID = nextAfter(1, ids...)
	for i, fu := range f.Uploads {
		_ = t.store.Delete(fu.PathID)
		if _, err := t.store.Append(fu.PathID, bytes.NewReader(data[i])); err != nil {
			for _, written := range f.Uploads[:i+1] {
				_ = t.store.Delete(written.PathID)
			}
			return badItem(fmt.Sprintf("uploads[%d].data", i), "cannot store the file: %v", err)
		}
	}
	for i, fu := range f.Uploads {
		r.loadImage(t.byPath[fu.PathID], data[i])
	}
	return nil
}
