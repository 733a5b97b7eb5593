package user

// EmailVisibility is an email_address_visibility policy: who may see a
// user's real (delivery) address. Each user has one (a personal setting
// since feature level 163); the realm's is the default. Values are Zulip's.
type EmailVisibility int

// The email_address_visibility values.
const (
	EmailVisibilityEveryone   EmailVisibility = 1
	EmailVisibilityMembers    EmailVisibility = 2
	EmailVisibilityAdmins     EmailVisibility = 3
	EmailVisibilityNobody     EmailVisibility = 4
	EmailVisibilityModerators EmailVisibility = 5
)

// Valid reports whether v is one of Zulip's five policies.
func (v EmailVisibility) Valid() bool {
	return v >= EmailVisibilityEveryone && v <= EmailVisibilityModerators
}

// CanSeeDeliveryEmail reports whether viewer may see target's real address
// when target's policy is v: everyone sees their own and bots' addresses.
func (v EmailVisibility) CanSeeDeliveryEmail(viewer, target *User) bool {
	if viewer.ID == target.ID || target.IsBot() {
		return true
	}
	switch v {
	case EmailVisibilityEveryone:
		return true
	case EmailVisibilityMembers:
		return !viewer.IsGuest()
	case EmailVisibilityAdmins:
		return viewer.Role.IsAdmin()
	case EmailVisibilityModerators:
		return viewer.Role.IsModeratorOrAbove()
	}
	return false
}

// APIEmail is the address the API shows for u (its `email` field) when
// u's policy is v: the real one for bots and when everyone may see real
// addresses, else user<ID>@fakeDomain (see FakeEmailIn).
func (v EmailVisibility) APIEmail(u *User, fakeDomain string) string {
	if u.IsBot() || v == EmailVisibilityEveryone {
		return u.DeliveryEmail
	}
	return FakeEmailIn(u.ID, fakeDomain)
}

// EmailVisibility is u's email_address_visibility: the user's own choice,
// or realmDefault when the user never made one. Bots always show their
// address.
func (u *User) EmailVisibility(realmDefault EmailVisibility) EmailVisibility {
	if u.IsBot() {
		return EmailVisibilityEveryone
	}
	if u.Settings.EmailAddressVisibility != 0 {
		return u.Settings.EmailAddressVisibility
	}
	return realmDefault
}
