package httpapi

import (
	"encoding/json"
	"io"
	"math"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/minizulip/minizulip/realm"
)

// ControlPrefix is the path prefix of the test-control API: the clock,
// injected faults, queue expiry, the request log, the record of
// unsupported requests, snapshots, reset, the fixture dump, push records,
// and the outbox and its confirmation links. It is never below Zulip's
// own paths.
const ControlPrefix = "/minizulip/"

// testControl is the state of the test-control layer of a Server.
type testControl struct {
	on  bool
	set bool // WithTestControl was given; otherwise on follows devMode
	// strict refuses requests to unimplemented endpoints or with ignored
	// parameters (WithStrict).
	strict      bool
	faults      faultTable
	requests    requestLog
	unsupported unsupportedLog
	snapshots   snapshotTable
	// page, when set, is served to browsers at GET /minizulip/
	// (WithControlPage).
	page http.Handler
	// realms are the realms created by POST /minizulip/realms
	// (WithRealms); nil when the server creates none.
	realms *realmPool
}

// WithTestControl serves the test-control API under /minizulip/ (on) or
// not (off: those paths answer 404 as any unknown path). Without this
// option it follows WithDevEndpoints: on for a dev server, off for a
// production-mode one. The Go methods (AddFault, Requests, Unsupported…)
// work either way.
func WithTestControl(on bool) Option {
	return func(s *Server) { s.tc.on, s.tc.set = on, true }
}

// WithStrict makes requests the server does not fully support fail loudly
// with a 400 naming what is unsupported: an endpoint it does not
// implement, or parameters it ignored. Such requests are recorded either
// way (Unsupported). A request refused for its parameters has been
// carried out first, as the handler is what finds them unread.
func WithStrict(on bool) Option { return func(s *Server) { s.tc.strict = on } }

// controlRoute is one endpoint of the test-control API: the parameters it
// takes (any other is refused before the handler runs) and its handler.
type controlRoute struct {
	method, path string
	params       []string
	h            func(s *Server, req *http.Request, p *params) (any, error)
}

// controlRoutes lists the test-control API.
func controlRoutes() []controlRoute {
	return []controlRoute{
		{"GET", controlIndexPath, nil, (*Server).controlIndex},
		{"GET", "/minizulip/clock", nil, (*Server).getClock},
		{"POST", "/minizulip/clock", []string{"advance", "now"}, (*Server).moveClock},
		{"POST", "/minizulip/faults", faultParams, (*Server).postFault},
		{"GET", "/minizulip/faults", nil, (*Server).listFaults},
		{"DELETE", "/minizulip/faults", nil, (*Server).clearFaults},
		{"DELETE", "/minizulip/faults/{fault_id}", nil, (*Server).deleteFault},
		{"GET", "/minizulip/queues", []string{"user"}, (*Server).listQueues},
		{"POST", "/minizulip/queues/{queue_id}/expire", nil, (*Server).expireQueue},
		{"POST", "/minizulip/restart", nil, (*Server).announceRestart},
		{"GET", "/minizulip/unsupported", nil, (*Server).listUnsupported},
		{"DELETE", "/minizulip/unsupported", nil, (*Server).clearUnsupported},
		{"GET", "/minizulip/requests", requestFilterParams, (*Server).listRequests},
		{"GET", "/minizulip/requests/wait", waitParams, (*Server).waitRequest},
		{"DELETE", "/minizulip/requests", nil, (*Server).clearRequests},
		{"POST", "/minizulip/snapshots", nil, (*Server).postSnapshot},
		{"GET", "/minizulip/snapshots", nil, (*Server).listSnapshots},
		{"POST", "/minizulip/snapshots/{snapshot_id}/restore", nil, (*Server).restoreSnapshot},
		{"DELETE", "/minizulip/snapshots/{snapshot_id}", nil, (*Server).deleteSnapshot},
		{"POST", "/minizulip/reset", nil, (*Server).resetRealm},
		{"POST", "/minizulip/realms", realmParams, (*Server).postRealm},
		{"GET", "/minizulip/realms", nil, (*Server).listRealms},
		{"DELETE", "/minizulip/realms/{realm_id}", nil, (*Server).deleteRealm},
		{"GET", "/minizulip/dump", nil, (*Server).getDump},
		{"POST", "/minizulip/fixture", nil, (*Server).postFixture},
		{"GET", "/minizulip/push_devices", []string{"user"}, (*Server).listPushDevices},
		{"GET", "/minizulip/push_notifications", []string{"user"}, (*Server).listPushNotifications},
		{"POST", "/minizulip/push_notifications_enabled", []string{"enabled", "end_timestamp"}, (*Server).setPushNotificationsEnabled},
		{"POST", "/minizulip/plan_type", []string{"plan_type"}, (*Server).setPlanType},
		{"GET", "/minizulip/outbox", nil, (*Server).listOutbox},
		{"DELETE", "/minizulip/outbox", nil, (*Server).clearOutbox},
		{"POST", "/minizulip/special_permissions", specialPermissionParams, (*Server).setSpecialPermissions},
		{"POST", "/minizulip/confirmations/{key}", []string{"full_name", "password", "email"}, (*Server).postConfirmation},
	}
}

