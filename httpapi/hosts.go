package httpapi

import (
	"net"
	"net/http"
	"strings"
)

// WithAllowedHosts makes the server answer only requests whose Host
// header names one of hosts (any port): the DNS-rebinding protection of a
// server on a loopback address, where a web page on another origin could
// otherwise reach it through a name that resolves to 127.0.0.1. Without
// the option every host is served.
func WithAllowedHosts(hosts ...string) Option {
	return func(s *Server) {
		s.allowedHosts = map[string]bool{}
		for _, h := range hosts {
			s.allowedHosts[strings.ToLower(h)] = true
		}
	}
}

// LoopbackHosts are the names a loopback server answers to by default.
var LoopbackHosts = []string{"localhost", "127.0.0.1", "::1"}

// hostAllowed reports whether req's Host is one the server answers to.
// A request line with an absolute URL (absolute-form, what clients send
// to a proxy) is refused: Go's server takes its host and drops the Host
// header, the name a browser sends and a DNS-rebinding page controls,
// so the server cannot check the name the client was aimed at.
func (s *Server) hostAllowed(req *http.Request) bool {
	if s.allowedHosts == nil {
		return true
	}
	if !strings.HasPrefix(req.RequestURI, "/") && req.RequestURI != "*" {
		return false
	}
	host := req.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return s.allowedHosts[strings.ToLower(host)]
}

// writeBadHost refuses a request for a host the server does not answer to,
// as Django does for a host outside ALLOWED_HOSTS.
func writeBadHost(w http.ResponseWriter) {
	writeJSON(w, http.StatusBadRequest, map[string]any{"result": "error", "msg": "Invalid HTTP Host header", "code": "BAD_REQUEST"})
}
