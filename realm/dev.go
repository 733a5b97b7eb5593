package realm

import (
	"net/http"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/user"
)

// DevLogin is the answer of the dev server's dev_fetch_api_key.
type DevLogin struct {
	APIKey string `json:"api_key"`
	Email  string `json:"email"`
	UserID int    `json:"user_id"`
}

// DevFetchAPIKey logs a user in without a password, as a Zulip dev server
// does: the email is matched case-insensitively and returned as stored.
func (r *Realm) DevFetchAPIKey(username string) (DevLogin, error) {
	if !user.ValidEmail(strings.TrimSpace(username)) {
		return DevLogin{}, BadRequest("Enter a valid email address.")
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	u := r.usersByEmail[user.NormalizeEmail(username)]
	if u == nil || u.IsSystemBot {
		return DevLogin{}, &Error{Code: CodeAuthenticationFailed, Msg: "Your username or password is incorrect", Status: http.StatusUnauthorized}
	}
	if !u.IsActive {
		return DevLogin{}, &Error{Code: CodeUserDeactivated, Msg: "Account is deactivated", Status: http.StatusUnauthorized}
	}
	return DevLogin{APIKey: u.APIKey, Email: u.DeliveryEmail, UserID: u.ID}, nil
}

// DevUser is one entry of dev_list_users.
type DevUser struct {
	Email    string `json:"email"`
	RealmURI string `json:"realm_uri"`
}

// DevUserList is the answer of the dev server's dev_list_users.
type DevUserList struct {
	DirectAdmins []DevUser `json:"direct_admins"`
	DirectUsers  []DevUser `json:"direct_users"`
}

// DevListUsers lists the active human accounts by email: administrators
// and owners apart from everyone else.
func (r *Realm) DevListUsers() DevUserList {
	r.mu.RLock()
	defer r.mu.RUnlock()
	humans := []*user.User{}
	for _, u := range r.users {
		if u.IsActive && !u.IsBot() {
			humans = append(humans, u)
		}
	}
	slices.SortFunc(humans, func(a, b *user.User) int { return strings.Compare(a.DeliveryEmail, b.DeliveryEmail) })
	out := DevUserList{DirectAdmins: []DevUser{}, DirectUsers: []DevUser{}}
	for _, u := range humans {
		du := DevUser{Email: u.DeliveryEmail, RealmURI: r.opts.URL}
		if u.Role.IsAdmin() {
			out.DirectAdmins = append(out.DirectAdmins, du)
		} else {
			out.DirectUsers = append(out.DirectUsers, du)
		}
	}
	return out
}

// ServerSettings is the answer of GET /server_settings.
type ServerSettings struct {
	AuthenticationMethods         map[string]bool `json:"authentication_methods"`
	ExternalAuthenticationMethods []any           `json:"external_authentication_methods"`
	ZulipFeatureLevel             int             `json:"zulip_feature_level"`
	ZulipVersion                  string          `json:"zulip_version"`
	ZulipMergeBase                string          `json:"zulip_merge_base"`
	PushNotificationsEnabled      bool            `json:"push_notifications_enabled"`
	IsIncompatible                bool            `json:"is_incompatible"`
	EmailAuthEnabled              bool            `json:"email_auth_enabled"`
	RequireEmailFormatUsernames   bool            `json:"require_email_format_usernames"`
	RealmURI                      string          `json:"realm_uri"`
	RealmURL                      string          `json:"realm_url"`
	RealmName                     string          `json:"realm_name"`
	RealmIcon                     string          `json:"realm_icon"`
	RealmDescription              string          `json:"realm_description"`
	RealmWebPublicAccessEnabled   bool            `json:"realm_web_public_access_enabled"`
}

// ServerSettings answers GET /server_settings, which needs no login.
func (r *Realm) ServerSettings() ServerSettings {
	r.mu.RLock()
	defer r.mu.RUnlock()
	webPublic := false
	for _, c := range r.channels {
		webPublic = webPublic || (c.IsWebPublic && !c.IsArchived)
	}
	return ServerSettings{
		AuthenticationMethods: map[string]bool{
			"password": true, "dev": true, "email": true, "ldap": false, "remoteuser": false, "github": false,
			"azuread": false, "gitlab": false, "apple": false, "google": false, "saml": false, "openid connect": false,
		},
		ExternalAuthenticationMethods: []any{},
		ZulipFeatureLevel:             r.opts.FeatureLevel,
		ZulipVersion:                  r.opts.Version,
		ZulipMergeBase:                r.opts.Version,
		EmailAuthEnabled:              true,
		RequireEmailFormatUsernames:   true,
		RealmURI:                      r.opts.URL,
		RealmURL:                      r.opts.URL,
		RealmName:                     r.settings.Name,
		RealmIcon:                     r.opts.URL + "/static/images/logo/zulip-icon-128x128.png",
		RealmDescription:              r.renderer.Render(r.settings.Description),
		RealmWebPublicAccessEnabled:   r.settings.EnableSpectatorAccess && webPublic,
	}
}
