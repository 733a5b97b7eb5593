package realm

import (
	"strings"
	"time"

	"github.com/minizulip/minizulip/user"
)

// User is a user object as GET /users and GET /users/{id} return it.
type User struct {
	UserID         int                          `json:"user_id"`
	DeliveryEmail  *string                      `json:"delivery_email"`
	Email          string                       `json:"email"`
	FullName       string                       `json:"full_name"`
	DateJoined     string                       `json:"date_joined"`
	IsActive       bool                         `json:"is_active"`
	IsOwner        bool                         `json:"is_owner"`
	IsAdmin        bool                         `json:"is_admin"`
	IsGuest        bool                         `json:"is_guest"`
	IsBillingAdmin *bool                        `json:"is_billing_admin,omitempty"` // below feature level 363
	IsBot          bool                         `json:"is_bot"`
	BotType        *int                         `json:"bot_type"`
	BotOwnerID     *int                         `json:"bot_owner_id"`
	IsSystemBot    bool                         `json:"is_system_bot,omitempty"`
	Role           int                          `json:"role"`
	Timezone       string                       `json:"timezone"`
	AvatarURL      *string                      `json:"avatar_url"`
	AvatarVersion  int                          `json:"avatar_version"`
	IsImportedStub *bool                        `json:"is_imported_stub,omitempty"` // from feature level 433
	IsDeleted      bool                         `json:"is_deleted,omitempty"`
	ProfileData    map[string]ProfileFieldValue `json:"profile_data,omitzero"`
}

// OwnUser is the caller's own user object (GET /users/me).
type OwnUser struct {
	AvatarURL      string `json:"avatar_url"`
	AvatarVersion  int    `json:"avatar_version"`
	Email          string `json:"email"`
	FullName       string `json:"full_name"`
	IsAdmin        bool   `json:"is_admin"`
	IsOwner        bool   `json:"is_owner"`
	IsBillingAdmin *bool  `json:"is_billing_admin,omitempty"` // below feature level 363
	Role           int    `json:"role"`
	IsGuest        bool   `json:"is_guest"`
	IsBot          bool   `json:"is_bot"`
	IsActive       bool   `json:"is_active"`
	IsImportedStub *bool  `json:"is_imported_stub,omitempty"` // from feature level 433
	Timezone       string `json:"timezone"`
	DateJoined     string `json:"date_joined"`
	MaxMessageID   int64  `json:"max_message_id"`
	UserID         int    `json:"user_id"`
	DeliveryEmail  string `json:"delivery_email"`
	// BotType and BotOwnerID are sent for bots only.
	BotType     *int                         `json:"bot_type,omitempty"`
	BotOwnerID  *int                         `json:"bot_owner_id,omitempty"`
	ProfileData map[string]ProfileFieldValue `json:"profile_data,omitzero"`
}

// RealmUserAddEvent is the realm_user event announcing a new account with
// its user object.
type RealmUserAddEvent struct {
	Op     string `json:"op"`
	Person User   `json:"person"`
}

// RealmBotAddEvent is the realm_bot event telling a bot's owner and the
// administrators about a new bot.
type RealmBotAddEvent struct {
	Op  string `json:"op"`
	Bot Bot    `json:"bot"`
}

// Bot is a bot as register's realm_bots and realm_bot events show it.
type Bot struct {
	UserID                      int          `json:"user_id"`
	FullName                    string       `json:"full_name"`
	APIKey                      string       `json:"api_key"`
	Email                       string       `json:"email"`
	AvatarURL                   string       `json:"avatar_url"`
	BotType                     int          `json:"bot_type"`
	IsActive                    bool         `json:"is_active"`
	OwnerID                     *int         `json:"owner_id"`
	DefaultSendingStream        *string      `json:"default_sending_stream"`
	DefaultEventsRegisterStream *string      `json:"default_events_register_stream"`
	DefaultAllPublicStreams     bool         `json:"default_all_public_streams"`
	Services                    []BotService `json:"services"`
}

// UserViewOptions choose optional parts of user objects.
type UserViewOptions struct {
	// ClientGravatar lets the client compute Gravatar URLs: avatar_url is
	// null where it may see the real email.
	ClientGravatar bool
	// IncludeCustomProfileFields adds profile_data to non-bot users.
	IncludeCustomProfileFields bool
}

// importedStubField is is_imported_stub for the feature levels that send
// it (433 on), else nil (absent).
func (r *Realm) importedStubField(stub bool) *bool {
	e := r.viewEnv()
	return e.importedStubField(stub)
}

// importedStubField is is_imported_stub for the feature levels that send
// it (433 on), else nil (absent).
func (e *viewEnv) importedStubField(stub bool) *bool {
	if !e.has(changeImportedStubField) {
		return nil
	}
	return &stub
}

// billingAdminField is is_billing_admin (always false here) for the
// feature levels that still send it, else nil (absent).
func (r *Realm) billingAdminField() *bool {
	e := viewEnv{featureLevel: r.opts.FeatureLevel}
	return e.billingAdminField()
}

