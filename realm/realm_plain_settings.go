package realm

import (
	"cmp"
	"net/url"
	"unicode/utf8"

	"github.com/minizulip/minizulip/realm/fixture"
)

// The realm's plain settings, which PATCH /realm sets by value and no
// other rule reads in the realm: the Jitsi server, the guest
// indicators, the push and welcome-message settings. The rules that do
// read the rest of them live in unique_names.go and
// edit_history_policy.go.

// maxJitsiServerURLLength is Zulip's JITSI_SERVER_URL_MAX_LENGTH.
const maxJitsiServerURLLength = 200

// checkJitsiServerURL checks a realm's Jitsi server as Zulip does: an
// http(s) URL of at most 200 characters.
func checkJitsiServerURL(v string) error {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		utf8.RuneCountInString(v) > maxJitsiServerURLLength {
		return BadRequest("jitsi_server_url is not an allowed_type")
	}
	return nil
}

// checkWelcomeMessageCustomText bounds a Welcome Bot custom message.
func checkWelcomeMessageCustomText(v string) error {
	if utf8.RuneCountInString(v) > MaxWelcomeMessageCustomTextLength {
		return BadRequest("welcome_message_custom_text is too long (limit: %d characters)", MaxWelcomeMessageCustomTextLength)
	}
	return noNull("welcome_message_custom_text", v)
}

// loadPlainSettings reads the plain settings of a fixture into c.
func loadPlainSettings(c *Settings, fs fixture.Settings, at string) error {
	if fs.JitsiServerURL != nil {
		if err := checkJitsiServerURL(*fs.JitsiServerURL); err != nil {
			return badItem(at+".jitsi_server_url", "%q is not an http(s) URL of at most %d characters", *fs.JitsiServerURL, maxJitsiServerURLLength)
		}
		c.JitsiServerURL = ptr(*fs.JitsiServerURL)
	} else {
		c.JitsiServerURL = nil
	}
	if err := checkWelcomeMessageCustomText(fs.WelcomeMessageCustomText); err != nil {
		return badItem(at+".welcome_message_custom_text", "%s", err.Error())
	}
	c.EditHistoryPolicy = EditHistoryAll
	if p := fs.MessageEditHistoryVisibilityPolicy; p != "" {
		if !validEditHistoryPolicy(p) {
			return badItem(at+".message_edit_history_visibility_policy", "unknown policy %q (all, moves, none)", p)
		}
		c.EditHistoryPolicy = p
	}
	c.EnableGuestUserIndicator, c.EnableGuestUserDMWarning = true, true
	if fs.EnableGuestUserIndicator != nil {
		c.EnableGuestUserIndicator = *fs.EnableGuestUserIndicator
	}
	if fs.EnableGuestUserDMWarning != nil {
		c.EnableGuestUserDMWarning = *fs.EnableGuestUserDMWarning
	}
	c.RequireUniqueNames, c.RequireE2EEPushNotifications = fs.RequireUniqueNames, fs.RequireE2EEPushNotifications
	c.WelcomeMessageCustomText = fs.WelcomeMessageCustomText
	if end := fs.PushNotificationsEnabledEndTimestamp; end != nil && *end < 0 {
		return badItem(at+".push_notifications_enabled_end_timestamp", "%d is not a UNIX timestamp", *end)
	}
	if p := PlanType(fs.PlanType); p != 0 && !p.Valid() {
		return badItem(at+".plan_type", "unknown plan type %d (1 self-hosted, 2 limited, 3 standard, 4 standard free, 10 plus)", fs.PlanType)
	}
	c.PlanType = cmp.Or(PlanType(fs.PlanType), PlanTypeSelfHosted)
	c.PushNotificationsEnabled, c.PushNotificationsEnabledEnd = fs.PushNotificationsEnabled, nil
	if end := fs.PushNotificationsEnabledEndTimestamp; end != nil {
		c.PushNotificationsEnabledEnd = ptr(*end)
	}
	return nil
}

// jitsiServerURLValue is the realm's Jitsi server as the API sends it:
// null for the server's.
func jitsiServerURLValue(s *Settings) any {
	if s.JitsiServerURL == nil {
		return nil
	}
	return *s.JitsiServerURL
}

// serverJitsiServerURL is the server's Jitsi server (Zulip's default
// JITSI_SERVER_URL), which a realm without its own uses.
const serverJitsiServerURL = "https://meet.jit.si"

// derefString is *p, or "" for nil.
func derefString(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
