package httpapi

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/minizulip/minizulip/realm"
)

// UnsupportedRequest is one kind of request the server does not fully
// support, with how often it came: an endpoint it does not implement
// (Kind "endpoint", with the parameters the requests carried) or
// parameters an endpoint ignored (Kind "parameters").
type UnsupportedRequest struct {
	Kind   string `json:"kind"`
	Method string `json:"method"`
	// Path is the request's path for an endpoint, the route's pattern
	// ("/api/v1/messages/{message_id}") for parameters.
	Path   string   `json:"path"`
	Params []string `json:"params"`
	Count  int      `json:"count"`
}

// Kinds of UnsupportedRequest.
const (
	UnsupportedEndpoint   = "endpoint"
	UnsupportedParameters = "parameters"
)

// universalParams are parameters any Zulip endpoint may carry without
// their being unsupported: Zulip reads client from every request to name
// the client.
var universalParams = []string{"client"}

// maxUnsupportedKinds bounds the record; further new kinds are counted in
// no entry (the ones recorded keep counting).
const maxUnsupportedKinds = 1000

// unsupportedLog records unsupported requests by kind, method, path and
// parameters, in the order first seen.
type unsupportedLog struct {
	mu      sync.Mutex
	entries []*UnsupportedRequest
	index   map[string]*UnsupportedRequest
}

func (l *unsupportedLog) note(kind, method, path string, names []string) {
	key := kind + " " + method + " " + path + " " + strings.Join(names, ",")
	l.mu.Lock()
	defer l.mu.Unlock()
	if e := l.index[key]; e != nil {
		e.Count++
		return
	}
	if len(l.entries) >= maxUnsupportedKinds {
		return
	}
	if l.index == nil {
		l.index = map[string]*UnsupportedRequest{}
	}
	e := &UnsupportedRequest{Kind: kind, Method: method, Path: path, Params: slices.Clone(names), Count: 1}
	if e.Params == nil {
		e.Params = []string{}
	}
	l.index[key] = e
	l.entries = append(l.entries, e)
}

// Unsupported lists the requests the server did not fully support, in the
// order first seen: calls of endpoints it does not implement and
// parameters it ignored (but client, which any request may carry).
func (s *Server) Unsupported() []UnsupportedRequest {
	l := &s.tc.unsupported
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]UnsupportedRequest, len(l.entries))
	for i, e := range l.entries {
		out[i] = *e
		out[i].Params = slices.Clone(e.Params)
	}
	return out
}

// ClearUnsupported empties the record of unsupported requests.
func (s *Server) ClearUnsupported() {
	l := &s.tc.unsupported
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries, l.index = nil, nil
}

// unsupportedEndpoint records a request no route serves; in strict mode it
// answers it with a 400 and reports true.
func (s *Server) unsupportedEndpoint(w http.ResponseWriter, req *http.Request) bool {
	var names []string
	if p, err := parseParams(req); err == nil {
		names = p.names()
		slices.Sort(names)
	}
	s.tc.unsupported.note(UnsupportedEndpoint, req.Method, req.URL.Path, names)
	if !s.tc.strict {
		return false
	}
	writeError(w, realm.BadRequest("minizulip does not implement %s %s (strict mode)", req.Method, req.URL.Path))
	return true
}

// unsupportedParams records the parameters a route ignored (those not
// universal); in strict mode it answers with a 400 naming them and
// reports true.
func (s *Server) unsupportedParams(w http.ResponseWriter, req *http.Request, pattern string, ignored []string) bool {
	var names []string
	for _, n := range ignored {
		// A path parameter repeated in the body (python-zulip-api sends
		// message_id both ways) is ignored by Zulip too, without harm.
		inPath := strings.Contains(pattern, "{"+n+"}") || strings.Contains(pattern, "{"+n+"...}")
		if !slices.Contains(universalParams, n) && !inPath {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return false
	}
	s.tc.unsupported.note(UnsupportedParameters, req.Method, pattern, names)
	if !s.tc.strict {
		return false
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	writeError(w, realm.BadRequest("minizulip does not support the parameter(s) %s of %s %s (strict mode; the request was carried out without them)",
		strings.Join(quoted, ", "), req.Method, pattern))
	return true
}

// listUnsupported answers GET /minizulip/unsupported.
func (s *Server) listUnsupported(*http.Request, *params) (any, error) {
	return map[string]any{"unsupported": s.Unsupported()}, nil
}

// clearUnsupported answers DELETE /minizulip/unsupported.
func (s *Server) clearUnsupported(*http.Request, *params) (any, error) {
	s.ClearUnsupported()
	return nil, nil
}
