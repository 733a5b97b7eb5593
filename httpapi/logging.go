package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"time"
)

// WithLogger logs every request to l: method, path, user, status and
// duration, at Info level (Warn for 5xx). Without it nothing is logged.
func WithLogger(l *slog.Logger) Option { return func(s *Server) { s.logger = l } }

// requestInfo collects what the log line of a request needs from deeper
// down the handler (the authenticated user).
type requestInfo struct{ userID int }

type requestInfoKey struct{}

// noteUser records the authenticated user of the request, for its log line.
func noteUser(req *http.Request, userID int) {
	if info, ok := req.Context().Value(requestInfoKey{}).(*requestInfo); ok {
		info.userID = userID
	}
}

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
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

// serveLogged serves req through next and logs it.
func (s *Server) serveLogged(w http.ResponseWriter, req *http.Request, next http.Handler) {
	start := time.Now()
	info := &requestInfo{}
	req = req.WithContext(context.WithValue(req.Context(), requestInfoKey{}, info))
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	next.ServeHTTP(sw, req)
	level := slog.LevelInfo
	if sw.status >= 500 {
		level = slog.LevelWarn
	}
	s.logger.LogAttrs(req.Context(), level, "request",
		slog.String("method", req.Method), slog.String("path", req.URL.Path),
		slog.Int("user", info.userID), slog.Int("status", sw.status),
		slog.Duration("duration", time.Since(start)))
}
