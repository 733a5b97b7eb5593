package realm

import (
	"slices"
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
	IsBillingAdmin bool                         `json:"is_billing_admin"`
	IsBot          bool                         `json:"is_bot"`
	BotType        *int                         `json:"bot_type"`
	BotOwnerID     *int                         `json:"bot_owner_id"`
	IsSystemBot    bool                         `json:"is_system_bot,omitempty"`
	Role           int                          `json:"role"`
	Timezone       string                       `json:"timezone"`
	AvatarURL      *string                      `json:"avatar_url"`
	AvatarVersion  int                          `json:"avatar_version"`
	IsImportedStub bool                         `json:"is_imported_stub"`
	IsDeleted      bool                         `json:"is_deleted,omitempty"`
	ProfileData    map[string]ProfileFieldValue `json:"profile_data,omitzero"`
}

// OwnUser is the caller's own user object (GET /users/me).
type OwnUser struct {
	AvatarURL      string                       `json:"avatar_url"`
	AvatarVersion  int                          `json:"avatar_version"`
	Email          string                       `json:"email"`
	FullName       string                       `json:"full_name"`
	IsAdmin        bool                         `json:"is_admin"`
	IsOwner        bool                         `json:"is_owner"`
	IsBillingAdmin bool                         `json:"is_billing_admin"`
	Role           int                          `json:"role"`
	IsGuest        bool                         `json:"is_guest"`
	IsBot          bool                         `json:"is_bot"`
	IsActive       bool                         `json:"is_active"`
	IsImportedStub bool                         `json:"is_imported_stub"`
	Timezone       string                       `json:"timezone"`
	DateJoined     string                       `json:"date_joined"`
	MaxMessageID   int64                        `json:"max_message_id"`
	UserID         int                          `json:"user_id"`
	DeliveryEmail  string                       `json:"delivery_email"`
	ProfileData    map[string]ProfileFieldValue `json:"profile_data,omitzero"`
}

// UserViewOptions choose optional parts of user objects.
type UserViewOptions struct {
	// ClientGravatar lets the client compute Gravatar URLs: avatar_url is
	// null where it may see the real email.
	ClientGravatar bool
	// IncludeCustomProfileFields adds profile_data to non-bot users.
	IncludeCustomProfileFields bool
}

// isoTime formats a UNIX time as Python's isoformat() does for UTC.
func isoTime(unix int64) string {
	t := time.Unix(unix, 0).UTC()
	return t.Format("2006-01-02T15:04:05") + "+00:00"
}

// userView builds the API object of target as viewer sees it; the caller
// holds the lock.
func (r *Realm) userView(viewer, target *user.User, o UserViewOptions) User {
	v := User{
		UserID: target.ID, Email: r.apiEmail(target), FullName: target.FullName,
		DateJoined: isoTime(target.DateJoined), IsActive: target.IsActive,
		IsOwner: target.Role == user.RoleOwner, IsAdmin: target.Role.IsAdmin(), IsGuest: target.IsGuest(),
		IsBot: target.IsBot(), IsSystemBot: target.IsSystemBot, Role: int(target.Role), Timezone: target.Timezone,
		AvatarURL: r.avatarURL(viewer, target, o.ClientGravatar), AvatarVersion: target.AvatarVersion,
		IsImportedStub: target.IsImportedStub, IsDeleted: target.IsDeleted,
	}
	if r.canSeeDeliveryEmail(viewer, target) {
		email := target.DeliveryEmail
		v.DeliveryEmail = &email
	}
	if target.IsBot() {
		bt := int(target.BotType)
		v.BotType = &bt
		if target.BotOwnerID != 0 {
			owner := target.BotOwnerID
			v.BotOwnerID = &owner
		}
	} else if o.IncludeCustomProfileFields {
		v.ProfileData = r.profileData(target)
	}
	return v
}

