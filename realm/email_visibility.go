package realm

import (
	"net/url"

	"github.com/minizulip/minizulip/user"
)

// emailVisibilityOf is u's effective email_address_visibility: the user's
// own setting, or the realm's default.
func (r *Realm) emailVisibilityOf(u *user.User) user.EmailVisibility {
	return u.EmailVisibility(r.settings.EmailAddressVisibility)
}

// apiEmail is the address the API shows for u under u's email visibility
// (see user.EmailVisibility.APIEmail): the real one, or user<ID>@ the
// realm's fake domain.
func (r *Realm) apiEmail(u *user.User) string {
	return r.emailVisibilityOf(u).APIEmail(u, r.users.fakeEmailDomain)
}

// canSeeDeliveryEmail reports whether viewer may see target's real address.
func (r *Realm) canSeeDeliveryEmail(viewer, target *user.User) bool {
	return r.emailVisibilityOf(target).CanSeeDeliveryEmail(viewer, target)
}

// urlHost is the host (and port) of a realm URL.
func urlHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}
