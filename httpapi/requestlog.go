package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// RequestLogSize is how many recent requests the request log keeps.
const RequestLogSize = 1000

// RequestRecord is one served request of the Zulip API in the request log.
type RequestRecord struct {
	// ID numbers the requests from 1 in the order they were logged; it
	// keeps counting when the log is cleared, so a since_id stays valid.
	ID     int64  `json:"id"`
	Method string `json:"method"`
	Path   string `json:"path"`
	// UserID is the authenticated user, 0 for none, and User their email;
	// a request a fault answered still names whose credentials it carried.
	UserID int    `json:"user_id"`
	User   string `json:"user,omitempty"`
	// Status is the HTTP status answered, 0 for a dropped connection.
	Status int `json:"status"`
	// Duration is the real time the request took.
	Duration time.Duration `json:"-"`
	// FaultID is the injected fault that hit the request, 0 for none.
	FaultID int  `json:"fault_id,omitempty"`
	Dropped bool `json:"dropped,omitempty"`
	// Params are the request's parameters (query string and form body)
	// as received, name to value, with API keys and passwords shown as
	// RedactedValue and uploaded files as "[file NAME, N bytes]".
	Params map[string]string `json:"params"`
	// UserAgent is the User-Agent header, and Client the client name Zulip
	// derives from the `client` parameter or that header.
	UserAgent string `json:"user_agent"`
	Client    string `json:"client"`
	// QueueID is the event queue the request names (GET and DELETE
	// /events) or registered (POST /register); empty for others.
	QueueID string `json:"queue_id,omitempty"`
}

// RedactedValue stands for a secret parameter's value in the request log.
const RedactedValue = "[redacted]"

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
	mu     sync.Mutex
	ring   []RequestRecord
	next   int   // where the next record goes once the ring is full
	lastID int64 // the ID of the latest record
	// added is closed when a record is added, waking WaitRequest; nil
	// when no one waits.
	added chan struct{}
}

func (l *requestLog) add(r RequestRecord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lastID++
	r.ID = l.lastID
	if l.added != nil {
		close(l.added)
		l.added = nil
	}
	if len(l.ring) < RequestLogSize {
		l.ring = append(l.ring, r)
		return
	}
	l.ring[l.next] = r
	l.next = (l.next + 1) % RequestLogSize
}

// records copies the log, oldest first; the caller holds l.mu.
func (l *requestLog) records() []RequestRecord {
	out := make([]RequestRecord, 0, len(l.ring))
	out = append(out, l.ring[l.next:]...)
	return append(out, l.ring[:l.next]...)
}

// Requests returns the recent requests of the Zulip API, oldest first:
// at most RequestLogSize, not counting those of the control API.
func (s *Server) Requests() []RequestRecord {
	l := &s.tc.requests
	l.mu.Lock()
	out := l.records()
	l.mu.Unlock()
	return s.withEmails(out)
}

// withEmails fills in the User of each record.
func (s *Server) withEmails(out []RequestRecord) []RequestRecord {
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

// ClearRequests empties the request log. IDs go on from where they were.
func (s *Server) ClearRequests() {
	l := &s.tc.requests
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ring, l.next = nil, 0
}

// Bounds of what the request log keeps of one request's parameters, so
// that its RequestLogSize entries stay within a few dozen MiB whatever
// the requests carry: a value past LoggedValueMax bytes, or past the
// request's LoggedParamsMax, is cut short and marked.
const (
	LoggedValueMax  = 16 << 10
	LoggedParamsMax = 64 << 10
)

// loggedParams is what the request log keeps of a request's parameters:
// every value as received, secrets redacted, files by name and size,
// long values cut (LoggedValueMax, LoggedParamsMax).
func loggedParams(p *params) map[string]string {
	out := map[string]string{}
	if p == nil {
		return out
	}
	budget := LoggedParamsMax
	for _, f := range p.fields {
		if secretParam(f.name) {
			out[f.name] = RedactedValue
			continue
		}
		v := cutValue(f.value, min(LoggedValueMax, max(budget, 0)))
		budget -= len(f.name) + len(v)
		out[f.name] = v
	}
	for name, files := range p.files {
		if len(files) > 0 {
			fh := files[len(files)-1]
			out[name] = fmt.Sprintf("[file %s, %d bytes]", fh.Filename, fh.Size)
		}
	}
	return out
}

// cutValue is v, or its first bytes (whole UTF-8 characters, at most
// limit) and a mark saying how long it was.
func cutValue(v string, limit int) string {
	if len(v) <= limit {
		return v
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return v[:cut] + fmt.Sprintf("…[cut: %d bytes in all]", len(v))
}

// secretParam reports whether a parameter holds a credential the request
// log must not show: an API key, a password (fetch_api_key's password,
// PATCH /settings' old_password and new_password…) or a CSRF token.
func secretParam(name string) bool {
	name = strings.ToLower(name)
	for _, secret := range []string{"password", "api_key", "secret", "csrf"} {
		if strings.Contains(name, secret) {
			return true
		}
	}
	return false
}

// requestRecord is the log entry of a served request.
func requestRecord(req *http.Request, info *requestInfo, status int, d time.Duration) RequestRecord {
	p := info.params
	if p == nil {
		p, _ = parseQuery(req) // a request no handler parsed: its query string
	}
	rec := RequestRecord{Method: req.Method, Path: req.URL.Path, UserID: info.userID,
		Status: status, Duration: d, FaultID: info.faultID, Dropped: info.dropped,
		Params: loggedParams(p), UserAgent: req.UserAgent(), QueueID: info.queueID}
	var clientParam string
	if p != nil {
		if i := p.find("client"); i >= 0 {
			clientParam = p.fields[i].value
		}
		if i := p.find("queue_id"); i >= 0 && rec.QueueID == "" {
			rec.QueueID = p.fields[i].value
		}
	}
	rec.Client = clientName(clientParam, req)
	return rec
}
