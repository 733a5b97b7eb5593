package httpapi

import (
	"errors"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/minizulip/minizulip/realm"
)

// router is the routing table of the API: the patterns of every route,
// the 405 answers of their paths and the list of endpoints. It is the same
// for every Server, so it is built once per process: registering its
// thousand-odd patterns in net/http's mux was most of a test server's
// start. Its handlers are serverHandlers, which serve a request for the
// Server it came to.
type router struct {
	mux   *http.ServeMux // method patterns of every route
	paths *http.ServeMux // the same paths without methods, answering 405
	// allowed collects the methods of each path pattern, for 405 answers.
	allowed map[string][]string
	// overlapping serves the routes whose patterns overlap others in a
	// way Go's mux refuses (see route.overlaps); it is consulted for paths
	// no ordinary route takes.
	overlapping routeMuxes
	// endpoints lists the routes, sorted, for Endpoints.
	endpoints []Endpoint
	// batched holds "METHOD pattern" of the batched routes (route.batched).
	batched map[string]bool
	// control is the test-control API under ControlPrefix (control.go).
	control *http.ServeMux
}

// sharedRouter is the router of every Server, built on first use.
var sharedRouter = sync.OnceValue(func() *router { return newRouter(apiRoutes()) })

// routeMuxes are the method patterns of some routes, the same paths
// without methods (answering 405), and the methods of each path.
type routeMuxes struct {
	mux, paths *http.ServeMux
	allowed    map[string][]string
}

func newRouteMuxes() routeMuxes {
	return routeMuxes{mux: http.NewServeMux(), paths: http.NewServeMux(), allowed: map[string][]string{}}
}

// serverHandler is a handler of the shared router: it serves a request
// for the Server the request came to.
type serverHandler func(s *Server, w http.ResponseWriter, req *http.Request)

// ServeHTTP finds the Server from the request's writer (serverOf).
func (h serverHandler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	h(serverOf(w), w, req)
}

// apiRoutes lists every route of the API below /api/v1 (and /json).
func apiRoutes() []route {
	var all []route
	for _, group := range [][]route{
		serverRoutes(), userRoutes(), channelRoutes(), messageRoutes(), eventRoutes(), registerRoutes(), groupRoutes(), linkifierRoutes(), snippetRoutes(), draftRoutes(), scheduledMessageRoutes(), reminderRoutes(), botRoutes(), userTopicRoutes(), messageEditRoutes(), realmSettingsRoutes(), flagRoutes(), reactionRoutes(), realmEmojiRoutes(), userStatusRoutes(), presenceRoutes(), settingsRoutes(), profileFieldRoutes(), uploadRoutes(), attachmentRoutes(), callRoutes(), channelReadRoutes(), subscriptionPropertyRoutes(), channelAdminRoutes(), defaultChannelRoutes(), mutedUserRoutes(), alertWordRoutes(), navigationViewRoutes(), playgroundRoutes(), channelFolderRoutes(), messageReportRoutes(), realmExportRoutes(), inviteRoutes(),
		realmDomainRoutes(),
		onboardingStepRoutes(),
		pushDeviceRoutes(),
		botStorageRoutes(),
		submessageRoutes(),
	} {
		all = append(all, group...)
	}
	return all
}

// newRouter registers routes, and the routes outside the API's prefixes.
func newRouter(routes []route) *router {
	ms := newRouteMuxes()
	rt := &router{mux: ms.mux, paths: ms.paths, allowed: ms.allowed, overlapping: newRouteMuxes(), batched: map[string]bool{}}
	for _, r := range routes {
		rt.handle(r)
	}
	rt.handleEmojiImages()
	rt.handleServerEmojiData()
	rt.handleFileRoutes()
	for path, methods := range rt.allowed {
		rt.paths.Handle(path, methodNotAllowed(path, methods))
		rt.shadowWildcards(path, methods)
	}
	for path, methods := range rt.overlapping.allowed {
		rt.overlapping.paths.Handle(path, methodNotAllowed(path, methods))
	}
	rt.mux.Handle("/", serverHandler(rt.notRouted))
	rt.control = newControlMux()
	slices.SortFunc(rt.endpoints, func(a, b Endpoint) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Method, b.Method)
	})
	return rt
}

