package httpapi

import (
	"net/http"

	"github.com/minizulip/minizulip/realm"
)

// crossOrigin is the CSRF defence of the test-control API and the login
// endpoints (dev_fetch_api_key, dev_list_users, fetch_api_key, which log
// a browser in): Go's http.CrossOriginProtection. It refuses a request
// with an unsafe method (POST, PUT, PATCH, DELETE) that a browser marks
// as coming from another origin: Sec-Fetch-Site other than same-origin
// or none (same-site too, since every port of localhost is the same site
// as the server, and a page there is another origin all the same), or,
// from browsers without that header, an Origin whose host is not the
// Host. Requests without either header (curl, client libraries, mobile
// apps) pass, and so do safe methods, which change nothing here and
// whose answers the same-origin policy keeps from other origins (no
// CORS headers are sent).
var crossOrigin = http.NewCrossOriginProtection()

// errCrossOrigin refuses a cross-origin browser request, as Zulip
// refuses a request failing its CSRF check.
var errCrossOrigin = &realm.Error{Code: realm.CodeCSRFFailed, Status: http.StatusForbidden,
	Msg: "Cross-origin request refused: the test-control API and login endpoints take unsafe requests only from pages of this server's own origin, or from clients that send no Origin or Sec-Fetch-Site header (curl, client libraries)"}

// checkOrigin refuses a cross-origin browser request with an unsafe
// method (crossOrigin).
func checkOrigin(req *http.Request) error {
	if crossOrigin.Check(req) != nil {
		return errCrossOrigin
	}
	return nil
}
