// Package user holds the account types of a realm: humans and bots, their
// roles, and the pure rules about them (email matching, avatar URLs).
//
// Values here carry no lock; the realm owns them and guards every access.
package user

// Role is a user's organization role, with Zulip's numeric values.
type Role int

// The roles Zulip knows, lowest number = most privileged.
const (
	RoleOwner     Role = 100
	RoleAdmin     Role = 200
	RoleModerator Role = 300
	RoleMember    Role = 400
	RoleGuest     Role = 600
)

// Valid reports whether r is one of the five known roles.
func (r Role) Valid() bool {
	switch r {
	case RoleOwner, RoleAdmin, RoleModerator, RoleMember, RoleGuest:
		return true
	}
	return false
}

// IsAdmin reports whether the role has administrator rights (owners included).
func (r Role) IsAdmin() bool { return r == RoleOwner || r == RoleAdmin }

// IsModeratorOrAbove reports whether the role is moderator, admin or owner.
func (r Role) IsModeratorOrAbove() bool { return r <= RoleModerator }

// BotType is the kind of a bot account; 0 means "not a bot".
type BotType int

// Bot types as Zulip numbers them.
const (
	NotABot         BotType = 0
	GenericBot      BotType = 1
	IncomingWebhook BotType = 2
	OutgoingWebhook BotType = 3
	EmbeddedBot     BotType = 4
)

// User is one account of a realm. The realm hands out copies or views, never
// the stored pointer, so callers cannot change state behind its lock.
type User struct {
	ID            int
	DeliveryEmail string // the real address, exact case as created
	FullName      string
	Role          Role
	BotType       BotType
	BotOwnerID    int // 0 when none
	// Service is an outgoing-webhook bot's service (zero for other users).
	Service        Service
	IsSystemBot    bool
	IsActive       bool
	IsImportedStub bool
	IsDeleted      bool
	Timezone       string
	DateJoined     int64 // UNIX seconds
	// JoinsOnFirstLogin marks an account created through the API (or
	// imported): its DateJoined becomes the time of its first login.
	JoinsOnFirstLogin bool
	APIKey            string
	// PasswordHash is a HashPassword value; empty means no password login.
	PasswordHash  string
	AvatarSource  string // "G" gravatar, "U" uploaded
	AvatarVersion int
	// AvatarURL is the avatar's URL, kept current by the realm whenever the
	// email or avatar changes.
	AvatarURL string
	// CanCreateUsers and CanChangeUserEmails are the account-management
	// permissions a Zulip server grants only by a management command.
	CanCreateUsers      bool
	CanChangeUserEmails bool
	// ProfileData maps custom profile field id to its value.
	ProfileData map[int]ProfileValue
	Settings    Settings
	// EditedSettings names the settings the user changed themselves (an
	// administrator's bulk update may skip them).
	EditedSettings map[string]bool
}

// ProfileValue is one custom profile field value of a user.
type ProfileValue struct {
	Value         string
	RenderedValue string // empty when the field has no Markdown
}

// IsBot reports whether the account is a bot.
func (u *User) IsBot() bool { return u.BotType != NotABot }

// IsGuest reports whether the user is a guest.
func (u *User) IsGuest() bool { return u.Role == RoleGuest }
