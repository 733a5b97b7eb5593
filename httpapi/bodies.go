package httpapi

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/minizulip/minizulip/realm"
)

// The pace a request body must keep. A connection whose body stops
// arriving holds a file descriptor; these bound how long, so that stalled
// clients cannot use up the server's descriptors, while a large upload
// that keeps sending may take as long as it needs.
const (
	// BodyIdleTimeout is how long a request body may send nothing before
	// it is cut off with a 408. It is also the http.Server's ReadTimeout
	// (NewHTTPServer): headers and the start of the body arrive within
	// it, and every read of the body then starts it anew.
	BodyIdleTimeout = 15 * time.Second
	// BodyReadTimeout is how long a body may take without keeping a pace:
	// one still arriving after it must have averaged MinBodyRate, or it is
	// cut off with a 408 (a trickle of a byte now and then would otherwise
	// never stall).
	BodyReadTimeout = 2 * time.Minute
	// MinBodyRate is the average a body taking longer than
	// BodyReadTimeout must keep, in bytes per second.
	MinBodyRate = 1 << 10
)

// pacedBody is a request body cut off when it stops arriving: each read
// sets the connection's read deadline BodyIdleTimeout ahead, and past
// BodyReadTimeout a body below MinBodyRate on average fails. Its errors
// are *realm.Error 408s, which the realm passes on (uploads) and
// parseParams answers with.
type pacedBody struct {
	io.ReadCloser
	rc        *http.ResponseController
	idle      time.Duration
	slowAfter time.Duration
	start     time.Time
	read      int64
	err       error // once cut off
}

// paceBody wraps req's body, if it has one, in a pacedBody.
func (s *Server) paceBody(w http.ResponseWriter, req *http.Request) {
	if req.Body == nil || req.Body == http.NoBody {
		return
	}
	req.Body = &pacedBody{ReadCloser: req.Body, rc: http.NewResponseController(w),
		idle: s.bodyIdle, slowAfter: s.bodySlowAfter, start: time.Now()}
}

func (b *pacedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	now := time.Now()
	if elapsed := now.Sub(b.start); elapsed > b.slowAfter && float64(b.read) < elapsed.Seconds()*MinBodyRate {
		b.err = bodyTooSlow(b.slowAfter)
		return 0, b.err
	}
	// Without a deadline to set (a wrapped writer), the server's own
	// timeouts apply.
	_ = b.rc.SetReadDeadline(now.Add(b.idle))
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		b.err = bodyStalled(b.idle)
		err = b.err
	}
	return n, err
}

// bodyStalled answers a body that sent nothing for idle, with the status
// Zulip's nginx gives (client_body_timeout).
func bodyStalled(idle time.Duration) *realm.Error {
	return &realm.Error{Code: realm.CodeBadRequest, Status: http.StatusRequestTimeout,
		Msg: fmt.Sprintf("Request body timed out: nothing arrived for %v", idle)}
}

// bodyTooSlow answers a body still arriving after slowAfter below
// MinBodyRate.
func bodyTooSlow(slowAfter time.Duration) *realm.Error {
	return &realm.Error{Code: realm.CodeBadRequest, Status: http.StatusRequestTimeout,
		Msg: fmt.Sprintf("Request body too slow: still arriving after %v at under %d bytes a second", slowAfter, MinBodyRate)}
}
