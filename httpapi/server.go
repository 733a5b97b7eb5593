// Package httpapi is the HTTP adapter of minizulip: it decodes Zulip API
// requests, authenticates them, calls one realm method and encodes the
// result or the error. No business rule lives here.
package httpapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/minizulip/minizulip/realm"
)

// APIPrefix is the path prefix of every API route.
const APIPrefix = "/api/v1"

// JSONPrefix serves the same routes to browser sessions (cookie login,
// CSRF token on unsafe methods), as Zulip's web app uses them.
const JSONPrefix = "/json"

// Server serves the Zulip HTTP API of one realm. It is an http.Handler.
type Server struct {
	realm *realm.Realm
	// routes is the routing table, shared by every Server (router.go).
	routes  *router
	devMode bool
	// sessions are the browser logins of /json routes.
	sessions sessionStore
	// allowedHosts, when set, are the Host names served (WithAllowedHosts).
	allowedHosts map[string]bool
	// logger, when set, logs every request (WithLogger).
	logger *slog.Logger
	// tc is the test-control layer under /minizulip/ (control.go).
	tc testControl
	// bodyIdle and bodySlowAfter pace request bodies (bodies.go):
	// BodyIdleTimeout and BodyReadTimeout, shorter in tests.
	bodyIdle, bodySlowAfter time.Duration
	// ui serves the web pages (WithWebUI, webui.go).
	ui bool
}

// Option configures a Server.
type Option func(*Server)

// WithDevEndpoints turns the dev-server-only endpoints (dev_fetch_api_key,
// dev_list_users) on or off. On by default; when off they answer as a
// production server does, 400 "Endpoint not available in production.".
func WithDevEndpoints(on bool) Option { return func(s *Server) { s.devMode = on } }

// New returns the API server of r.
func New(r *realm.Realm, opts ...Option) *Server {
	s := &Server{realm: r, routes: sharedRouter(), devMode: true, bodyIdle: BodyIdleTimeout, bodySlowAfter: BodyReadTimeout}
	for _, o := range opts {
		o(s)
	}
	s.setUpControl()
	return s
}

// Endpoint is one route the server serves: a method and a path below
// /api/v1 (and /json, unless APIOnly), in Zulip's path syntax.
type Endpoint struct {
	Method, Path string
	APIOnly      bool
}

// Endpoints lists every route the server serves, sorted by path, then
// method; README's table of endpoints is checked against it.
func (s *Server) Endpoints() []Endpoint {
	return slices.Clone(s.routes.endpoints)
}

// Realm is the realm the server serves.
func (s *Server) Realm() *realm.Realm { return s.realm }

// ServeHTTP implements http.Handler. Unknown paths get a JSON 404; known
// paths with another method a JSON 405. Paths under /minizulip/ are the
// test-control API when it is on (WithTestControl).
func (s *Server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	s.paceBody(w, req)
	if s.ui && s.serveWebUI(w, req) {
		return
	}
	if s.tc.on && strings.HasPrefix(req.URL.Path, ControlPrefix) {
		s.serveControl(w, req)
		return
	}
	s.serveTracked(w, req)
}

// serve answers a request: the host check, then the routes.
func (s *Server) serve(w http.ResponseWriter, req *http.Request) {
	if !s.hostAllowed(req) {
		writeBadHost(w)
		return
	}
	if observe := responseObserver; observe != nil {
		rec := &recordingWriter{ResponseWriter: w, status: http.StatusOK}
		s.routes.mux.ServeHTTP(rec, req)
		observe(s.realm.FeatureLevel(), req, rec.status, w.Header(), rec.body.Bytes())
		return
	}
	s.routes.mux.ServeHTTP(w, req)
}

// responseObserver, when set (by the package's contract tests), sees every
// response the servers of this package write, with the feature level the
// server advertises.
var responseObserver func(level int, req *http.Request, status int, header http.Header, body []byte)

