package httpapi

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/minizulip/minizulip/realm"
)

// Fault is an injected failure of the Zulip API requests it matches, for
// testing how a client copes with errors, rate limits, slowness and lost
// connections. It has exactly one effect: an error answer (Status), a
// delay before the request is served (Delay), or a dropped connection
// (Drop).
type Fault struct {
	// ID identifies the fault (fault_id); AddFault assigns it.
	ID int `json:"fault_id"`
	// Method limits the fault to one HTTP method; empty matches any.
	Method string `json:"method,omitempty"`
	// Path is a served path ("/api/v1/messages/42") or a route pattern
	// ("/api/v1/messages/{message_id}"), under /api/v1 or /json.
	Path string `json:"path"`
	// User limits the fault to one user's requests, by email.
	User string `json:"user,omitempty"`
	// Count is how many matching requests the fault still hits; -1 hits
	// them until it is cleared. AddFault takes 0 as 1.
	Count int `json:"hits_left"`
	// Status, Code and Msg are the error answer (Code defaults to
	// RATE_LIMIT_HIT for a 429 and BAD_REQUEST otherwise, Msg to Zulip's
	// rate-limit message or the status text).
	Status int    `json:"status,omitempty"`
	Code   string `json:"code,omitempty"`
	Msg    string `json:"msg,omitempty"`
	// RetryAfter, in seconds, goes with an error answer as a Retry-After
	// header and a "retry-after" body field, as Zulip's rate-limit errors
	// carry them.
	RetryAfter float64 `json:"retry_after,omitempty"`
	// Delay holds the request this long (real time, as network latency)
	// before serving it; in JSON, delay_ms.
	Delay time.Duration `json:"-"`
	// Drop closes the connection without an answer.
	Drop bool `json:"drop,omitempty"`
	// Timeout serves a batched request (POST /mark_all_as_read, POST
	// /streams/{stream_id}/delete_topic) as if Zulip's time budget ran
	// out after its first batch: it answers that it is not complete.
	Timeout bool `json:"timeout,omitempty"`

	userID  int    // the user User names
	pattern string // Path when it is a route pattern
}

// MarshalJSON encodes the fault as GET /minizulip/faults lists it, with
// the delay in milliseconds.
func (f Fault) MarshalJSON() ([]byte, error) {
	type plain Fault
	return json.Marshal(struct {
		plain
		DelayMS int64 `json:"delay_ms,omitempty"`
	}{plain(f), f.Delay.Milliseconds()})
}

// faultParams are the fields of POST /minizulip/faults.
var faultParams = []string{"method", "path", "user", "count", "status", "code", "msg", "retry_after", "delay_ms", "drop", "timeout"}

// maxFaultDelay bounds a delay fault.
const maxFaultDelay = 10 * time.Minute

// faultTable holds a server's active faults.
type faultTable struct {
	mu     sync.Mutex
	list   []*Fault
	nextID int
}

// AddFault activates a fault and returns its ID. It is refused, and
// nothing changes, when the path matches no endpoint (with that method),
// the user is unknown, or it has not exactly one valid effect.
func (s *Server) AddFault(f Fault) (int, error) {
	if err := s.checkFault(&f); err != nil {
		return 0, err
	}
	t := &s.tc.faults
	t.mu.Lock()
	defer t.mu.Unlock()
	t.nextID++
	f.ID = t.nextID
	t.list = append(t.list, &f)
	return f.ID, nil
}

// Faults lists the active faults, oldest first, with the hits left.
func (s *Server) Faults() []Fault {
	t := &s.tc.faults
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]Fault, len(t.list))
	for i, f := range t.list {
		out[i] = *f
	}
	return out
}

// ClearFaults removes every fault.
func (s *Server) ClearFaults() {
	t := &s.tc.faults
	t.mu.Lock()
	defer t.mu.Unlock()
	t.list = nil
}

// ClearFault removes one fault; it reports whether the fault was active.
func (s *Server) ClearFault(id int) bool {
	t := &s.tc.faults
	t.mu.Lock()
	defer t.mu.Unlock()
	i := slices.IndexFunc(t.list, func(f *Fault) bool { return f.ID == id })
	if i < 0 {
		return false
	}
	t.list = slices.Delete(t.list, i, i+1)
	return true
}

