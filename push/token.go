// Package push holds the pure rules of mobile push-notification devices:
// the kinds of device token, and the checks Zulip runs on the tokens and
// app IDs the mobile apps register.
package push

import (
	"regexp"
	"unicode/utf8"
)

// Kind is the service a device token belongs to.
type Kind string

// The kinds of device token, spelled as Zulip's API spells them
// (token_kind of POST /mobile_push/register).
const (
	// FCM is Firebase Cloud Messaging (Android), registered through
	// /users/me/android_gcm_reg_id.
	FCM Kind = "fcm"
	// APNs is Apple's push service (iOS), registered through
	// /users/me/apns_device_token.
	APNs Kind = "apns"
)

// MaxTokenLength is the longest token accepted, in characters.
const MaxTokenLength = 4096

// ValidationError is a refused token or app ID; its text is Zulip's
// message.
type ValidationError string

func (e ValidationError) Error() string { return string(e) }

// CheckToken checks a device token as Zulip's validate_token does: it is
// not empty and at most MaxTokenLength characters; an APNs token is
// moreover hexadecimal, as Python's bytes.fromhex reads it (pairs of hex
// digits, ASCII whitespace allowed between pairs).
func CheckToken(kind Kind, token string) error {
	if token == "" || utf8.RuneCountInString(token) > MaxTokenLength {
		return ValidationError("Empty or invalid length token")
	}
	if kind == APNs && !isPythonHex(token) {
		return ValidationError("Invalid APNS token")
	}
	return nil
}

// isPythonHex reports whether bytes.fromhex accepts s: hex digit pairs,
// with ASCII whitespace allowed before each pair and at the end, never
// inside a pair.
func isPythonHex(s string) bool {
	for i := 0; i < len(s); {
		if isPythonSpace(s[i]) {
			i++
			continue
		}
		if i+1 >= len(s) || !isHexDigit(s[i]) || !isHexDigit(s[i+1]) {
			return false
		}
		i += 2
	}
	return true
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// isPythonSpace is Python's Py_ISSPACE: the six ASCII whitespace bytes.
func isPythonSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// appIDPattern is Zulip's ApnsAppId constraint.
var appIDPattern = regexp.MustCompile(`^[.a-zA-Z0-9-]+$`)

// ValidAppID reports whether an iOS app ID (appid of POST
// /users/me/apns_device_token) has the form Zulip accepts: letters,
// digits, dots and hyphens, at least one.
func ValidAppID(appID string) bool { return appIDPattern.MatchString(appID) }
