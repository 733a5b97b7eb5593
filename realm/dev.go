package realm

import (
	"crypto/md5"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/user"
)

// incompatibleClientName is the client name Zulip's server_settings
// reports as incompatible, for clients to test their upgrade prompt.
const incompatibleClientName = "ZulipInvalid"

// DevLogin is the answer of the dev server's dev_fetch_api_key.
type DevLogin struct {
	APIKey string `json:"api_key"`
	Email  string `json:"email"`
	UserID int    `json:"user_id"`
}

// DevFetchAPIKey logs a user in without a password, as a Zulip dev server
// does: the delivery email is matched case-insensitively and returned as
// stored, with the user's unchanging API key. Bots may log in; the system
// bots live in another realm.
func (r *Realm) DevFetchAPIKey(username string) (DevLogin, error) {
	return r.login(username, nil)
}

// FetchAPIKey is password login (POST /fetch_api_key): the account's
// delivery email, case-insensitively, and its password. Bots and accounts
// without a password cannot log in this way. The seeded dev realm's human
// accounts have the password user.DevPassword.
func (r *Realm) FetchAPIKey(username, password string) (DevLogin, error) {
	return r.login(username, &password)
}

// login answers both logins; password is nil for the dev login.
func (r *Realm) login(username string, password *string) (DevLogin, error) {
	if !user.LooksLikeEmail(username) {
		return DevLogin{}, BadRequest("Enter a valid email address.")
	}
	incorrect := &Error{Code: CodeAuthenticationFailed, Msg: "Your username or password is incorrect", Status: statusUnauthorized}
	var login DevLogin
	err := r.update(func() error {
		// A method the realm turned off refuses every login its way,
		// before the account is looked up (auth_methods.go).
		switch {
		case password != nil && !r.settings.AuthenticationMethods.Email:
			return &Error{Code: CodePasswordAuthDisabled, Msg: "Password authentication is disabled in this organization", Status: statusUnauthorized}
		case password == nil && !r.settings.AuthenticationMethods.Dev:
			return incorrect
		}
		u := r.users.byEmail[user.NormalizeEmail(username)]
		if u == nil || !strings.EqualFold(u.DeliveryEmail, username) {
			return incorrect
		}
		if u.IsSystemBot {
			return &Error{Code: CodeNonexistentSubdomain, Msg: "Invalid subdomain", Status: statusNotFound}
		}
		if password != nil && (u.IsBot() || !user.CheckPassword(u.PasswordHash, *password)) {
			return incorrect
		}
		if !u.IsActive {
			return &Error{Code: CodeUserDeactivated, Msg: "Account is deactivated", Status: statusUnauthorized}
		}
		login = DevLogin{APIKey: u.APIKey, Email: u.DeliveryEmail, UserID: u.ID}
		if u.JoinsOnFirstLogin {
			// An API-created account joins when it first logs in.
			u.DateJoined, u.JoinsOnFirstLogin = r.clock.Now().Unix(), false
		}
		return nil
	})
	return login, err
}

// DevUser is one entry of dev_list_users. RealmURL is sent from feature
// level 257 on, when Zulip renamed realm_uri.
type DevUser struct {
	Email    string `json:"email"`
	RealmURI string `json:"realm_uri"`
	RealmURL string `json:"realm_url,omitempty"`
}

// DevUserList is the answer of the dev server's dev_list_users.
type DevUserList struct {
	DirectAdmins []DevUser `json:"direct_admins"`
	DirectUsers  []DevUser `json:"direct_users"`
}

// DevListUsers lists the active human accounts, administrators and owners
// apart from everyone else. Like Zulip it orders them by the account's
// `email` column, which is the API address (user<ID>@zulipdev.com while
// addresses are hidden), and lists each by its delivery address.
func (r *Realm) DevListUsers() DevUserList {
	var list DevUserList
	_ = r.view(func() error {
		type entry struct {
			u   *user.User
			key string
		}
		humans := []entry{}
		for _, u := range r.users.byID {
			if u.IsActive && !u.IsBot() && !u.IsSystemBot {
				humans = append(humans, entry{u, r.apiEmail(u)})
			}
		}
		slices.SortFunc(humans, func(a, b entry) int {
			if c := strings.Compare(a.key, b.key); c != 0 {
				return c
			}
			return a.u.ID - b.u.ID
		})
		out := DevUserList{DirectAdmins: []DevUser{}, DirectUsers: []DevUser{}}
		for _, h := range humans {
			du := DevUser{Email: h.u.DeliveryEmail, RealmURI: r.opts.URL}
			if r.has(changeRealmURL) {
				du.RealmURL = r.opts.URL
			}
			if h.u.Role.IsAdmin() {
				out.DirectAdmins = append(out.DirectAdmins, du)
			} else {
				out.DirectUsers = append(out.DirectUsers, du)
			}
		}
		list = out
		return nil
	})
	return list
}