// checkFault validates f and fills in its defaults.
func (s *Server) checkFault(f *Fault) error {
	f.Method = strings.ToUpper(strings.TrimSpace(f.Method))
	pattern, err := s.faultPattern(f.Method, f.Path)
	if err != nil {
		return err
	}
	if strings.Contains(f.Path, "{") {
		f.pattern = pattern
	}
	f.userID = 0
	if f.User != "" {
		id, ok := s.realm.UserIDByEmail(f.User)
		if !ok {
			return realm.BadRequest("No user with email %q", f.User)
		}
		f.userID = id
	}
	switch {
	case f.Count == 0:
		f.Count = 1
	case f.Count < -1:
		return realm.BadRequest("count must be a positive number of requests, or -1 for every request until cleared")
	}
	effects := 0
	for _, on := range []bool{f.Status != 0, f.Delay != 0, f.Drop, f.Timeout} {
		if on {
			effects++
		}
	}
	if effects != 1 {
		return realm.BadRequest("A fault needs exactly one effect: status (with code, msg, retry_after), delay_ms, drop, or timeout")
	}
	if f.Timeout && !s.routes.batched[cmp.Or(f.Method, http.MethodPost)+" "+pattern] {
		return realm.BadRequest("A timeout fault applies to the batched endpoints only: POST %s/mark_all_as_read and POST %s/streams/{stream_id}/delete_topic (or their %s paths)",
			APIPrefix, APIPrefix, JSONPrefix)
	}
	if f.Status == 0 && (f.Code != "" || f.Msg != "" || f.RetryAfter != 0) {
		return realm.BadRequest("code, msg and retry_after go with a status")
	}
	if f.Status != 0 && (f.Status < 400 || f.Status > 599) {
		return realm.BadRequest("status must be an error status, 400 to 599")
	}
	if f.RetryAfter < 0 {
		return realm.BadRequest("retry_after must not be negative")
	}
	if f.Delay < 0 || f.Delay > maxFaultDelay {
		return realm.BadRequest("delay_ms must be between 1 and %d", maxFaultDelay.Milliseconds())
	}
	if f.Status != 0 {
		if f.Code == "" {
			f.Code = string(realm.CodeBadRequest)
			if f.Status == http.StatusTooManyRequests {
				f.Code = "RATE_LIMIT_HIT"
			}
		}
		if f.Msg == "" {
			f.Msg = http.StatusText(f.Status)
			if f.Status == http.StatusTooManyRequests {
				f.Msg = "API usage exceeded rate limit"
			}
		}
	}
	return nil
}

// faultPattern finds the route path pattern a fault's path names, checking
// that the method (if any) is served there.
func (s *Server) faultPattern(method, path string) (string, error) {
	if path == "" {
		return "", realm.VariableMissing("path")
	}
	probe := &http.Request{Method: http.MethodGet, URL: &url.URL{Path: path}}
	_, pattern := s.routes.paths.Handler(probe)
	if pattern == "" || (strings.Contains(path, "{") && pattern != path) {
		return "", realm.BadRequest("No endpoint has the path %q (paths start with %s or %s; patterns are written as in Zulip's docs, e.g. %s/messages/{message_id})",
			path, APIPrefix, JSONPrefix, APIPrefix)
	}
	methods := slices.Sorted(slices.Values(s.routes.allowed[pattern]))
	if method != "" && !slices.Contains(methods, method) && !(method == http.MethodHead && slices.Contains(methods, http.MethodGet)) {
		return "", realm.BadRequest("%s %s is not an endpoint (its methods: %s)", method, path, strings.Join(methods, ", "))
	}
	return pattern, nil
}

// take returns the first fault matching req and uses one of its hits; the
// pattern and user are looked up only when a fault needs them.
func (s *Server) takeFault(req *http.Request) *Fault {
	t := &s.tc.faults
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.list) == 0 {
		return nil
	}
	var pattern string
	patternDone := false
	userID, userDone := 0, false
	for i, f := range t.list {
		if f.Method != "" && f.Method != req.Method {
			continue
		}
		if f.pattern != "" {
			if !patternDone {
				_, pattern = s.routes.paths.Handler(req)
				patternDone = true
			}
			if pattern != f.pattern {
				continue
			}
		} else if f.Path != req.URL.Path {
			continue
		}
		if f.userID != 0 {
			if !userDone {
				userID = s.requestUser(req)
				userDone = true
			}
			if userID != f.userID {
				continue
			}
		}
		hit := *f
		if f.Count > 0 {
			f.Count--
			if f.Count == 0 {
				t.list = slices.Delete(t.list, i, i+1)
			}
		}
		return &hit
	}
	return nil
}