// setUpControl decides whether the control API is on.
func (s *Server) setUpControl() {
	if !s.tc.set {
		s.tc.on = s.devMode
	}
}

// newControlMux routes the control API.
func newControlMux() *http.ServeMux {
	mux := http.NewServeMux()
	byPath := map[string][]controlRoute{}
	var paths []string
	for _, rt := range controlRoutes() {
		if byPath[rt.path] == nil {
			paths = append(paths, rt.path)
		}
		byPath[rt.path] = append(byPath[rt.path], rt)
	}
	for _, path := range paths {
		dispatch := controlDispatch(byPath[path])
		if path == controlIndexPath {
			dispatch = func(s *Server, w http.ResponseWriter, req *http.Request) {
				if !s.servePage(w, req) {
					controlDispatch(byPath[path])(s, w, req)
				}
			}
		}
		mux.Handle(path, dispatch)
	}
	mux.HandleFunc(ControlPrefix, func(w http.ResponseWriter, req *http.Request) {
		writeJSON(w, http.StatusNotFound, map[string]any{"result": "error", "code": "BAD_REQUEST",
			"msg": "No test-control endpoint " + req.URL.Path})
	})
	return mux
}

// serveControl answers a request of the control API.
func (s *Server) serveControl(w http.ResponseWriter, req *http.Request) {
	if !s.hostAllowed(req) {
		writeBadHost(w)
		return
	}
	if err := checkOrigin(req); err != nil {
		writeError(w, err)
		return
	}
	s.routes.control.ServeHTTP(&statusWriter{ResponseWriter: w, server: s}, req)
}

// controlDispatch serves the routes of one path: by method (405 for
// another), refusing unknown parameters before the handler runs.
func controlDispatch(routes []controlRoute) serverHandler {
	var allowed []string
	for _, rt := range routes {
		allowed = append(allowed, rt.method)
	}
	return func(s *Server, w http.ResponseWriter, req *http.Request) {
		method := req.Method
		if method == http.MethodHead {
			method = http.MethodGet
		}
		i := slices.IndexFunc(routes, func(rt controlRoute) bool { return rt.method == method })
		if i < 0 {
			w.Header().Set("Allow", strings.Join(allowed, ", "))
			writeJSON(w, http.StatusMethodNotAllowed, map[string]any{"result": "error", "msg": "Method Not Allowed", "allowed_methods": allowed})
			return
		}
		rt := routes[i]
		parse := parseControlParams
		if _, raw := rawBodyRoutes[rt.method+" "+rt.path]; raw {
			parse = parseQuery
		}
		p, err := parse(req)
		if err != nil {
			writeError(w, err)
			return
		}
		var unknown []string
		for _, name := range p.names() {
			if !slices.Contains(rt.params, name) {
				unknown = append(unknown, name)
			}
		}
		if len(unknown) > 0 {
			slices.Sort(unknown)
			writeError(w, realm.BadRequest("Unknown parameter(s) of %s %s: %s (it takes: %s)", rt.method, strings.TrimSuffix(rt.path, "{$}"),
				strings.Join(unknown, ", "), paramList(rt.params)))
			return
		}
		result, err := rt.h(s, req, p)
		if err != nil {
			writeError(w, err)
			return
		}
		if doc, ok := result.(rawJSON); ok {
			writeRaw(w, doc)
			return
		}
		writeSuccess(w, result, nil)
	}
}

