package user

import (
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// ValidURL reports whether s is a URL as Django's URLValidator, which
// Zulip applies to outgoing-webhook payload URLs and URL profile fields,
// accepts: an http(s) or ftp(s) scheme, a host that is localhost, an IP
// address or a domain with a top-level domain, an optional port, no
// spaces.
func ValidURL(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t\r\n") {
		return false
	}
	u, err := url.Parse(s)
	if err != nil || u.Opaque != "" {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ftp", "ftps":
	default:
		return false
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n > 65535 {
			return false
		}
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") || net.ParseIP(host) != nil {
		return true
	}
	labels := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if !hostLabel.MatchString(l) {
			return false
		}
	}
	return topLevelDomain.MatchString(labels[len(labels)-1])
}

// hostLabel is one label of a host name; topLevelDomain its last one.
var (
	hostLabel      = regexp.MustCompile(`^(?i)[a-z0-9\x{a1}-\x{ffff}]([a-z0-9\x{a1}-\x{ffff}-]{0,61}[a-z0-9\x{a1}-\x{ffff}])?$`)
	topLevelDomain = regexp.MustCompile(`^(?i)([a-z\x{a1}-\x{ffff}-]{2,63}|xn--[a-z0-9]{1,59})$`)
)
