package user

import (
	"net"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FakeEmailDomain is the domain of the API addresses a realm shows in place
// of real ones it hides when its own host cannot make addresses
// (user<ID>@zulipdev.com on a Zulip dev server at localhost:9991).
const FakeEmailDomain = "zulipdev.com"

// FakeEmailDomainFor is the domain of a realm's fake API addresses, as
// Zulip chooses it: the realm's host when "bot@<host>" is a valid address
// (zulip.testserver), else FakeEmailDomain (a host with a port is not).
func FakeEmailDomainFor(host string) string {
	if host != "" && ValidNewEmail("bot@"+host) {
		return NormalizeEmail(host)
	}
	return FakeEmailDomain
}

// NormalizeEmail folds an email address for case-insensitive matching.
func NormalizeEmail(email string) string {
	return strings.ToLower(strings.TrimSpace(email))
}

// LooksLikeEmail is the light syntax check Zulip applies before looking an
// address up (dev login): one '@' with something on both sides and no
// spaces or list punctuation. Creating an account asks more of an
// address: see ValidNewEmail.
func LooksLikeEmail(email string) bool {
	at := strings.IndexByte(email, '@')
	return at > 0 && at == strings.LastIndexByte(email, '@') && at < len(email)-1 &&
		!strings.ContainsAny(email, " \t\r\n,<>")
}

var (
	// emailDotAtom and emailQuoted are the two local-part forms a Django
	// email field accepts.
	emailDotAtom = regexp.MustCompile("(?i)^[-!#$%&'*+/=?^_`{}|~0-9A-Z]+(\\.[-!#$%&'*+/=?^_`{}|~0-9A-Z]+)*$")
	emailQuoted  = regexp.MustCompile(`(?i)^"([\x01-\x08\x0b\x0c\x0e-\x1f!#-\[\]-\x7f]|\\[\x01-\x09\x0b\x0c\x0e-\x7f])*"$`)
	// emailDomain is a host name with a top-level label of 2-63 characters.
	emailDomain  = regexp.MustCompile(`(?i)^(?:[A-Z0-9](?:[A-Z0-9-]{0,61}[A-Z0-9])?\.)+[A-Z0-9-]{1,62}[A-Z0-9]$`)
	emailLiteral = regexp.MustCompile(`(?i)^\[([A-F0-9:.]+)\]$`)
)

// MaxEmailLength is the length of Zulip's email columns (Django's
// EmailField), in characters.
const MaxEmailLength = 254

// ValidNewEmail is the address check of Django's EmailField, which Zulip's
// account-creation form applies: a dot-atom or quoted local part, and a
// host name (internationalized ones judged by shape), "localhost" or an IP
// literal, at most MaxEmailLength characters (the form would take 320, the
// column does not).
func ValidNewEmail(email string) bool {
	at := strings.LastIndexByte(email, '@')
	if at < 0 || utf8.RuneCountInString(email) > MaxEmailLength {
		return false
	}
	local, domain := email[:at], email[at+1:]
	if !emailDotAtom.MatchString(local) && !emailQuoted.MatchString(local) {
		return false
	}
	if domain == "localhost" || emailDomain.MatchString(asciiLabels(domain)) {
		return true
	}
	if m := emailLiteral.FindStringSubmatch(domain); m != nil {
		return net.ParseIP(m[1]) != nil
	}
	return false
}

// asciiLabels stands in for IDNA encoding: each letter, digit or mark
// outside ASCII becomes "a", so an internationalized host name is judged
// by its shape.
func asciiLabels(domain string) string {
	return strings.Map(func(r rune) rune {
		if r > unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)) {
			return 'a'
		}
		return r
	}, domain)
}

// FakeEmail is the API address of user id when the realm hides real ones
// and has the default fake domain.
func FakeEmail(id int) string { return FakeEmailIn(id, FakeEmailDomain) }

// FakeEmailIn is the API address of user id in a realm whose fake
// addresses end in domain: user<ID>@<domain>.
func FakeEmailIn(id int, domain string) string { return "user" + strconv.Itoa(id) + "@" + domain }

// ParseFakeEmail reads the user ID out of an API address of the form
// user<ID>@zulipdev.com (any case), as FakeEmail makes them.
func ParseFakeEmail(email string) (id int, ok bool) { return ParseFakeEmailIn(email, FakeEmailDomain) }

// ParseFakeEmailIn reads the user ID out of an API address of the form
// user<ID>@<domain> (any case), as FakeEmailIn makes them.
func ParseFakeEmailIn(email, domain string) (id int, ok bool) {
	rest, ok := strings.CutPrefix(NormalizeEmail(email), "user")
	if !ok {
		return 0, false
	}
	digits, ok := strings.CutSuffix(rest, "@"+NormalizeEmail(domain))
	if !ok || digits == "" || len(digits) > 9 {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	id, err := strconv.Atoi(digits)
	return id, err == nil
}
