package httpapi

// The resumable-upload endpoint, /api/v1/tus, speaking tus 1.0.0
// (https://tus.io/protocols/resumable-upload) with the creation,
// creation-with-upload and termination extensions. The protocol is small
// and Zulip's variant of it (its IDs are path_ids, a finished upload
// answers 200 with the file's URL, errors are {"message": …}) differs
// from what a tus library's handler does, so it is written here; the
// realm keeps the uploads and their bytes.

import (
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/minizulip/minizulip/realm"
)

// The protocol's constants.
const (
	tusVersion       = "1.0.0"
	tusExtensions    = "creation,creation-with-upload,termination"
	tusChunkType     = "application/offset+octet-stream"
	tusUploadsPrefix = APIPrefix + "/tus/"
)

// tusFailure is a refusal in tus's terms: a status and a message, sent as
// {"message": …} as Zulip's tusd does.
type tusFailure struct {
	status int
	msg    string
}

func (f tusFailure) Error() string { return f.msg }

// serveTus answers every request below /api/v1/tus.
func (s *Server) serveTus(w http.ResponseWriter, req *http.Request) {
	if !s.realm.Has(realm.ChangeResumableUploads) {
		// Older than /api/v1/tus: an unknown endpoint.
		writeNotFound(w)
		return
	}
	h := w.Header()
	h.Set("Tus-Resumable", tusVersion)
	h.Set("Cache-Control", "no-store")
	if req.Method == http.MethodOptions {
		h.Set("Tus-Version", tusVersion)
		h.Set("Tus-Extension", tusExtensions)
		// No Tus-Max-Size: Zulip starts tusd without -max-size (its
		// runtusd command leaves the limit to the pre-create hook), and
		// tusd sends the header only for a configured maximum. tusd
		// answers OPTIONS 200, not 204, for old browsers' preflights.
		w.WriteHeader(http.StatusOK)
		return
	}
	if v := req.Header.Get("Tus-Resumable"); v != tusVersion {
		h.Set("Tus-Version", tusVersion)
		writeTusError(w, req, tusFailure{http.StatusPreconditionFailed, "unsupported version"})
		return
	}
	actor, err := s.tusActor(req)
	if err != nil {
		writeTusError(w, req, err)
		return
	}
	noteUser(w, actor.UserID())
	id := req.PathValue("upload")
	switch {
	case id == "" && req.Method == http.MethodPost:
		err = s.tusCreate(w, req, actor)
	case id != "" && req.Method == http.MethodHead:
		err = tusHead(w, req, actor, id)
	case id != "" && req.Method == http.MethodPatch:
		err = tusPatch(w, req, actor, id)
	case id != "" && req.Method == http.MethodDelete:
		err = actor.CancelResumableUpload(req.Context(), id)
		if err == nil {
			w.WriteHeader(http.StatusNoContent)
		}
	default:
		allow := "OPTIONS, POST"
		if id != "" {
			allow = "OPTIONS, HEAD, PATCH, DELETE"
		}
		h.Set("Allow", allow)
		err = tusFailure{http.StatusMethodNotAllowed, "method not allowed"}
	}
	if err != nil {
		writeTusError(w, req, err)
	}
}

// tusActor authenticates with HTTP Basic API credentials or, failing
// those, a session cookie (with its CSRF token on changes).
func (s *Server) tusActor(req *http.Request) (*realm.Actor, error) {
	unauthenticated := tusFailure{http.StatusUnauthorized, "Unauthenticated upload"}
	var actor *realm.Actor
	var err error
	if req.Header.Get("Authorization") != "" {
		actor, err = s.authenticate(req)
	} else if c, cerr := req.Cookie("sessionid"); cerr == nil && c.Value != "" {
		actor, err = s.authenticateSession(req)
		var re *realm.Error
		if errors.As(err, &re) && re.Code == realm.CodeCSRFFailed {
			return nil, tusFailure{http.StatusForbidden, re.Msg}
		}
	} else {
		return nil, unauthenticated
	}
	if err == nil {
		err = actor.CheckAPIAccess()
	}
	if err != nil {
		return nil, unauthenticated
	}
	return actor, nil
}

