package httpapi

import (
	"net/http"
	"strings"
	"time"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/upload"
)

// handleFileRoutes serves the routes outside /api/v1 and /json: uploaded
// files at the site root, as Zulip serves them to browsers and API
// clients alike, and the resumable-upload (tus) endpoint, which speaks
// tus rather than Zulip's JSON envelope.
func (rt *router) handleFileRoutes() {
	for _, fr := range []struct {
		pattern string
		h       serverHandler
	}{
		{"/user_uploads/{path...}", serveFile(false)},
		{"/user_uploads/download/{path...}", serveFile(true)},
		{"/user_uploads/thumbnail/{path...}", (*Server).serveThumbnail},
		{"/user_uploads/temporary/{token}/{filename}", (*Server).serveTemporaryFile},
	} {
		rt.mux.Handle("GET "+fr.pattern, fr.h)
		rt.allowed[fr.pattern] = append(rt.allowed[fr.pattern], http.MethodGet)
	}
	for _, pattern := range []string{APIPrefix + "/tus", APIPrefix + "/tus/{upload...}"} {
		rt.mux.Handle(pattern, serverHandler((*Server).serveTus))
	}
}

// fileActor authenticates a file request: HTTP Basic, the legacy
// api_key query parameter, or a session cookie; none at all is a visitor
// (nil actor, no error).
func (s *Server) fileActor(req *http.Request) (*realm.Actor, error) {
	if req.Header.Get("Authorization") != "" {
		return s.authenticate(req)
	}
	if tooManyFields(req.URL.RawQuery) {
		return nil, errTooManyFields
	}
	if key := req.URL.Query().Get("api_key"); key != "" {
		return s.realm.AuthenticateFileKey(key)
	}
	if c, err := req.Cookie("sessionid"); err == nil && c.Value != "" {
		return s.authenticateSession(req)
	}
	return nil, nil
}

// serveFile serves GET /user_uploads/<path_id> (download: always as an
// attachment) to whoever may read the file.
func serveFile(download bool) serverHandler {
	return func(s *Server, w http.ResponseWriter, req *http.Request) {
		actor, err := s.fileActor(req)
		if err != nil {
			writeError(w, err)
			return
		}
		pathID := req.PathValue("path")
		var f *realm.UploadedFile
		if actor != nil {
			noteUser(w, actor.UserID())
			f, err = actor.OpenUpload(req.Context(), pathID)
		} else {
			f, err = s.realm.OpenUploadAsVisitor(req.Context(), pathID)
		}
		if err != nil {
			writeFileError(w, err)
			return
		}
		writeFile(w, req, f, download)
	}
}

// serveThumbnail serves GET /user_uploads/thumbnail/<path_id>/<format>
// to whoever may read the file.
func (s *Server) serveThumbnail(w http.ResponseWriter, req *http.Request) {
	actor, err := s.fileActor(req)
	if err != nil {
		writeError(w, err)
		return
	}
	pathID, format := req.PathValue("path"), ""
	if i := strings.LastIndexByte(pathID, '/'); i >= 0 {
		pathID, format = pathID[:i], pathID[i+1:]
	}
	var f *realm.UploadedFile
	if actor != nil {
		noteUser(w, actor.UserID())
		f, err = actor.OpenThumbnail(req.Context(), pathID, format)
	} else {
		f, err = s.realm.OpenThumbnailAsVisitor(req.Context(), pathID, format)
	}
	if err != nil {
		writeFileError(w, err)
		return
	}
	writeFile(w, req, f, false)
}

// serveTemporaryFile serves a temporary URL's file, no credentials asked.
func (s *Server) serveTemporaryFile(w http.ResponseWriter, req *http.Request) {
	f, err := s.realm.OpenTemporaryUpload(req.Context(), req.PathValue("token"))
	if err != nil {
		writeFileError(w, err)
		return
	}
	writeFile(w, req, f, false)
}

// writeFile sends a file's bytes with its type, Zulip's disposition and
// caching headers; ranges and HEAD are served too.
func writeFile(w http.ResponseWriter, req *http.Request, f *realm.UploadedFile, download bool) {
	defer f.Blob.Close()
	h := w.Header()
	h.Set("Content-Type", f.ContentType)
	h.Set("Content-Disposition", upload.Disposition(f.ContentType, f.Name, download))
	h.Set("Cache-Control", "private, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, req, "", time.Time{}, f.Blob)
}