// paramList names a route's parameters for an error message.
func paramList(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// maxControlBody bounds the JSON body of a control request (a fixture
// document may be large).
const maxControlBody = maxBodyBytes

// parseControlParams reads a control request's parameters: a form body or
// query string as Zulip's routes take them, or a JSON object body, whose
// strings are taken as they are and other values as their JSON text.
func parseControlParams(req *http.Request) (*params, error) {
	ct, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
	if ct != "application/json" {
		return parseParams(req)
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, req.Body, maxControlBody))
	if err != nil {
		return nil, realm.BadRequest("Could not read the request body")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
		return nil, realm.BadRequest("The body is not a JSON object")
	}
	names := make([]string, 0, len(obj))
	for name := range obj {
		names = append(names, name)
	}
	slices.Sort(names)
	p := &params{}
	for _, name := range names {
		var s string
		if json.Unmarshal(obj[name], &s) != nil {
			s = string(obj[name])
		}
		p.set(name, s)
	}
	return p, nil
}

// optFloat reads a finite number parameter; set is false when absent.
func (p *params) optFloat(name string) (v float64, set bool, err error) {
	raw, ok := p.str(name)
	if !ok {
		return 0, false, nil
	}
	v, err = strconv.ParseFloat(strings.TrimSpace(raw), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false, realm.BadRequest("%s is not a number", name)
	}
	return v, true, nil
}

// clockAnswer is the body of GET and POST /minizulip/clock.
type clockAnswer struct {
	// Now is the realm clock's time in Unix seconds, with fractions.
	Now float64 `json:"now"`
}

func (s *Server) clockNow() clockAnswer {
	return clockAnswer{Now: float64(s.realm.Now().UnixMicro()) / 1e6}
}

func (s *Server) getClock(*http.Request, *params) (any, error) { return s.clockNow(), nil }

// maxClockMove bounds one move of the clock, so that durations cannot
// overflow (about 100 years).
const maxClockMove = 100 * 365 * 24 * time.Hour

// moveClock answers POST /minizulip/clock: advance (seconds) or now (Unix
// seconds), exactly one.
func (s *Server) moveClock(_ *http.Request, p *params) (any, error) {
	advance, hasAdvance, err := p.optFloat("advance")
	if err != nil {
		return nil, err
	}
	now, hasNow, err := p.optFloat("now")
	if err != nil {
		return nil, err
	}
	switch {
	case hasAdvance == hasNow:
		return nil, realm.BadRequest("Give exactly one of advance (seconds) and now (Unix seconds)")
	case hasAdvance:
		if advance < 0 {
			return nil, realm.BadRequest("The clock cannot go backwards (advance %v)", advance)
		}
		if advance > maxClockMove.Seconds() {
			return nil, realm.BadRequest("advance is too large (at most %d seconds)", int64(maxClockMove.Seconds()))
		}
		err = s.realm.AdvanceClock(time.Duration(advance * float64(time.Second)))
	default:
		if math.Abs(now) > float64(math.MaxInt64/int64(time.Second)) {
			return nil, realm.BadRequest("now is out of range")
		}
		sec, frac := math.Modf(now)
		err = s.realm.SetClock(time.Unix(int64(sec), int64(frac*1e9)))
	}
	if err != nil {
		return nil, err
	}
	return s.clockNow(), nil
}

// expireQueue answers POST /minizulip/queues/{queue_id}/expire: the queue
// goes as idle collection takes it.
func (s *Server) expireQueue(req *http.Request, _ *params) (any, error) {
	id := req.PathValue("queue_id")
	if !s.realm.ExpireQueue(id) {
		return nil, realm.BadRequest("No event queue with ID %q", id)
	}
	return nil, nil
}