// tusCreate starts an upload (creation), with the first bytes when the
// request carries them (creation-with-upload).
func (s *Server) tusCreate(w http.ResponseWriter, req *http.Request, actor *realm.Actor) error {
	if req.Header.Get("Upload-Defer-Length") != "" {
		return tusFailure{http.StatusLengthRequired, "SizeIsDeferred is not supported"}
	}
	if req.Header.Get("Upload-Concat") != "" {
		return tusFailure{http.StatusBadRequest, "concatenation is not supported"}
	}
	length, err := strconv.ParseInt(req.Header.Get("Upload-Length"), 10, 64)
	if err != nil || length < 0 {
		return tusFailure{http.StatusBadRequest, "missing or invalid Upload-Length header"}
	}
	meta, err := parseTusMetadata(req.Header.Get("Upload-Metadata"))
	if err != nil {
		return err
	}
	withBytes := req.Header.Get("Content-Type") == tusChunkType && req.ContentLength != 0
	if req.ContentLength > length {
		return tusFailure{http.StatusRequestEntityTooLarge, "body larger than Upload-Length"}
	}
	prog, err := actor.StartResumableUpload(req.Context(), realm.ResumableUploadRequest{
		Name: meta["filename"], ContentType: meta["filetype"], Length: length})
	if err != nil {
		return err
	}
	w.Header().Set("Location", tusLocation(prog.PathID))
	if withBytes && !prog.Done {
		prog, err = actor.AppendResumableUpload(req.Context(), prog.PathID, 0, req.Body)
		if err != nil {
			return err
		}
	}
	writeTusProgress(w, prog, http.StatusCreated)
	return nil
}

// tusHead tells where an upload stands.
func tusHead(w http.ResponseWriter, req *http.Request, actor *realm.Actor, id string) error {
	prog, err := actor.ResumableUploadOffset(req.Context(), id)
	if err != nil {
		return err
	}
	w.Header().Set("Upload-Offset", strconv.FormatInt(prog.Offset, 10))
	w.Header().Set("Upload-Length", strconv.FormatInt(prog.Length, 10))
	w.WriteHeader(http.StatusOK)
	return nil
}

// tusPatch appends the body's bytes at Upload-Offset.
func tusPatch(w http.ResponseWriter, req *http.Request, actor *realm.Actor, id string) error {
	if ct := req.Header.Get("Content-Type"); ct != tusChunkType {
		return tusFailure{http.StatusUnsupportedMediaType, "Content-Type must be " + tusChunkType}
	}
	offset, err := strconv.ParseInt(req.Header.Get("Upload-Offset"), 10, 64)
	if err != nil || offset < 0 {
		return tusFailure{http.StatusBadRequest, "missing or invalid Upload-Offset header"}
	}
	prog, err := actor.AppendResumableUpload(req.Context(), id, offset, req.Body)
	if err != nil {
		return err
	}
	writeTusProgress(w, prog, http.StatusNoContent)
	return nil
}

// writeTusProgress answers a request that stored bytes: Zulip's JSON with
// the file's URL once the upload is complete, else the new Upload-Offset
// with status.
func writeTusProgress(w http.ResponseWriter, prog realm.ResumableProgress, status int) {
	if prog.Done {
		writeTusDone(w, prog)
		return
	}
	w.Header().Set("Upload-Offset", strconv.FormatInt(prog.Offset, 10))
	w.WriteHeader(status)
}

// tusDone is Zulip's answer to the request that finished an upload.
type tusDone struct {
	URL      string `json:"url"`
	Filename string `json:"filename"`
}

// writeTusDone answers 200 with the finished file's URL and name.
func writeTusDone(w http.ResponseWriter, prog realm.ResumableProgress) {
	w.Header().Set("Upload-Offset", strconv.FormatInt(prog.Offset, 10))
	writeJSON(w, http.StatusOK, map[string]any{"url": prog.Result.URI, "filename": prog.Result.Filename})
}

// writeTusError answers a refusal as {"message": …} with its status (no
// body for HEAD).
func writeTusError(w http.ResponseWriter, req *http.Request, err error) {
	status, msg := http.StatusInternalServerError, "internal error"
	var tf tusFailure
	var re *realm.Error
	switch {
	case errors.As(err, &tf):
		status, msg = tf.status, tf.msg
	case errors.As(err, &re):
		status, msg = re.Status, re.Msg
		if status == 0 {
			status = http.StatusBadRequest
		}
	}
	if req.Method == http.MethodHead {
		w.WriteHeader(status)
		return
	}
	writeJSON(w, status, map[string]any{"message": msg})
}

// tusLocation is an upload's URL: the path_id below /api/v1/tus/, each
// segment escaped.
func tusLocation(pathID string) string {
	segs := strings.Split(pathID, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return tusUploadsPrefix + strings.Join(segs, "/")
}

// parseTusMetadata reads Upload-Metadata: comma-separated pairs of a key
// and a base64 value (the value may be absent).
func parseTusMetadata(header string) (map[string]string, error) {
	out := map[string]string{}
	if strings.TrimSpace(header) == "" {
		return out, nil
	}
	for _, pair := range strings.Split(header, ",") {
		key, enc, _ := strings.Cut(strings.TrimSpace(pair), " ")
		if key == "" {
			return nil, tusFailure{http.StatusBadRequest, "invalid Upload-Metadata header"}
		}
		val, err := base64.StdEncoding.DecodeString(strings.TrimSpace(enc))
		if err != nil {
			return nil, tusFailure{http.StatusBadRequest, "invalid Upload-Metadata header"}
		}
		out[key] = string(val)
	}
	return out, nil
}
