package httpapi

import "net/http"

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
