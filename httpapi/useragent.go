package httpapi

import (
	"net/http"
	"regexp"
	"strings"
)

// userAgentPattern is Zulip's User-Agent grammar: a client name, then an
// optional /version, then anything.
var userAgentPattern = regexp.MustCompile(`^([^/ ]*[^0-9/(]*)(/([^/ ]*))?([ /].*)?$`)

// userAgentClient is the client name a User-Agent header gives, as Zulip
// parses it ("ZulipMobile/27.1 (Android 14)" → "ZulipMobile").
func userAgentClient(ua string) string {
	// Fast path, the shape of nearly every client's header: a name without
	// spaces, then "/". The grammar's greedy first part takes exactly that
	// name, and the rest always matches.
	if i := strings.IndexByte(ua, '/'); i >= 0 && strings.IndexByte(ua[:i], ' ') < 0 {
		return ua[:i]
	}
	m := userAgentPattern.FindStringSubmatch(ua)
	if m == nil {
		return ""
	}
	return m[1]
}

// clientName is the sending client's name as Zulip derives it: the
// `client` parameter, else the User-Agent's client name — "website" for
// browsers on /json routes, as Zulip's web app is named —, else
// "Unspecified".
func clientName(param string, req *http.Request) string {
	if name := strings.TrimSpace(param); name != "" {
		return name
	}
	ua := req.UserAgent()
	if ua == "" {
		return "Unspecified"
	}
	name := userAgentClient(ua)
	if strings.HasPrefix(req.URL.Path, JSONPrefix+"/") && name != "ZulipDesktop" {
		return "website"
	}
	if strings.TrimSpace(name) == "" {
		return "Unspecified"
	}
	return name
}
