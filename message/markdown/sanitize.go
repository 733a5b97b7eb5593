package markdown

import "strings"

// allowedSchemes are the URL schemes Zulip links to: the web, ftp, file
// and the HTML standard's safelisted schemes.
var allowedSchemes = map[string]bool{
	"http": true, "https": true, "ftp": true, "file": true,
	"bitcoin": true, "geo": true, "im": true, "irc": true, "ircs": true, "magnet": true,
	"mailto": true, "matrix": true, "mms": true, "news": true, "nntp": true,
	"openpgp4fpr": true, "sip": true, "sms": true, "smsto": true, "ssh": true,
	"tel": true, "urn": true, "webcal": true, "wtai": true, "xmpp": true,
}

// splitScheme splits a URL's scheme off as a URL parser does: letters,
// digits, + - . starting with a letter, then ':'.
func splitScheme(u string) (scheme, rest string) {
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c == ':':
			if i == 0 {
				return "", u
			}
			return strings.ToLower(u[:i]), u[i+1:]
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return "", u
		}
	}
	return "", u
}

// sanitizeURL returns the href Zulip makes of a link target, or false if
// Zulip refuses it: unknown schemes are refused, a bare address gets
// http:// (or mailto: when it holds an @), and paths and fragments stay
// relative.
func sanitizeURL(u string) (string, bool) {
	return sanitize(strings.ReplaceAll(u, " ", "%20"), false)
}

func sanitize(u string, retried bool) (string, bool) {
	scheme, rest := splitScheme(u)
	netloc, path := "", rest
	if strings.HasPrefix(rest, "//") {
		end := strings.IndexAny(rest[2:], "/?#")
		if end < 0 {
			netloc, path = rest[2:], ""
		} else {
			netloc, path = rest[2:2+end], rest[2+end:]
		}
	}
	if scheme == "" && netloc == "" {
		p := path
		if i := strings.IndexAny(p, "?#"); i >= 0 {
			p = p[:i]
		}
		switch {
		case strings.Contains(p, "@"):
			return "mailto:" + u, true
		case strings.HasPrefix(p, "/"):
			return u, true
		case p == "" && strings.HasPrefix(path, "#") && len(path) > 1:
			return path, true
		}
	}
	if scheme == "" {
		if retried {
			return "", false
		}
		return sanitize("http://"+u, true)
	}
	if !allowedSchemes[scheme] {
		return "", false
	}
	return strings.TrimSuffix(strings.TrimSuffix(u, "#"), "?"), true
}

// localLink makes links to the realm's own narrow and upload pages
// relative.
func (s *state) localLink(href string) string {
	if s.realmURL == "" {
		return href
	}
	p := s.realmURL + "/"
	if strings.HasPrefix(href, p+"#") || strings.HasPrefix(href, p+"user_uploads/") {
		return href[len(p):]
	}
	return href
}
