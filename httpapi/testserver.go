package httpapi

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
)

// TestServer is a running minizulip on a loopback port: the dev realm
// behind the Zulip HTTP API, for client test suites.
type TestServer struct {
	// URL is the server's base URL (the API is below URL + "/api/v1").
	URL string
	// Realm is the live realm: seed data, move its clock, inspect state.
	Realm *realm.Realm
	// API is the HTTP handler the server runs.
	API *Server

	httpServer *http.Server
	listener   net.Listener
	done       chan struct{}
	cancel     context.CancelFunc // ends requests in flight, long polls included
}

// Credentials are one user's API credentials.
type Credentials struct {
	Email  string
	APIKey string
	UserID int
}

// RunT starts a TestServer for a test and closes it when the test ends.
// Options configure the realm (clock, feature level, seed…).
func RunT(t testing.TB, opts ...realm.Option) *TestServer {
	t.Helper()
	ts, err := Run(opts...)
	if err != nil {
		t.Fatalf("minizulip: %v", err)
	}
	t.Cleanup(ts.Close)
	return ts
}

// Run starts a TestServer on 127.0.0.1 with a free port. Close it when done.
func Run(opts ...realm.Option) (*TestServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	return Serve(ln, opts...), nil
}

// Serve runs a TestServer on an existing listener; the realm URL is the
// listener's address.
func Serve(ln net.Listener, opts ...realm.Option) *TestServer {
	base := "http://" + ln.Addr().String()
	r := realm.New(append([]realm.Option{realm.WithURL(base)}, opts...)...)
	api := New(r)
	ts := &TestServer{URL: base, Realm: r, API: api, listener: ln, done: make(chan struct{})}
	ts.httpServer = NewHTTPServer(api, &ts.cancel)
	go func() {
		defer close(ts.done)
		if err := ts.httpServer.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = err // the listener failed; Close still returns cleanly
		}
	}()
	return ts
}

// Close stops the server, ending open long polls. Closing twice is harmless.
func (ts *TestServer) Close() {
	ts.cancel()
	_ = ts.httpServer.Close()
	<-ts.done
}

// NewHTTPServer wraps an API handler in an http.Server whose requests
// derive from a context that *cancel ends, so that shutting down does not
// wait for long polls to time out.
func NewHTTPServer(h http.Handler, cancel *context.CancelFunc) *http.Server {
	base, stop := context.WithCancel(context.Background())
	*cancel = stop
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return base },
	}
}

// Creds returns a user's credentials by email (delivery or API address).
// It returns zero Credentials for an unknown email.
func (ts *TestServer) Creds(email string) Credentials {
	id, key, ok := ts.Realm.APIKey(email)
	if !ok {
		return Credentials{}
	}
	return Credentials{Email: email, APIKey: key, UserID: id}
}

// NewRequest builds an authenticated API request as email: form values go
// in the query string for GET and in a urlencoded body otherwise. path is
// below /api/v1 (e.g. "/users/me").
func (ts *TestServer) NewRequest(email, method, path string, form url.Values) *http.Request {
	target := ts.URL + APIPrefix + path
	var body io.Reader
	if method == http.MethodGet || method == http.MethodHead {
		if len(form) > 0 {
			target += "?" + form.Encode()
		}
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, target, body)
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if c := ts.Creds(email); c.APIKey != "" {
		req.SetBasicAuth(c.Email, c.APIKey)
	}
	return req
}