// requestUser is the user whose credentials req carries, or 0.
func (s *Server) requestUser(req *http.Request) int {
	auth := s.authenticate
	if strings.HasPrefix(req.URL.Path, JSONPrefix+"/") {
		auth = s.authenticateSession
	}
	actor, err := auth(req)
	if err != nil {
		return 0
	}
	return actor.UserID()
}

// applyFault answers req with the first fault it matches, if any; it
// reports whether the request has been dealt with (a delay fault serves it
// afterwards, so it reports false unless the client went away), and
// returns the request to serve (a timeout fault's is limited to its
// first batch).
func (s *Server) applyFault(w http.ResponseWriter, req *http.Request, info *requestInfo) (*http.Request, bool) {
	f := s.takeFault(req)
	if f == nil {
		return req, false
	}
	info.faultID = f.ID
	if f.Timeout {
		return req.WithContext(realm.FirstBatchOnly(req.Context())), false
	}
	if f.Delay == 0 {
		// Answered here, before the handler: the log entry still says
		// who sent what.
		if info.userID == 0 {
			info.userID = s.requestUser(req)
		}
		if p, err := parseParams(req); err == nil {
			info.params = p
		}
	}
	switch {
	case f.Drop:
		info.dropped = true
		dropConnection(w)
	case f.Delay > 0:
		return req, !sleepCtx(req.Context(), f.Delay)
	default:
		writeFaultError(w, f)
	}
	return req, true
}

// writeFaultError writes a fault's error answer in Zulip's error shape.
func writeFaultError(w http.ResponseWriter, f *Fault) {
	body := map[string]any{"result": "error", "code": f.Code, "msg": f.Msg}
	if f.RetryAfter > 0 || f.Status == http.StatusTooManyRequests {
		body["retry-after"] = f.RetryAfter
		w.Header().Set("Retry-After", pythonFloat(f.RetryAfter))
	}
	writeJSON(w, f.Status, body)
}

// pythonFloat writes v as Python's str(float) does ("2.0", "0.5"), as
// Zulip's Retry-After header carries it.
func pythonFloat(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// dropConnection closes the client's connection without an answer.
func dropConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// Not hijackable (HTTP/2, a recorder): abort the response, which
		// net/http does by resetting the stream or closing the connection.
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close()
}

// sleepCtx waits d of real time, as network latency would be; it reports
// false when ctx ends first.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// postFault answers POST /minizulip/faults.
func (s *Server) postFault(_ *http.Request, p *params) (any, error) {
	var f Fault
	var err error
	f.Method, _ = p.str("method")
	if f.Path, err = p.mustStr("path"); err != nil {
		return nil, err
	}
	f.User, _ = p.str("user")
	count, set, err := p.optInt("count")
	if err != nil {
		return nil, err
	}
	if set && count == 0 {
		return nil, realm.BadRequest("count must be a positive number of requests, or -1 for every request until cleared")
	}
	f.Count = count
	if f.Status, _, err = p.optInt("status"); err != nil {
		return nil, err
	}
	f.Code, _ = p.str("code")
	f.Msg, _ = p.str("msg")
	if f.RetryAfter, _, err = p.optFloat("retry_after"); err != nil {
		return nil, err
	}
	delay, set, err := p.optInt("delay_ms")
	if err != nil {
		return nil, err
	}
	if set && delay <= 0 {
		return nil, realm.BadRequest("delay_ms must be between 1 and %d", maxFaultDelay.Milliseconds())
	}
	f.Delay = time.Duration(min(delay, int(maxFaultDelay.Milliseconds())+1)) * time.Millisecond
	if f.Drop, err = p.optBool("drop", false); err != nil {
		return nil, err
	}
	if f.Timeout, err = p.optBool("timeout", false); err != nil {
		return nil, err
	}
	id, err := s.AddFault(f)
	if err != nil {
		return nil, err
	}
	return map[string]any{"fault_id": id}, nil
}

// listFaults answers GET /minizulip/faults.
func (s *Server) listFaults(*http.Request, *params) (any, error) {
	return map[string]any{"faults": s.Faults()}, nil
}

// clearFaults answers DELETE /minizulip/faults.
func (s *Server) clearFaults(*http.Request, *params) (any, error) {
	s.ClearFaults()
	return nil, nil
}

// deleteFault answers DELETE /minizulip/faults/{fault_id}.
func (s *Server) deleteFault(req *http.Request, _ *params) (any, error) {
	raw := req.PathValue("fault_id")
	id, err := strconv.Atoi(raw)
	if err != nil || !s.ClearFault(id) {
		return nil, realm.BadRequest("No active fault %q", raw)
	}
	return nil, nil
}
