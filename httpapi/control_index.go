package httpapi

import (
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// controlIndexPath is the pattern of the control API's index, GET
// /minizulip/ exactly.
const controlIndexPath = ControlPrefix + "{$}"

// ControlEndpoint is one endpoint of the control API as its index lists it.
type ControlEndpoint struct {
	Method string   `json:"method"`
	Path   string   `json:"path"`
	Params []string `json:"params"`
	// Body, when set, says what the request's body is: a document of
	// its own rather than parameters.
	Body string `json:"body,omitempty"`
}

// ControlEndpoints lists the endpoints of the test-control API, in the
// order of its route table, with the parameters each takes.
func ControlEndpoints() []ControlEndpoint {
	routes := controlRoutes()
	out := make([]ControlEndpoint, len(routes))
	for i, rt := range routes {
		params := rt.params
		if params == nil {
			params = []string{}
		}
		out[i] = ControlEndpoint{Method: rt.method, Path: strings.TrimSuffix(rt.path, "{$}"), Params: params,
			Body: rawBodyRoutes[rt.method+" "+rt.path]}
	}
	return out
}

// controlIndex answers GET /minizulip/ for clients that do not prefer
// HTML (WithControlPage serves those): every endpoint of the control API.
func (s *Server) controlIndex(*http.Request, *params) (any, error) {
	return map[string]any{"endpoints": ControlEndpoints()}, nil
}

// WithControlPage serves h at GET /minizulip/ to clients that prefer
// text/html to JSON (browsers), in place of the JSON index of the control
// API, which every other client still gets. Without it every client gets
// the JSON index.
func WithControlPage(h http.Handler) Option { return func(s *Server) { s.tc.page = h } }

// servePage serves the control page to a browser asking for the index; it
// reports whether it did.
func (s *Server) servePage(w http.ResponseWriter, req *http.Request) bool {
	if s.tc.page == nil || (req.Method != http.MethodGet && req.Method != http.MethodHead) || !PrefersHTML(req) {
		return false
	}
	s.tc.page.ServeHTTP(w, req)
	return true
}

// PrefersHTML reports whether req's Accept header ranks text/html above
// application/json, as a browser navigating to a page does; "*/*" alone
// (curl, fetch, client libraries) does not.
func PrefersHTML(req *http.Request) bool {
	// The q of each media range; -1 where the header does not name it.
	q := map[string]float64{"text/html": -1, "application/json": -1, "text/*": -1, "*/*": -1}
	for _, part := range strings.Split(req.Header.Get("Accept"), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if _, known := q[mt]; err != nil || !known {
			continue
		}
		v := 1.0
		if raw, ok := params["q"]; ok {
			if f, err := strconv.ParseFloat(raw, 64); err == nil {
				v = f
			}
		}
		q[mt] = max(q[mt], v)
	}
	// The most specific range naming a type gives its q (RFC 9110).
	html := q["text/html"]
	if html < 0 {
		html = q["text/*"]
	}
	if html < 0 {
		html = q["*/*"]
	}
	json := q["application/json"]
	if json < 0 {
		json = q["*/*"]
	}
	return html > 0 && html > json
}
