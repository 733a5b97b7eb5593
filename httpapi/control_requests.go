package httpapi

import (
	"context"
	"errors"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/minizulip/minizulip/realm"
)

// RequestFilter selects entries of the request log; its zero value takes
// every entry.
type RequestFilter struct {
	// Method is an HTTP method, any case; empty for any.
	Method string
	// Path is a served path ("/api/v1/messages/42") or a route pattern
	// ("/api/v1/messages/{message_id}"), as a fault's path; empty for any.
	Path string
	// User is the email of the user whose credentials the request carried.
	User string
	// SinceID takes only the entries logged after the one with this ID.
	SinceID int64
}

// requestMatcher is a RequestFilter checked against the realm and routes.
type requestMatcher struct {
	method, path, pattern string
	userID                int
	sinceID               int64
}

// matcher checks f: an unknown user or a pattern matching no endpoint is
// a BAD_REQUEST.
func (s *Server) matcher(f RequestFilter) (*requestMatcher, error) {
	m := &requestMatcher{method: strings.ToUpper(strings.TrimSpace(f.Method)), path: f.Path, sinceID: f.SinceID}
	if f.SinceID < 0 {
		return nil, realm.BadRequest("since_id must not be negative")
	}
	if strings.Contains(f.Path, "{") {
		pattern, err := s.faultPattern("", f.Path)
		if err != nil {
			return nil, err
		}
		m.pattern, m.path = pattern, ""
	}
	if f.User != "" {
		id, ok := s.realm.UserIDByEmail(f.User)
		if !ok {
			return nil, realm.BadRequest("No user with email %q", f.User)
		}
		m.userID = id
	}
	return m, nil
}

// match reports whether r passes the filter.
func (s *Server) match(m *requestMatcher, r *RequestRecord) bool {
	switch {
	case r.ID <= m.sinceID,
		m.method != "" && r.Method != m.method,
		m.path != "" && r.Path != m.path,
		m.userID != 0 && r.UserID != m.userID:
		return false
	case m.pattern != "":
		_, pattern := s.routes.paths.Handler(&http.Request{Method: http.MethodGet, URL: &url.URL{Path: r.Path}})
		return pattern == m.pattern
	}
	return true
}

// FindRequests returns the logged requests that f selects, oldest first.
// An unknown user or a pattern matching no endpoint is refused.
func (s *Server) FindRequests(f RequestFilter) ([]RequestRecord, error) {
	m, err := s.matcher(f)
	if err != nil {
		return nil, err
	}
	l := &s.tc.requests
	l.mu.Lock()
	all := l.records()
	l.mu.Unlock()
	out := all[:0]
	for i := range all {
		if s.match(m, &all[i]) {
			out = append(out, all[i])
		}
	}
	return s.withEmails(out), nil
}

// WaitRequest returns the oldest logged request that f selects, waiting
// until one is logged or ctx ends (then ctx's error). With f.SinceID, a
// request logged after that ID and before the call counts.
func (s *Server) WaitRequest(ctx context.Context, f RequestFilter) (RequestRecord, error) {
	m, err := s.matcher(f)
	if err != nil {
		return RequestRecord{}, err
	}
	l := &s.tc.requests
	for {
		l.mu.Lock()
		// Entries are in ID order: look only at those not seen yet.
		all := l.records()
		if l.added == nil {
			l.added = make(chan struct{})
		}
		added := l.added
		l.mu.Unlock()
		for i := range all {
			if s.match(m, &all[i]) {
				return s.withEmails(all[i : i+1])[0], nil
			}
		}
		if len(all) > 0 {
			m.sinceID = max(m.sinceID, all[len(all)-1].ID)
		}
		select {
		case <-added:
		case <-ctx.Done():
			return RequestRecord{}, ctx.Err()
		}
	}
}

// requestFilterParams are the filters of GET /minizulip/requests.
var requestFilterParams = []string{"method", "path", "user", "since_id"}

// requestFilterOf reads the filter parameters.
func requestFilterOf(p *params) (RequestFilter, error) {
	var f RequestFilter
	f.Method, _ = p.str("method")
	f.Path, _ = p.str("path")
	f.User, _ = p.str("user")
	if raw, ok := p.str("since_id"); ok {
		id, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
		if err != nil || id < 0 {
			return f, realm.BadRequest("since_id is not a request ID (a whole number, 0 or more)")
		}
		f.SinceID = id
	}
	return f, nil
}

// listRequests answers GET /minizulip/requests: the log, filtered by
// method, path, user and since_id.
func (s *Server) listRequests(_ *http.Request, p *params) (any, error) {
	f, err := requestFilterOf(p)
	if err != nil {
		return nil, err
	}
	reqs, err := s.FindRequests(f)
	if err != nil {
		return nil, err
	}
	return map[string]any{"requests": reqs}, nil
}

// clearRequests answers DELETE /minizulip/requests.
func (s *Server) clearRequests(*http.Request, *params) (any, error) {
	s.ClearRequests()
	return nil, nil
}

// Bounds of GET /minizulip/requests/wait's timeout, in seconds.
const (
	defaultRequestWait = 10
	maxRequestWait     = 60
)

// waitParams are the parameters of GET /minizulip/requests/wait.
var waitParams = append([]string{"timeout"}, requestFilterParams...)

// waitRequest answers GET /minizulip/requests/wait: the oldest matching
// request logged after since_id, as soon as there is one; a 408 TIMEOUT
// when none is logged within timeout seconds (real time).
func (s *Server) waitRequest(req *http.Request, p *params) (any, error) {
	f, err := requestFilterOf(p)
	if err != nil {
		return nil, err
	}
	timeout, set, err := p.optFloat("timeout")
	if err != nil {
		return nil, err
	}
	if !set {
		timeout = defaultRequestWait
	}
	if timeout < 0 || timeout > maxRequestWait {
		return nil, realm.BadRequest("timeout must be between 0 and %d seconds", maxRequestWait)
	}
	d := time.Duration(math.Round(timeout * float64(time.Second)))
	ctx, cancel := context.WithTimeout(req.Context(), d)
	defer cancel()
	rec, err := s.WaitRequest(ctx, f)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return nil, &realm.Error{Code: "TIMEOUT", Status: http.StatusRequestTimeout,
			Msg: "No matching request was logged within " + strconv.FormatFloat(timeout, 'f', -1, 64) + " seconds"}
	}
	if err != nil {
		return nil, err
	}
	return map[string]any{"request": rec}, nil
}