// ownUserView builds GET /users/me for u.
func (r *Realm) ownUserView(u *user.User) OwnUser {
	v := OwnUser{
		AvatarURL: u.AvatarURL, AvatarVersion: u.AvatarVersion, Email: r.apiEmail(u), FullName: u.FullName,
		IsAdmin: u.Role.IsAdmin(), IsOwner: u.Role == user.RoleOwner, Role: int(u.Role), IsGuest: u.IsGuest(),
		IsBot: u.IsBot(), IsActive: u.IsActive, IsImportedStub: u.IsImportedStub, Timezone: u.Timezone,
		DateJoined: isoTime(u.DateJoined), MaxMessageID: r.maxMessageIDOf(u.ID), UserID: u.ID,
		DeliveryEmail: u.DeliveryEmail,
	}
	if !u.IsBot() {
		v.ProfileData = r.profileData(u)
	}
	return v
}

// fillRealmUsers is the realm_user state section: active and inactive
// accounts, the cross-realm bots and the caller's own fields.
func fillRealmUsers(r *Realm, me *user.User, req *RegisterRequest, out RegisterResult) {
	o := UserViewOptions{ClientGravatar: req.Queue.ClientGravatar, IncludeCustomProfileFields: true}
	active, inactive, crossRealm := []User{}, []User{}, []User{}
	for _, u := range r.sortedUsers() {
		v := r.userView(me, u, o)
		switch {
		case u.IsSystemBot:
			crossRealm = append(crossRealm, v)
		case u.IsActive:
			active = append(active, v)
		default:
			inactive = append(inactive, v)
		}
	}
	slices.SortFunc(crossRealm, func(a, b User) int { return strings.Compare(a.FullName, b.FullName) })
	out["realm_users"] = active
	out["realm_non_active_users"] = inactive
	out["cross_realm_bots"] = crossRealm
	own := r.ownUserView(me)
	for k, v := range map[string]any{
		"user_id": me.ID, "email": own.Email, "delivery_email": me.DeliveryEmail, "full_name": me.FullName,
		"is_admin": own.IsAdmin, "is_owner": own.IsOwner, "is_moderator": me.Role == user.RoleModerator,
		"is_guest": own.IsGuest, "is_billing_admin": false, "avatar_source": me.AvatarSource,
		"avatar_url": me.AvatarURL, "avatar_url_medium": me.AvatarURL,
		"can_create_streams":            r.inGroup(r.settings.CanCreatePublicChannelGroup, me.ID) || r.inGroup(r.settings.CanCreatePrivateChannelGroup, me.ID),
		"can_create_public_streams":     r.inGroup(r.settings.CanCreatePublicChannelGroup, me.ID),
		"can_create_private_streams":    r.inGroup(r.settings.CanCreatePrivateChannelGroup, me.ID),
		"can_create_web_public_streams": me.Role.IsModeratorOrAbove(),
		"can_subscribe_other_users":     r.inGroup(r.settings.CanAddSubscribersGroup, me.ID),
		"can_invite_others_to_realm":    me.Role.IsAdmin(),
	} {
		out[k] = v
	}
}

// fillRealmBots is the realm_bot section: the caller's own bots.
func fillRealmBots(r *Realm, me *user.User, req *RegisterRequest, out RegisterResult) {
	bots := []map[string]any{}
	for _, u := range r.sortedUsers() {
		if u.IsBot() && !u.IsSystemBot && (u.BotOwnerID == me.ID || me.Role.IsAdmin()) {
			var owner any
			if o := r.users[u.BotOwnerID]; o != nil {
				owner = r.apiEmail(o)
			}
			bots = append(bots, map[string]any{
				"user_id": u.ID, "full_name": u.FullName, "api_key": u.APIKey, "email": u.DeliveryEmail,
				"avatar_url": u.AvatarURL, "bot_type": int(u.BotType), "is_active": u.IsActive,
				"owner_id": u.BotOwnerID, "owner": owner, "default_sending_stream": nil,
				"default_events_register_stream": nil, "default_all_public_streams": false, "services": []any{},
			})
		}
	}
	out["realm_bots"] = bots
}