// isoTime formats a UNIX time as Python's isoformat() does for UTC.
func isoTime(unix int64) string {
	t := time.Unix(unix, 0).UTC()
	return t.Format("2006-01-02T15:04:05") + "+00:00"
}

// dateJoined is a user object's date_joined: to the minute from
// changeDateJoinedMinutes (Python's isoformat(timespec="minutes")), to
// the second before.
func (e *viewEnv) dateJoined(unix int64) string {
	if !e.has(changeDateJoinedMinutes) {
		return isoTime(unix)
	}
	return time.Unix(unix, 0).UTC().Format("2006-01-02T15:04") + "+00:00"
}

// dateJoined is dateJoined at the realm's level.
func (r *Realm) dateJoined(unix int64) string {
	e := viewEnv{featureLevel: r.opts.FeatureLevel}
	return e.dateJoined(unix)
}

// userView builds the API object of target as viewer sees it; the caller
// holds the lock.
func (r *Realm) userView(viewer, target *user.User, o UserViewOptions) User {
	env := r.viewEnv()
	vc, tc := r.userCard(viewer, false), r.userCard(target, o.IncludeCustomProfileFields)
	return env.userView(&vc, &tc, o)
}

// userView builds the API object of target as viewer sees it, from cards
// copied under the lock (the lock need not be held).
func (e *viewEnv) userView(viewer, target *userCard, o UserViewOptions) User {
	v := User{
		UserID: target.id, Email: e.email(target), FullName: target.fullName,
		DateJoined: e.dateJoined(target.dateJoined), IsActive: target.isActive,
		IsOwner: target.role == user.RoleOwner, IsAdmin: target.role.IsAdmin(), IsGuest: target.role == user.RoleGuest,
		IsBot: target.isBot(), IsSystemBot: target.isSystemBot, Role: int(target.role), Timezone: target.timezone,
		AvatarURL: avatarURL(viewer, target, o.ClientGravatar), AvatarVersion: target.avatarVersion,
		IsImportedStub: e.importedStubField(target.isImportedStub), IsDeleted: target.isDeleted,
		IsBillingAdmin: e.billingAdminField(),
	}
	if canSeeDeliveryEmail(viewer, target) {
		email := target.deliveryEmail
		v.DeliveryEmail = &email
	}
	if target.isBot() {
		bt := int(target.botType)
		v.BotType = &bt
		if target.botOwnerID != 0 {
			owner := target.botOwnerID
			v.BotOwnerID = &owner
		}
	} else if o.IncludeCustomProfileFields {
		v.ProfileData = target.profile
	}
	return v
}

// ownUserView builds GET /users/me for u.
func (r *Realm) ownUserView(u *user.User) OwnUser {
	v := OwnUser{
		AvatarURL: u.AvatarURL, AvatarVersion: u.AvatarVersion, Email: r.apiEmail(u), FullName: u.FullName,
		IsAdmin: u.Role.IsAdmin(), IsOwner: u.Role == user.RoleOwner, Role: int(u.Role), IsGuest: u.IsGuest(),
		IsBot: u.IsBot(), IsActive: u.IsActive, IsImportedStub: r.importedStubField(u.IsImportedStub), Timezone: u.Timezone,
		DateJoined: r.dateJoined(u.DateJoined), MaxMessageID: r.maxMessageIDOf(u.ID), UserID: u.ID,
		DeliveryEmail: u.DeliveryEmail, IsBillingAdmin: r.billingAdminField(),
	}
	if u.IsBot() {
		bt := int(u.BotType)
		v.BotType = &bt
		if u.BotOwnerID != 0 {
			owner := u.BotOwnerID
			v.BotOwnerID = &owner
		}
	} else {
		v.ProfileData = r.profileData(u)
	}
	return v
}

// botView is the realm_bots object of a bot; the caller holds the lock.
func (r *Realm) botView(u *user.User) Bot {
	b := Bot{
		UserID: u.ID, FullName: u.FullName, APIKey: u.APIKey, Email: u.DeliveryEmail, AvatarURL: u.AvatarURL,
		BotType: int(u.BotType), IsActive: u.IsActive, Services: botServices(u),
	}
	if o := r.users.byID[u.BotOwnerID]; o != nil {
		id := o.ID
		b.OwnerID = &id
	}
	return b
}

// BotService is an outgoing-webhook bot's service as bot objects show it
// (embedded bots' services are not modelled).
type BotService struct {
	BaseURL   string `json:"base_url"`
	Interface int    `json:"interface"`
	Token     string `json:"token"`
}

// botServices is the services list of u's bot object: one service for an
// outgoing-webhook bot, none otherwise.
func botServices(u *user.User) []BotService {
	if !u.HasService() {
		return []BotService{}
	}
	return []BotService{{BaseURL: u.Service.BaseURL, Interface: u.Service.Interface, Token: u.Service.Token}}
}

// mediumAvatarURL is the 500-pixel variant of u's avatar URL.
func mediumAvatarURL(u *user.User) string {
	if u.AvatarSource == "G" {
		return strings.Replace(u.AvatarURL, "?d=identicon", "?d=identicon&s=500", 1)
	}
	return u.AvatarURL
}