// recordingWriter passes a response through and keeps a copy of it.
type recordingWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (w *recordingWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

func (w *recordingWriter) Write(b []byte) (int, error) {
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}

// Flush keeps long polls streaming when the underlying writer can flush.
func (w *recordingWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *recordingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// writeNotFound answers as Zulip does for a path no route takes.
func writeNotFound(w http.ResponseWriter) {
	writeJSON(w, http.StatusNotFound, map[string]any{"result": "error", "msg": "Not Found", "code": "BAD_REQUEST"})
}

// route is one endpoint: a method, a path below APIPrefix, the handler,
// and whether it needs no authentication.
type route struct {
	method string
	path   string
	h      func(c *call) (any, error)
	public bool
	// apiOnly keeps the route off /json (the dev login endpoints).
	apiOnly bool
	// sends marks the route that sends a message (Actor.SendMessage).
	// Every other route first asks the realm whether the actor may do
	// more than send (Actor.CheckAPIAccess), before reading a parameter,
	// as Zulip refuses at authentication.
	sends bool
	// rawBody leaves the body to the handler (streamed uploads): only the
	// query string is parsed into parameters.
	rawBody bool
	// spectators marks a route Zulip serves to logged-out visitors of
	// web-public channels on /json (allow_anonymous_user_web): without
	// a session its handler gets a Spectator instead of an actor.
	spectators bool
	// spectatorsSince, on a spectators route, is the change from which
	// Zulip serves it to spectators: below it a logged-out request is
	// refused as on any other route.
	spectatorsSince *realm.Change
	// overlaps marks a route whose pattern overlaps another's with
	// neither more specific (e.g. /users/me/{stream_id}/topics and
	// /users/{user_id}/subscriptions/{stream_id}), which Go's mux refuses
	// to hold together: it is served only for paths no other route takes.
	overlaps bool
	// byEmailSince, on a {user} route, is the change from which the
	// route takes an email where older servers took only a user ID:
	// below it an email answers as the older server's path did.
	byEmailSince *realm.Change
	// batched marks a route Zulip serves in batches under a time budget
	// (time_budget.go in realm): a "timeout" fault applies to it.
	batched bool
}

// call is one authenticated request being served.
type call struct {
	srv   *Server // the server the request came to
	req   *http.Request
	w     http.ResponseWriter // for the rare handler that sets cookies
	p     *params
	actor *realm.Actor // nil on public routes and for spectators
	// spectator is the logged-out visitor of a spectators route, nil
	// otherwise.
	spectator *realm.Spectator
}

func (c *call) ctx() context.Context { return c.req.Context() }

// reader is what the spectators routes read through: the realm's
// Spectator for a logged-out visitor, the Actor otherwise.
type reader interface {
	Messages(context.Context, realm.FetchRequest) (realm.FetchResult, error)
	Message(context.Context, int64, realm.ViewOptions) (realm.Message, string, error)
	ChannelTopics(context.Context, realm.ChannelTopicsRequest) ([]realm.ChannelTopic, error)
}

// reader answers who reads on a spectators route.
func (c *call) reader() reader {
	if c.spectator != nil {
		return c.spectator
	}
	return c.actor
}

// pathInt reads an integer path parameter; the pattern guarantees digits
// only in Zulip, so anything else is a 404.
func (c *call) pathInt(name string) (int, error) {
	n, err := strconv.Atoi(c.req.PathValue(name))
	if err != nil || n < 0 {
		return 0, realm.NotFound("Not Found")
	}
	return n, nil
}

// authenticate checks HTTP Basic credentials: email and API key. As in
// Zulip, the header must be exactly a scheme and one token, and the token
// exactly one "email:key" pair; another scheme is a 400, not a 401.
func (s *Server) authenticate(req *http.Request) (*realm.Actor, error) {
	h := req.Header.Get("Authorization")
	if h == "" {
		return nil, realm.Unauthorized("Not logged in: API authentication or user session required")
	}
	bad := realm.Unauthorized("Invalid authorization header for basic auth")
	scheme, token, ok := twoFields(h)
	if !ok {
		return nil, bad
	}
	if !strings.EqualFold(scheme, "basic") {
		return nil, realm.BadRequest("This endpoint requires HTTP basic authentication.")
	}
	var small [192]byte // most credentials decode without allocating
	raw := small[:0]
	if n := base64.StdEncoding.DecodedLen(len(token)); n > len(small) {
		raw = make([]byte, 0, n)
	}
	n, err := base64.StdEncoding.Decode(raw[:cap(raw)], []byte(token))
	raw = raw[:n]
	if err != nil || !utf8.Valid(raw) {
		return nil, bad
	}
	colon := bytes.IndexByte(raw, ':')
	if colon < 0 || bytes.LastIndexByte(raw, ':') != colon {
		return nil, bad
	}
	return s.realm.Authenticate(string(bytes.TrimSpace(raw[:colon])), string(bytes.TrimSpace(raw[colon+1:])))
}

// twoFields splits h as strings.Fields does and reports whether it holds
// exactly two fields.
func twoFields(h string) (first, second string, ok bool) {
	h = strings.TrimSpace(h)
	i := strings.IndexFunc(h, unicode.IsSpace)
	if i < 0 {
		return "", "", false
	}
	first, second = h[:i], strings.TrimLeftFunc(h[i:], unicode.IsSpace)
	if second == "" || strings.IndexFunc(second, unicode.IsSpace) >= 0 {
		return "", "", false
	}
	return first, second, true
}

// idWildcards lists a path pattern's wildcards that name ids ({message_id},
// {user_id}…): Zulip's routes match only digits there.
func idWildcards(pattern string) []string {
	var names []string
	for rest := pattern; ; {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			return names
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return names
		}
		if name := strings.TrimSuffix(rest[i+1:i+j], "..."); strings.HasSuffix(name, "_id") {
			names = append(names, name)
		}
		rest = rest[i+j+1:]
	}
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
