package realm

import (
	"bytes"
	"context"
	"crypto/rand"
	"slices"
	"time"

	"github.com/minizulip/minizulip/upload"
	"github.com/minizulip/minizulip/user"
)

// The kinds of data export (RealmExport.export_type).
const (
	// ExportPublic holds only what every member can see.
	ExportPublic = 1
	// ExportFullWithConsent adds the private data of the users who
	// allow it (allow_private_data_export).
	ExportFullWithConsent = 2
)

// Zulip's limits on data exports requested through the API.
const (
	// exportLimit exports may be requested per exportWindow.
	exportLimit  = 5
	exportWindow = 7 * 24 * time.Hour
	// exportSupportEmail is who to ask for an export over the limits
	// (the dev server's ZULIP_ADMINISTRATOR).
	exportSupportEmail = "desdemona+admin@zulip.com"
)

// Above these, Zulip asks for a manual export; variables so that tests
// can lower them.
var (
	maxExportMessages    = 250000
	maxExportUploadBytes = int64(20) << 30
)

// storedExport is one requested data export.
type storedExport struct {
	id           int
	actingUserID int
	exportType   int
	requested    time.Time
	succeeded    time.Time // zero until it succeeds
	failed       time.Time // zero unless it failed
	deleted      time.Time // zero until deleted
	pathID       string    // the tarball in the upload store, once written
	fileName     string
}

// pending reports whether the export is still being generated.
func (e *storedExport) pending() bool {
	return e.succeeded.IsZero() && e.failed.IsZero() && e.deleted.IsZero()
}

// exportTable is the realm's data exports; IDs are never reused.
type exportTable struct {
	list   []*storedExport // the exports, by ID
	nextID int             // the next export ID to give
}

func (t *exportTable) clone() exportTable {
	out := exportTable{nextID: t.nextID}
	for _, e := range t.list {
		c := *e
		out.list = append(out.list, &c)
	}
	return out
}

// RealmExport is a data export as GET /export/realm and realm_export
// events describe it. Timestamps are UNIX seconds.
type RealmExport struct {
	ID               int     `json:"id"`
	ActingUserID     int     `json:"acting_user_id"`
	ExportTime       int64   `json:"export_time"`
	DeletedTimestamp *int64  `json:"deleted_timestamp"`
	FailedTimestamp  *int64  `json:"failed_timestamp"`
	Pending          bool    `json:"pending"`
	ExportURL        *string `json:"export_url"`
	// ExportType is absent on realms advertising a level below 304.
	ExportType *int `json:"export_type,omitempty"`
}

// RealmExportEvent carries every export of the realm after a change.
type RealmExportEvent struct {
	Exports []RealmExport `json:"exports"`
}

// RealmExportConsentEvent tells administrators that a user's
// allow_private_data_export changed.
type RealmExportConsentEvent struct {
	UserID    int  `json:"user_id"`
	Consented bool `json:"consented"`
}

// ExportConsent is one user's entry of GET /export/realm/consents.
type ExportConsent struct {
	UserID    int  `json:"user_id"`
	Consented bool `json:"consented"`
}

// ExportRealm answers POST /export/realm (administrators): Zulip's limit
// of 5 exports a week by the realm's clock, and its limits on the size of
// what is exported, are checked; the export is then generated at once, a
// tar.gz holding the realm's fixture document as realm.json (see Dump),
// filtered by the export type, kept in the upload store and served at its
// export_url to administrators. Administrators hear a realm_export event
// when the export is requested and when it completes, and the Notification
// Bot tells the requester it is done. It returns the export's ID.
func (a *Actor) ExportRealm(ctx context.Context, exportType int) (id int, err error) {
	r := a.r
	if !r.has(changeExportType) {
		exportType = ExportPublic // export_type is unknown there
	}
	err = a.writeAdmin(ctx, func(me *user.User) error {
		if exportType != ExportPublic && exportType != ExportFullWithConsent {
			return BadRequest("Invalid export_type: Value error, Not in the list of possible values")
		}
		now := r.clock.Now()
		recent := 0
		for _, e := range r.exports.list {
			if !e.requested.Before(now.Add(-exportWindow)) {
				recent++
			}
		}
		if recent >= exportLimit {
			return BadRequest("Exceeded rate limit.")
		}
		if r.messages.store.Len() > maxExportMessages || r.files.spaceUsed > maxExportUploadBytes {
			return BadRequest("Please request a manual export from %s.", exportSupportEmail)
		}
		e := &storedExport{id: r.exports.nextID, actingUserID: me.ID, exportType: exportType, requested: now}
		r.exports.nextID++
		r.exports.list = append(r.exports.list, e)
		r.emitExports()
		r.runExport(me, e)
		id = e.id
		return nil
	})
	return id, err
}

// runExport writes the export's tarball and records how it went, as
// Zulip's export worker does. The caller holds the write lock.
func (r *Realm) runExport(me *user.User, e *storedExport) {
	e.fileName = "zulip-export-" + exportSuffix() + ".tar.gz"
	f, err := r.exportFixture(e.exportType)
	var data []byte
	if err == nil {
		data, err = exportTarball(f, e.fileName)
	}
	pathID := upload.NewPathID(UploadRealmID, e.fileName)
	if err == nil {
		_, err = r.files.store.Append(pathID, bytes.NewReader(data))
	}
	if err != nil {
		_ = r.files.store.Delete(pathID)
		e.failed = r.clock.Now()
		r.emitExports()
		return
	}
	e.pathID = pathID
	e.succeeded = r.clock.Now()
	r.sendBotDirect(me, "Your data export is complete. [View and download exports](/#organization/data-exports-admin).")
	r.emitExports()
}