// handle registers a route below /api/v1 and, unless it is API-only,
// below /json.
func (rt *router) handle(r route) {
	// Zulip's docs write a multi-segment wildcard as any other.
	path := strings.ReplaceAll(r.path, "...}", "}")
	rt.endpoints = append(rt.endpoints, Endpoint{Method: r.method, Path: path, APIOnly: r.apiOnly})
	rt.handlePrefix(APIPrefix, r, (*Server).authenticate)
	if !r.apiOnly {
		rt.handlePrefix(JSONPrefix, r, (*Server).authenticateSession)
	}
}

// handlePrefix registers r below prefix, authenticated by auth.
func (rt *router) handlePrefix(prefix string, r route, auth func(*Server, *http.Request) (*realm.Actor, error)) {
	path := prefix + r.path
	mux, allowed := rt.mux, rt.allowed
	if r.overlaps {
		mux, allowed = rt.overlapping.mux, rt.overlapping.allowed
	}
	allowed[path] = append(allowed[path], r.method)
	if r.batched {
		rt.batched[r.method+" "+path] = true
	}
	gates := realm.ParamGates(r.method, r.path)
	renames := realm.ParamRenames(r.method, r.path)
	mux.Handle(r.method+" "+path, serverHandler(func(s *Server, w http.ResponseWriter, req *http.Request) {
		if !s.realm.HasEndpoint(r.method, r.path) {
			// Newer than the advertised feature level: as a server of
			// that level, which does not know the endpoint.
			notAtLevel(s, w, req, r.path, allowed[path])
			return
		}
		if r.byEmailSince != nil && !s.realm.Has(*r.byEmailSince) {
			if _, byID := digitsID(req.PathValue("user")); !byID {
				// The older server's /users/{email} had GET only.
				notAtLevel(s, w, req, r.path, []string{http.MethodGet})
				return
			}
		}
		c := &call{req: req, w: w, srv: s}
		var formCSRF *csrfFromForm
		if prefix == JSONPrefix && r.spectators && !s.hasSession(req) &&
			(r.spectatorsSince == nil || s.realm.Has(*r.spectatorsSince)) {
			// Logged out on a route Zulip marks allow_anonymous_user_web:
			// the realm answers as to a spectator (or refuses one).
			c.spectator = s.realm.Spectator(spectatorLanguage(req))
		} else if !r.public {
			actor, err := auth(s, req)
			if errors.As(err, &formCSRF) {
				actor, err = formCSRF.actor, nil
			}
			if err != nil {
				if prefix == JSONPrefix {
					w.Header().Set("WWW-Authenticate", `Session realm="zulip"`)
				}
				writeError(w, err)
				return
			}
			if !r.sends {
				if err := actor.CheckAPIAccess(); err != nil {
					writeError(w, err)
					return
				}
			}
			c.actor = actor
			noteUser(w, actor.UserID())
		}
		parse := parseParams
		if r.rawBody {
			parse = parseQuery
		}
		p, err := parse(req)
		if err != nil {
			writeError(w, err)
			return
		}
		if formCSRF != nil {
			if err := formCSRF.checkFormCSRF(p); err != nil {
				writeError(w, err)
				return
			}
		}
		c.p = p
		noteParams(w, p)
		p.dropAfterLevel(s.realm, gates)
		p.renameBeforeLevel(s.realm, renames)
		result, err := r.h(c)
		if err != nil {
			if c.spectator != nil {
				// A refused spectator is asked for a session, as any
				// logged-out /json request.
				w.Header().Set("WWW-Authenticate", `Session realm="zulip"`)
			}
			writeError(w, err)
			return
		}
		ignored := p.ignored()
		if len(ignored) > 0 && s.unsupportedParams(w, req, path, ignored) {
			return
		}
		if _, ok := result.(partiallyCompleted); ok {
			writeJSON(w, http.StatusOK, map[string]any{"result": "partially_completed", "msg": "", "code": "REQUEST_TIMEOUT"})
			return
		}
		writeSuccess(w, s.realm.WireAnswer(r.method, r.path, result), p.withDropped(ignored))
	}))
}

