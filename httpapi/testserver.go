package httpapi

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/realm/clock"
)

// TestServer is a running minizulip on a loopback port: the dev realm
// behind the Zulip HTTP API, for client test suites.
type TestServer struct {
	// URL is the server's base URL, also the realm URL (realm_uri); the API
	// is below URL + "/api/v1".
	URL string
	// Realm is the live realm: seed data, move its clock, inspect state.
	Realm *realm.Realm
	// API is the HTTP handler the server runs.
	API *Server

	httpServer *http.Server
	done       chan struct{}
	cancel     context.CancelFunc // ends requests in flight, long polls included
	// check runs once the server is closed, and checked is what it says
	// went wrong, "" for nothing (checkedTestRealm).
	check   func() string
	checked string
}

// checkedTestRealm, when set (by this package's tests), makes a
// TestServer's realm, with a check to run once the server is closed.
var checkedTestRealm func(opts []realm.Option) (*realm.Realm, func() string)

// Credentials are one user's API credentials.
type Credentials struct {
	Email  string
	APIKey string
	UserID int
}

// Tester is the part of *testing.T (or testing.TB) that RunT uses. Taking
// it instead of *testing.T keeps the testing package out of programs that
// embed the server.
type Tester interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// RunOption configures a TestServer started by RunT or Run: a
// realm.Option (the realm: clock, feature level, seed…) or an Option (the
// server: WithStrict, WithLogger, WithTestControl…), in any mix and order.
// Any other value is refused: RunT fails the test, Run returns an error.
type RunOption = any

// RunT starts a TestServer for a test and closes it when the test ends.
// opts are realm and server options (RunOption). Like realm.New, and
// unlike the standalone server (-messages 100), the dev realm starts with
// no messages unless realm.WithSeededMessages says how many.
func RunT(t Tester, opts ...RunOption) *TestServer {
	t.Helper()
	ts, err := Run(opts...)
	if err != nil {
		t.Fatalf("minizulip: %v", err)
	}
	t.Cleanup(func() {
		ts.Close()
		if ts.checked != "" {
			t.Fatalf("%s", ts.checked)
		}
	})
	return ts
}

// Run starts a TestServer on 127.0.0.1 with a free port, configured by
// realm and server options (RunOption). Close it when done.
func Run(opts ...RunOption) (*TestServer, error) {
	realmOpts, serverOpts, err := splitRunOptions(opts)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	return serve(ln, realmOpts, serverOpts), nil
}

// splitRunOptions sorts RunT's options into the realm's and the server's.
func splitRunOptions(opts []RunOption) ([]realm.Option, []Option, error) {
	var realmOpts []realm.Option
	var serverOpts []Option
	for i, o := range opts {
		switch o := o.(type) {
		case realm.Option:
			realmOpts = append(realmOpts, o)
		case func(*realm.Options):
			realmOpts = append(realmOpts, o)
		case Option:
			serverOpts = append(serverOpts, o)
		case func(*Server):
			serverOpts = append(serverOpts, o)
		default:
			return nil, nil, fmt.Errorf("option %d is a %T, neither a realm.Option nor an httpapi.Option", i+1, o)
		}
	}
	return realmOpts, serverOpts, nil
}

// Serve runs a TestServer on an existing listener, which it takes over; the
// realm URL is http:// and the listener's address. Unless opts choose a
// clock, the realm runs on an offset clock (clock.Offset): real time, which the test (or
// POST /minizulip/clock) can move ahead.
func Serve(ln net.Listener, opts ...realm.Option) *TestServer {
	return serve(ln, opts, nil)
}

// serve is Serve with server options.
func serve(ln net.Listener, opts []realm.Option, serverOpts []Option) *TestServer {
	base := "http://" + ln.Addr().String()
	all := append([]realm.Option{realm.WithClock(clock.NewOffset()), realm.WithURL(base),
		realm.WithOutgoingWebhookCaller(NewServiceCaller(nil))}, opts...)
	var r *realm.Realm
	var check func() string
	if checkedTestRealm != nil {
		r, check = checkedTestRealm(all)
	} else {
		r = realm.New(all...)
	}
	api := New(r, serverOpts...)
	srv, cancel := NewHTTPServer(api)
	ts := &TestServer{URL: base, Realm: r, API: api, httpServer: srv, cancel: cancel, done: make(chan struct{}), check: check}
	go func() {
		defer close(ts.done)
		_ = srv.Serve(ln) // returns http.ErrServerClosed on Close
	}()
	return ts
}

// Close stops the server at once, ending open long polls. Closing twice is
// harmless.
func (ts *TestServer) Close() {
	ts.cancel()
	_ = ts.httpServer.Close()
	<-ts.done
	ts.API.CloseRealms()
	if check := ts.check; check != nil {
		ts.check = nil
		ts.checked = check()
	}
}

// NewHTTPServer wraps an API handler in an http.Server whose requests
// derive from a context that cancel ends: call it before Shutdown so that
// shutting down does not wait for long polls to time out.
func NewHTTPServer(h http.Handler) (srv *http.Server, cancel context.CancelFunc) {
	base, cancel := context.WithCancel(context.Background())
	readTimeout := BodyIdleTimeout
	if s, ok := h.(*Server); ok {
		readTimeout = s.bodyIdle
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		// The body's first bytes must come within ReadTimeout, which each
		// read of it then moves ahead (bodies.go): a stalled body cannot
		// pin a connection, nor one its handler never reads; a large
		// upload that keeps sending goes on. Long polls only write.
		ReadTimeout: readTimeout,
		IdleTimeout: 2 * time.Minute,
		BaseContext: func(net.Listener) context.Context { return base },
	}, cancel
}

// Creds returns a user's credentials by email (delivery or API address,
// any case); Email is the address as given. It returns zero Credentials
// for an unknown email.
func (ts *TestServer) Creds(email string) Credentials {
	id, key, ok := ts.Realm.APIKey(email)
	if !ok {
		return Credentials{}
	}
	return Credentials{Email: email, APIKey: key, UserID: id}
}

// Client returns an HTTP client that sends email's credentials (HTTP
// Basic) with every request that has no Authorization header of its own.
// An unknown email gives a client without credentials.
func (ts *TestServer) Client(email string) *http.Client {
	return &http.Client{Transport: basicAuthTransport{creds: ts.Creds(email), next: http.DefaultTransport}}
}

type basicAuthTransport struct {
	creds Credentials
	next  http.RoundTripper
}

func (t basicAuthTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.creds.APIKey == "" || req.Header.Get("Authorization") != "" {
		return t.next.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	req.SetBasicAuth(t.creds.Email, t.creds.APIKey)
	return t.next.RoundTrip(req)
}

// NewRequest builds an authenticated API request as email: form values go
// in the query string for GET and HEAD and in a urlencoded body otherwise.
// path is below /api/v1 (e.g. "/users/me"). An unknown email gives a
// request without credentials.
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
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		panic("minizulip: bad request: " + err.Error()) // method or path is malformed
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if c := ts.Creds(email); c.APIKey != "" {
		req.SetBasicAuth(c.Email, c.APIKey)
	}
	return req
}
