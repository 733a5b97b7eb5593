package message

import "strings"

// maxClientNameLength is Zulip's limit on stored client names.
const maxClientNameLength = 30

// NormalizeClientName stores a client name as Zulip does: trimmed and cut
// to 30 characters. Where the name comes from (the `client` parameter, a
// User-Agent header) is the adapter's business.
func NormalizeClientName(name string) string {
	name = strings.TrimSpace(name)
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