// exportSuffix is the random part of an export's name, as Python's
// mkdtemp makes them.
func exportSuffix() string {
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789_"
	var b [8]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = letters[int(b[i])%len(letters)]
	}
	return string(b[:])
}

// RealmExports answers GET /export/realm (administrators): every export,
// by ID.
func (a *Actor) RealmExports(ctx context.Context) ([]RealmExport, error) {
	var out []RealmExport
	err := a.read(ctx, func(me *user.User) error {
		if !me.Role.IsAdmin() {
			return UnauthorizedPrincipal("Must be an organization administrator")
		}
		out = a.r.exportList()
		return nil
	})
	return out, err
}

// DeleteRealmExport answers DELETE /export/realm/{export_id}
// (administrators): the tarball is removed and the export marked deleted.
func (a *Actor) DeleteRealmExport(ctx context.Context, id int) error {
	r := a.r
	return a.writeAdmin(ctx, func(me *user.User) error {
		i := slices.IndexFunc(r.exports.list, func(e *storedExport) bool { return e.id == id })
		if i < 0 {
			return BadRequest("Invalid data export ID")
		}
		e := r.exports.list[i]
		switch {
		case !e.deleted.IsZero():
			return BadRequest("Export already deleted")
		case !e.failed.IsZero():
			return BadRequest("Export failed, nothing to delete")
		case e.pending():
			return BadRequest("Export still in progress")
		}
		_ = r.files.store.Delete(e.pathID)
		e.deleted = r.clock.Now()
		r.emitExports()
		return nil
	})
}

// ExportConsents answers GET /export/realm/consents (administrators):
// whether each active human user allows the export of their private data,
// by user ID.
func (a *Actor) ExportConsents(ctx context.Context) ([]ExportConsent, error) {
	out := []ExportConsent{}
	err := a.read(ctx, func(me *user.User) error {
		if !me.Role.IsAdmin() {
			return UnauthorizedPrincipal("Must be an organization administrator")
		}
		for _, u := range a.r.users.sorted() {
			if u.IsActive && !u.IsBot() {
				out = append(out, ExportConsent{UserID: u.ID, Consented: u.Settings.AllowPrivateDataExport})
			}
		}
		return nil
	})
	return out, err
}

// exportList is every export as the API shows it, by ID, never nil.
func (r *Realm) exportList() []RealmExport {
	out := []RealmExport{}
	stamp := func(t time.Time) *int64 {
		if t.IsZero() {
			return nil
		}
		s := t.Unix()
		return &s
	}
	for _, e := range r.exports.list {
		x := RealmExport{ID: e.id, ActingUserID: e.actingUserID, ExportTime: e.requested.Unix(),
			DeletedTimestamp: stamp(e.deleted), FailedTimestamp: stamp(e.failed), Pending: e.pending()}
		if !e.succeeded.IsZero() && e.deleted.IsZero() {
			url := r.opts.URL + upload.URL(e.pathID)
			x.ExportURL = &url
		}
		if r.has(changeExportType) {
			t := e.exportType
			x.ExportType = &t
		}
		out = append(out, x)
	}
	return out
}

// humanAdminIDs are the active human administrators and owners.
func (r *Realm) humanAdminIDs() []int {
	var out []int
	for id, u := range r.users.byID {
		if u.IsActive && !u.IsBot() && u.Role.IsAdmin() {
			out = append(out, id)
		}
	}
	return out
}

// emitExports sends the export list to the administrators.
func (r *Realm) emitExports() {
	r.emit("realm_export", RealmExportEvent{Exports: r.exportList()}, r.humanAdminIDs()...)
}

// emitExportConsent tells the administrators u's current consent. The
// caller holds the write lock.
func (r *Realm) emitExportConsent(u *user.User) {
	if !r.has(changeExportConsentEvent) || u.IsBot() {
		return
	}
	r.emit("realm_export_consent", RealmExportConsentEvent{UserID: u.ID, Consented: u.Settings.AllowPrivateDataExport},
		r.humanAdminIDs()...)
}

// openExport opens the tarball of a completed, undeleted export for an
// administrator; ok is false when pathID names no export. The caller
// holds the lock.
func (r *Realm) openExport(reader *user.User, pathID string) (f *UploadedFile, ok bool, err error) {
	i := slices.IndexFunc(r.exports.list, func(e *storedExport) bool { return e.pathID == pathID && e.pathID != "" })
	if i < 0 {
		return nil, false, nil
	}
	e := r.exports.list[i]
	if !e.deleted.IsZero() {
		return nil, true, fileNotFound()
	}
	if reader == nil || !reader.Role.IsAdmin() {
		return nil, true, fileNotAuthorized()
	}
	blob, err := r.files.store.Open(pathID)
	if err != nil {
		return nil, true, fileNotFound()
	}
	return &UploadedFile{Blob: blob, Name: e.fileName, ContentType: upload.GuessType(e.fileName)}, true, nil
}
