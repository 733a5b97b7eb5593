package realm

import (
	"strings"
)

// emailRefusal is why the realm does not accept an address for a new
// account (Zulip's get_realm_email_validator), or emailAllowed.
type emailRefusal int

const (
	emailAllowed emailRefusal = iota
	// emailOutsideDomains: the realm is restricted to its domains and the
	// address is in none of them.
	emailOutsideDomains
	// emailDisposable: the realm refuses disposable addresses and this
	// is one.
	emailDisposable
	// emailContainsPlus: the realm is restricted to its domains, which
	// refuses addresses with "+" in their local part.
	emailContainsPlus
)

// disposableDomains is a tiny stand-in for the blocklist of disposable
// email domains Zulip uses (the disposable-email-domains package): a few
// well-known such services, enough for tests. Matching is exact, on the
// lower-cased domain.
var disposableDomains = map[string]bool{
	"mailinator.com":    true,
	"mailnator.com":     true,
	"guerrillamail.com": true,
	"sharklasers.com":   true,
	"yopmail.com":       true,
	"10minutemail.com":  true,
	"trashmail.com":     true,
}

// isDisposableDomain reports whether domain is on the built-in list of
// disposable email domains.
func isDisposableDomain(domain string) bool {
	return disposableDomains[strings.ToLower(domain)]
}

// emailRefusalOf checks a well-formed address against the realm's email
// rules, as Zulip does: a realm restricted to its domains accepts only
// addresses without "+" whose domain is one of them (or, for a domain
// that allows them, one of its subdomains), and does no disposable check;
// any other realm refuses disposable domains when
// disallow_disposable_email_addresses is on.
func (r *Realm) emailRefusalOf(email string) emailRefusal {
	at := strings.LastIndexByte(email, '@')
	local, domain := email[:max(at, 0)], strings.ToLower(email[at+1:])
	if !r.settings.EmailsRestrictedToDomains {
		if r.settings.DisallowDisposableEmailAddresses && isDisposableDomain(domain) {
			return emailDisposable
		}
		return emailAllowed
	}
	if strings.Contains(local, "+") {
		return emailContainsPlus
	}
	for _, d := range r.domains.list {
		if d.Domain == domain {
			return emailAllowed
		}
	}
	// Each parent domain, for the domains whose subdomains are allowed.
	for rest := domain; rest != ""; {
		_, rest, _ = strings.Cut(rest, ".")
		for _, d := range r.domains.list {
			if d.AllowSubdomains && d.Domain == rest {
				return emailAllowed
			}
		}
	}
	return emailOutsideDomains
}

// inviteMessage is Zulip's per-address reason for a refused address, as
// invitations and email changes report it (validate_email_is_valid).
func (e emailRefusal) inviteMessage() string {
	switch e {
	case emailOutsideDomains:
		return "Outside your domain."
	case emailDisposable:
		return "Please use your real email address."
	case emailContainsPlus:
		return "Email addresses containing + are not allowed."
	}
	return ""
}

// createUserError is Zulip's error for a refused address in POST /users.
func (e emailRefusal) createUserError(email string) error {
	switch e {
	case emailOutsideDomains:
		return BadRequest("Email '%s' not allowed in this organization", email)
	case emailDisposable:
		return BadRequest("Disposable email addresses are not allowed in this organization")
	case emailContainsPlus:
		return BadRequest("Email addresses containing + are not allowed.")
	}
	return nil
}