// notRouted answers requests no route pattern took: the catch-all "/"
// pattern is less specific than every route, so it only sees those.
func (rt *router) notRouted(s *Server, w http.ResponseWriter, req *http.Request) {
	for _, mux := range []*http.ServeMux{rt.overlapping.mux, rt.paths, rt.overlapping.paths} {
		if _, pattern := mux.Handler(req); pattern != "" {
			mux.ServeHTTP(w, req) // serving through the mux sets the path values
			return
		}
	}
	if s.unsupportedEndpoint(w, req) {
		return
	}
	writeNotFound(w)
}

// methodsAtLevel are the methods of a path pattern that a server of the
// realm's feature level has.
func methodsAtLevel(s *Server, pattern string, methods []string) []string {
	path := strings.TrimPrefix(strings.TrimPrefix(pattern, APIPrefix), JSONPrefix)
	var out []string
	for _, m := range methods {
		if s.realm.HasEndpoint(m, path) {
			out = append(out, m)
		}
	}
	return out
}

// notAtLevel answers a request to a path some of whose endpoints are
// newer than the realm's feature level, as a server of that level does:
// 405 with the methods it has there, 404 when it has none.
func notAtLevel(s *Server, w http.ResponseWriter, req *http.Request, pattern string, methods []string) {
	atLevel := methodsAtLevel(s, pattern, methods)
	if len(atLevel) == 0 {
		writeNotFound(w)
		return
	}
	for _, m := range atLevel {
		if m == http.MethodGet {
			atLevel = append(atLevel, http.MethodHead)
		}
	}
	sort.Strings(atLevel)
	w.Header().Set("Allow", strings.Join(atLevel, ", "))
	if req.Method == http.MethodOptions {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	writeJSON(w, http.StatusMethodNotAllowed, map[string]any{
		"result": "error", "msg": "Method Not Allowed", "allowed_methods": atLevel,
	})
}

// shadowWildcards makes a literal path answer 405 to the methods it lacks
// even where a wildcard route has them: PATCH /users/me is not PATCH
// /users/{email}, as in Zulip, where the literal path comes first.
func (rt *router) shadowWildcards(path string, methods []string) {
	if strings.Contains(path, "{") {
		return
	}
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if !slices.Contains(methods, m) {
			rt.mux.Handle(m+" "+path, methodNotAllowed(path, methods))
		}
	}
}

// methodNotAllowed answers a known path with another method: 405 with the
// allowed methods, or 404 when an id wildcard holds something other than
// digits (so /messages/flags is not /messages/{message_id}).
func methodNotAllowed(pattern string, methods []string) serverHandler {
	ids := idWildcards(pattern)
	allowed := append([]string(nil), methods...)
	for _, m := range methods {
		if m == http.MethodGet {
			allowed = append(allowed, http.MethodHead)
		}
	}
	sort.Strings(allowed)
	allow := strings.Join(allowed, ", ")
	return func(s *Server, w http.ResponseWriter, req *http.Request) {
		for _, name := range ids {
			if !allDigits(req.PathValue(name)) {
				writeNotFound(w)
				return
			}
		}
		if atLevel := methodsAtLevel(s, pattern, methods); len(atLevel) < len(methods) {
			notAtLevel(s, w, req, pattern, methods)
			return
		}
		w.Header().Set("Allow", allow)
		if req.Method == http.MethodOptions {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if s.unsupportedEndpoint(w, req) {
			return
		}
		writeJSON(w, http.StatusMethodNotAllowed, map[string]any{
			"result": "error", "msg": "Method Not Allowed", "allowed_methods": allowed,
		})
	}
}
