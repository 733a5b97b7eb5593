package user

import (
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Interfaces an outgoing-webhook service posts in, as Zulip numbers them.
const (
	// GenericInterface posts Zulip's own JSON payload.
	GenericInterface = 1
	// SlackInterface posts form data shaped like Slack's outgoing webhooks.
	SlackInterface = 2
)

// Service is an outgoing-webhook bot's service: where the messages that
// trigger the bot are posted, in which interface, with which token. The
// zero value means the bot has none.
type Service struct {
	// Name is the service's name (the bot's short name unless given).
	Name string
	// BaseURL is the payload URL the messages are posted to.
	BaseURL string
	// Interface is GenericInterface or SlackInterface.
	Interface int
	// Token lets the receiving server check that a request comes from us.
	Token string
}

// ValidInterface reports whether i is an interface Zulip accepts.
func ValidInterface(i int) bool { return i == GenericInterface || i == SlackInterface }

// HasService reports whether the account is a bot with an outgoing-webhook
// service.
func (u *User) HasService() bool { return u.BotType == OutgoingWebhook && u.Service.Token != "" }

// ValidServiceURL reports whether s is a URL as Django's URLValidator,
// which Zulip applies to payload URLs, accepts: an http(s) or ftp(s)
// scheme, a host that is localhost, an IP address or a domain with a
// top-level domain, an optional port, no spaces.
func ValidServiceURL(s string) bool {
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
