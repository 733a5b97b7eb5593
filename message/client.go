package message

import "strings"

// maxClientNameLength is Zulip's limit on stored client names.
const maxClientNameLength = 30

// ClientName derives the sending client's name as Zulip does: the `client`
// request parameter, else the User-Agent's first product token, else
// "Unspecified". Names are cut to 30 characters.
func ClientName(param, userAgent string) string {
	name := strings.TrimSpace(param)
	if name == "" {
		name = strings.TrimSpace(userAgent)
		if i := strings.IndexAny(name, "/ "); i >= 0 {
			name = name[:i]
		}
	}
	if name == "" {
		name = "Unspecified"
	}
	if len(name) > maxClientNameLength {
		name = name[:maxClientNameLength]
	}
	return name
}

var humanClients = map[string]bool{
	"website": true, "ZulipMobile": true, "ZulipAndroid": true, "ZulipiOS": true,
	"ZulipDesktop": true, "ZulipElectron": true, "ZulipTerminal": true, "snipe": true,
	"ios": true, "android": true, "ZulipFlutter": true,
}

// IsHumanClient reports whether messages sent from this client start read
// for their sender (Zulip's default_read_by_sender heuristic).
func IsHumanClient(name string) bool {
	return humanClients[name] || strings.Contains(strings.ToLower(name), "desktop app")
}