// ExternalAuthMethod is one entry of external_authentication_methods.
type ExternalAuthMethod struct {
	Name        string  `json:"name"`
	DisplayName string  `json:"display_name"`
	DisplayIcon *string `json:"display_icon"`
	LoginURL    string  `json:"login_url"`
	SignupURL   string  `json:"signup_url"`
}

// ServerSettings is the answer of GET /server_settings.
type ServerSettings struct {
	AuthenticationMethods         map[string]bool      `json:"authentication_methods"`
	ExternalAuthenticationMethods []ExternalAuthMethod `json:"external_authentication_methods"`
	ZulipFeatureLevel             int                  `json:"zulip_feature_level"`
	ZulipVersion                  string               `json:"zulip_version"`
	ZulipMergeBase                string               `json:"zulip_merge_base"`
	PushNotificationsEnabled      bool                 `json:"push_notifications_enabled"`
	IsIncompatible                bool                 `json:"is_incompatible"`
	EmailAuthEnabled              bool                 `json:"email_auth_enabled"`
	RequireEmailFormatUsernames   bool                 `json:"require_email_format_usernames"`
	RealmURI                      string               `json:"realm_uri"`
	// RealmURL is sent from feature level 257 on.
	RealmURL                    string `json:"realm_url,omitempty"`
	RealmName                   string `json:"realm_name"`
	RealmIcon                   string `json:"realm_icon"`
	RealmDescription            string `json:"realm_description"`
	RealmWebPublicAccessEnabled bool   `json:"realm_web_public_access_enabled"`
}

// ServerSettingsRequest is what GET /server_settings depends on besides
// the realm.
type ServerSettingsRequest struct {
	// ClientName is the client's name as its User-Agent gives it (the
	// adapter parses the header): Zulip flags "ZulipInvalid" as
	// incompatible.
	ClientName string
	// DevLogin says whether the dev login endpoints are served.
	DevLogin bool
}

// ServerSettings answers GET /server_settings, which needs no login; it
// advertises only the login methods that work.
func (r *Realm) ServerSettings(req ServerSettingsRequest) ServerSettings {
	var settings ServerSettings
	_ = r.view(func() error {
		webPublic := false
		for _, c := range r.channels.byID {
			webPublic = webPublic || (c.IsWebPublic && !c.IsArchived)
		}
		methods := r.settings.AuthenticationMethods
		s := ServerSettings{
			// Only the login methods minizulip answers, and the realm
			// has on, are on.
			AuthenticationMethods: map[string]bool{
				"password": methods.Email, "dev": req.DevLogin && methods.Dev, "email": methods.Email, "ldap": false, "remoteuser": false, "github": false,
				"azuread": false, "gitlab": false, "apple": false, "google": false, "saml": false, "openid connect": false,
			},
			ExternalAuthenticationMethods: []ExternalAuthMethod{},
			ZulipFeatureLevel:             r.opts.FeatureLevel,
			ZulipVersion:                  r.opts.Version,
			ZulipMergeBase:                mergeBase(r.opts.Version),
			IsIncompatible:                req.ClientName == incompatibleClientName,
			EmailAuthEnabled:              methods.Email,
			RequireEmailFormatUsernames:   true,
			RealmURI:                      r.opts.URL,
			RealmName:                     r.settings.Name,
			RealmIcon:                     realmIconURL(realmStringID),
			RealmDescription:              r.renderer.Render(r.settings.Description),
			RealmWebPublicAccessEnabled:   r.settings.EnableSpectatorAccess && webPublic,
		}
		if r.has(changeRealmURL) {
			s.RealmURL = r.opts.URL
		}
		settings = s
		return nil
	})
	return settings
}

// realmIconURL is the default (Gravatar identicon) icon of a realm whose
// icon was never uploaded, keyed by its string ID.
func realmIconURL(stringID string) string {
	sum := md5.Sum([]byte(strings.ToLower(stringID)))
	return "https://secure.gravatar.com/avatar/" + hex.EncodeToString(sum[:]) + "?d=identicon"
}
