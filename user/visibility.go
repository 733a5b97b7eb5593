package user

// EmailVisibility is the realm's email_address_visibility policy: who may
// see a user's real (delivery) address. Values are Zulip's.
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
// under the policy: everyone sees their own and bots' addresses.
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

// APIEmail is the address the API shows for u (its `email` field): the
// real one for bots and when everyone may see real addresses, else
// user<ID>@zulipdev.com.
func (v EmailVisibility) APIEmail(u *User) string {
	if u.IsBot() || v == EmailVisibilityEveryone {
		return u.DeliveryEmail
	}
	return FakeEmail(u.ID)
}
