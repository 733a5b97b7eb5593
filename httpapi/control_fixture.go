package httpapi

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/minizulip/minizulip/realm"
)

// rawJSON is a control answer written as it is, without Zulip's envelope.
type rawJSON []byte

// getDump answers GET /minizulip/dump: the realm as a fixture document
// (package realm/fixture), bare, so that it can be saved and loaded again with
// `minizulip -fixture FILE` or realm.Load.
func (s *Server) getDump(*http.Request, *params) (any, error) {
	doc, err := s.realm.Dump()
	if err != nil {
		return nil, err
	}
	return rawJSON(doc), nil
}

// writeRaw writes a bare JSON answer.
func writeRaw(w http.ResponseWriter, doc rawJSON) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(doc)
}

// rawBodyRoutes are the control routes whose body is a document of its
// own, not parameters: only their query string is parsed as parameters.
var rawBodyRoutes = map[string]string{
	"POST /minizulip/fixture": "a fixture document (GET /minizulip/dump writes one)",
}

// postFixture answers POST /minizulip/fixture: the body, a fixture
// document, replaces the realm (realm.Realm.LoadFixture): every event
// queue is dropped and reset goes back to the document from then on. A
// document that does not load is refused whole, the offending item
// named, and nothing changes.
func (s *Server) postFixture(req *http.Request, _ *params) (any, error) {
	if ct, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type")); ct == "multipart/form-data" {
		return nil, realm.BadRequest("Send the fixture document itself as the body (Content-Type: application/json), not a multipart form")
	}
	if req.ContentLength > maxBodyBytes {
		return nil, errBodyTooLarge
	}
	doc, err := io.ReadAll(http.MaxBytesReader(nil, req.Body, maxBodyBytes))
	if err != nil {
		return nil, bodyError(err, "Could not read the request body")
	}
	if len(bytes.TrimSpace(doc)) == 0 {
		return nil, realm.BadRequest("The body is empty: send a fixture document (GET /minizulip/dump writes one)")
	}
	if err := s.realm.LoadFixture(doc); err != nil {
		var fe *realm.FixtureError
		if errors.As(err, &fe) {
			return nil, realm.BadRequest("%v", fe)
		}
		return nil, err
	}
	return nil, nil
}
