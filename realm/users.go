package realm

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/user"
)

// maxFullNameLength is Zulip's limit on full names.
const maxFullNameLength = 100

// OwnUser answers GET /users/me.
func (a *Actor) OwnUser(ctx context.Context) (OwnUser, error) {
	r := a.r
	r.mu.RLock()
	defer r.mu.RUnlock()
	me, err := a.me()
	if err != nil {
		return OwnUser{}, err
	}
	return r.ownUserView(me), nil
}

// GetUser answers GET /users/{user_id}: any account of the realm, bots and
// deactivated users included.
func (a *Actor) GetUser(ctx context.Context, userID int, o UserViewOptions) (User, error) {
	r := a.r
	r.mu.RLock()
	defer r.mu.RUnlock()
	me, err := a.me()
	if err != nil {
		return User{}, err
	}
	u := r.users[userID]
	if u == nil || u.IsSystemBot {
		return User{}, noSuchUser()
	}
	return r.userView(me, u, o), nil
}

// GetUserByEmail answers GET /users/{email}, by API or delivery email.
func (a *Actor) GetUserByEmail(ctx context.Context, email string, o UserViewOptions) (User, error) {
	r := a.r
	r.mu.RLock()
	defer r.mu.RUnlock()
	me, err := a.me()
	if err != nil {
		return User{}, err
	}
	u := r.userByEmail(email)
	if u == nil || u.IsSystemBot {
		return User{}, noSuchUser()
	}
	return r.userView(me, u, o), nil
}

// ListUsers answers GET /users: every account of the realm (bots and
// deactivated users included, system bots not), by ID.
func (a *Actor) ListUsers(ctx context.Context, o UserViewOptions) ([]User, error) {
	r := a.r
	r.mu.RLock()
	defer r.mu.RUnlock()
	me, err := a.me()
	if err != nil {
		return nil, err
	}
	out := make([]User, 0, len(r.users))
	for _, u := range r.sortedUsers() {
		if !u.IsSystemBot {
			out = append(out, r.userView(me, u, o))
		}
	}
	return out, nil
}

// CreateUser answers POST /users: an administrator who also has the
// can_create_users permission creates a member account.
func (a *Actor) CreateUser(ctx context.Context, email, password, fullName string) (int, error) {
	r := a.r
	r.mu.Lock()
	defer r.mu.Unlock()
	me, err := a.me()
	if err != nil {
		return 0, err
	}
	if !me.Role.IsAdmin() {
		return 0, UnauthorizedPrincipal("Must be an organization administrator")
	}
	if !me.CanCreateUsers {
		return 0, BadRequest("User not authorized to create users")
	}
	u, err := r.validateNewUser(NewUser{Email: email, FullName: fullName, Role: user.RoleMember})
	if err != nil {
		return 0, err
	}
	return r.addUser(u).ID, nil
}

// NewUser describes an account to add directly (Realm.AddUser).
type NewUser struct {
	Email    string
	FullName string
	Role     user.Role // default member
	BotType  user.BotType
	// BotOwnerID is the owner of a bot account.
	BotOwnerID int
	Timezone   string
	// APIKey fixes the key; empty means random.
	APIKey string
}

// AddUser adds an account without any permission check, for seeding tests
// and embedders. It returns the new user's ID.
func (r *Realm) AddUser(spec NewUser) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	u, err := r.validateNewUser(spec)
	if err != nil {
		return 0, err
	}
	return r.addUser(u).ID, nil
}

// SetCanCreateUsers grants or withdraws the can_create_users permission
// (on a Zulip server, granted by a management command).
func (r *Realm) SetCanCreateUsers(userID int, on bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	u := r.users[userID]
	if u == nil {
		return noSuchUser()
	}
	u.CanCreateUsers = on
	return nil
}

// validateNewUser checks a new account's email and name.
func (r *Realm) validateNewUser(spec NewUser) (*user.User, error) {
	email := strings.TrimSpace(spec.Email)
	if !user.ValidEmail(email) {
		return nil, BadRequest("Bad name or username")
	}
	if r.usersByEmail[user.NormalizeEmail(email)] != nil {
		return nil, BadRequest("Email '%s' already in use", email)
	}
	name, err := checkFullName(spec.FullName)
	if err != nil {
		return nil, err
	}
	role := spec.Role
	if role == 0 {
		role = user.RoleMember
	}
	if !role.Valid() {
		return nil, BadRequest("Invalid role")
	}
	if spec.BotOwnerID != 0 && r.users[spec.BotOwnerID] == nil {
		return nil, noSuchUser()
	}
	return &user.User{DeliveryEmail: email, FullName: name, Role: role, BotType: spec.BotType,
		BotOwnerID: spec.BotOwnerID, Timezone: spec.Timezone, APIKey: spec.APIKey}, nil
}

// checkFullName applies Zulip's full-name rules.
func checkFullName(raw string) (string, error) {
	name := strings.TrimSpace(raw)
	if utf8.RuneCountInString(name) > maxFullNameLength {
		return "", BadRequest("Name too long!")
	}
	if name == "" {
		return "", BadRequest("Name too short!")
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f || c == '*' || c == '`' || c == '>' || c == '"' || c == '@' || c == '\\' {
			return "", BadRequest("Invalid characters in name!")
		}
	}
	return name, nil
}
