package httpapi

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

// RequestLogSize is how many recent requests the request log keeps.
const RequestLogSize = 1000

// RequestRecord is one served request of the Zulip API in the request log.
type RequestRecord struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// UserID is the authenticated user, 0 for none, and User their email.
	UserID int    `json:"user_id"`
	User   string `json:"user,omitempty"`
	// Status is the HTTP status answered, 0 for a dropped connection.
	Status int `json:"status"`
	// Duration is the real time the request took.
	Duration time.Duration `json:"-"`
	// FaultID is the injected fault that hit the request, 0 for none.
	FaultID int  `json:"fault_id,omitempty"`
	Dropped bool `json:"dropped,omitempty"`
}

// MarshalJSON encodes the record with the duration in milliseconds.
func (r RequestRecord) MarshalJSON() ([]byte, error) {
	type plain RequestRecord
	return json.Marshal(struct {
		plain
		DurationMS float64 `json:"duration_ms"`
	}{plain(r), float64(r.Duration.Microseconds()) / 1000})
}

// requestLog is a ring buffer of the last RequestLogSize requests.
type requestLog struct {
	mu   sync.Mutex
	ring []RequestRecord
	next int // where the next record goes once the ring is full
}

func (l *requestLog) add(r RequestRecord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.ring) < RequestLogSize {
		l.ring = append(l.ring, r)
		return
	}
	l.ring[l.next] = r
	l.next = (l.next + 1) % RequestLogSize
}

// Requests returns the recent requests of the Zulip API, oldest first:
// at most RequestLogSize, not counting those of the control API.
func (s *Server) Requests() []RequestRecord {
	l := &s.tc.requests
	l.mu.Lock()
	out := make([]RequestRecord, 0, len(l.ring))
	out = append(out, l.ring[l.next:]...)
	out = append(out, l.ring[:l.next]...)
	l.mu.Unlock()
	emails := map[int]string{}
	for i, r := range out {
		if r.UserID == 0 {
			continue
		}
		email, ok := emails[r.UserID]
		if !ok {
			email, _ = s.realm.UserEmail(r.UserID)
			emails[r.UserID] = email
		}
		out[i].User = email
	}
	return out
}

// ClearRequests empties the request log.
func (s *Server) ClearRequests() {
	l := &s.tc.requests
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ring, l.next = nil, 0
}

// listRequests answers GET /minizulip/requests.
func (s *Server) listRequests(*http.Request, *params) (any, error) {
	return map[string]any{"requests": s.Requests()}, nil
}

// clearRequests answers DELETE /minizulip/requests.
func (s *Server) clearRequests(*http.Request, *params) (any, error) {
	s.ClearRequests()
	return nil, nil
}
