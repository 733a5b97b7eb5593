package user

// This file holds the pure rules of mobile push-notification devices:
// the kinds of device token, and the checks Zulip runs on the tokens and
// app IDs the mobile apps register.

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// PushKind is the service a device token belongs to.
type PushKind string

// The kinds of device token, spelled as Zulip's API spells them
// (token_kind of POST /mobile_push/register).
const (
	// PushFCM is Firebase Cloud Messaging (Android), registered through
	// /users/me/android_gcm_reg_id.
	PushFCM PushKind = "fcm"
	// PushAPNs is Apple's push service (iOS), registered through
	// /users/me/apns_device_token.
	PushAPNs PushKind = "apns"
)

// MaxPushTokenLength is the longest token accepted, in characters.
const MaxPushTokenLength = 4096

// PushTokenError is a refused token or app ID; its text is Zulip's
// message.
type PushTokenError string

func (e PushTokenError) Error() string { return string(e) }

// CheckPushToken checks a device token as Zulip's validate_token does: it is
// not empty and at most MaxPushTokenLength characters; an PushAPNs token is
// moreover hexadecimal, as Python's bytes.fromhex reads it (pairs of hex
// digits, ASCII whitespace allowed between pairs). No token holds a NUL
// byte, which Zulip's database cannot store.
func CheckPushToken(kind PushKind, token string) error {
	if token == "" || utf8.RuneCountInString(token) > MaxPushTokenLength {
		return PushTokenError("Empty or invalid length token")
	}
	if kind == PushAPNs && !isPythonHex(token) {
		return PushTokenError("Invalid APNS token")
	}
	if strings.IndexByte(token, 0) >= 0 { // Zulip's database cannot store NUL
		return PushTokenError("token must not contain null bytes")
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

// ValidPushAppID reports whether an iOS app ID (appid of POST
// /users/me/apns_device_token) has the form Zulip accepts: letters,
// digits, dots and hyphens, at least one.
func ValidPushAppID(appID string) bool { return appIDPattern.MatchString(appID) }
