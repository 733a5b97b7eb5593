package httpapi

import (
	"log/slog"
	"net/http"
	"time"
)

// WithLogger logs every request to l: method, path, user, status and
// duration, at Info level (Warn for 5xx). Without it nothing is logged.
// Requests of the test-control API (/minizulip/) are not logged.
func WithLogger(l *slog.Logger) Option { return func(s *Server) { s.logger = l } }

// requestInfo collects what the log line of a request needs from deeper
// down the handler (the authenticated user).
type requestInfo struct {
	userID int
	// faultID is the injected fault that answered the request, if any.
	faultID int
	// dropped: the connection was closed without an answer (a drop fault).
	dropped bool
	// params are the request's parameters once parsed, for the request
	// log; queueID the event queue a register created.
	params  *params
	queueID string
}

// noteUser records the authenticated user of the request, for its log
// line: w is the writer serveTracked handed down, or one wrapping it.
func noteUser(w http.ResponseWriter, userID int) {
	if sw := trackerOf(w); sw != nil {
		sw.info.userID = userID
	}
}

// noteParams records the request's parameters for its log entry.
func noteParams(w http.ResponseWriter, p *params) {
	if sw := trackerOf(w); sw != nil {
		sw.info.params = p
	}
}

// noteQueue records the event queue a request created, for its log entry.
func noteQueue(w http.ResponseWriter, queueID string) {
	if sw := trackerOf(w); sw != nil {
		sw.info.queueID = queueID
	}
}

// trackerOf finds the statusWriter below w, or nil.
func trackerOf(w http.ResponseWriter) *statusWriter {
	for {
		switch ww := w.(type) {
		case *statusWriter:
			return ww
		case interface{ Unwrap() http.ResponseWriter }:
			w = ww.Unwrap()
		default:
			return nil
		}
	}
}

// serverOf is the Server a request came to, from the writer its
// ServeHTTP gave the router.
func serverOf(w http.ResponseWriter) *Server {
	return trackerOf(w).server
}

// statusWriter remembers the status a handler wrote, and carries the
// Server the request came to (for the shared router's handlers) and what
// the request's log line needs: the writer goes down the handlers anyway,
// so the request need not be copied to carry them in its context.
type statusWriter struct {
	http.ResponseWriter
	server *Server
	status int
	info   requestInfo
}

func (w *statusWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

// Flush keeps long polls streaming when the underlying writer can flush.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the connection (a drop fault
// hijacks it).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// serveTracked serves a request of the Zulip API and accounts for it: the
// request log (Requests), the slog logger when set (WithLogger). Injected
// faults (faults.go) apply here, before the routes.
func (s *Server) serveTracked(w http.ResponseWriter, req *http.Request) {
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w, server: s, status: http.StatusOK}
	info := &sw.info
	// A drop fault may end the handler with http.ErrAbortHandler; the
	// request is accounted for all the same.
	defer func() { s.account(req, info, sw.status, time.Since(start)) }()
	if !s.hostAllowed(req) {
		writeBadHost(sw)
		return
	}
	req, answered := s.applyFault(sw, req, info)
	if answered {
		return
	}
	s.serve(sw, req)
}

// account records a served request in the request log and the logger.
func (s *Server) account(req *http.Request, info *requestInfo, status int, d time.Duration) {
	if info.dropped {
		status = 0
	}
	s.tc.requests.add(requestRecord(req, info, status, d))
	if s.logger == nil {
		return
	}
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelWarn
	}
	s.logger.LogAttrs(req.Context(), level, "request",
		slog.String("method", req.Method), slog.String("path", req.URL.Path),
		slog.Int("user", info.userID), slog.Int("status", status),
		slog.Duration("duration", d))
}
