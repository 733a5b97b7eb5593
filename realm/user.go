package realm

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/user"
)

// OwnUser answers GET /users/me: the caller's own user object, with
// max_message_id and (for humans) every custom profile field value.
func (a *Actor) OwnUser(ctx context.Context) (ans OwnUser, err error) {
	r := a.r
	err = a.read(ctx, func(me *user.User) error {
		ans = r.ownUserView(me)
		return nil
	})
	return ans, err
}

// User answers GET /users/{user_id}: any account of the realm, bots and
// deactivated users included (system bots live in another realm and are
// not found); a user the caller may not access (user_access.go) is
// refused.
func (a *Actor) User(ctx context.Context, userID int, o UserViewOptions) (ans User, err error) {
	r := a.r
	err = a.read(ctx, func(me *user.User) error {
		u := r.realmUser(userID)
		if u == nil {
			return noSuchUser()
		}
		if !r.canAccessUser(me, u) {
			return BadRequest("Insufficient permission")
		}
		ans = r.userView(me, u, o)
		return nil
	})
	return ans, err
}

// UserByEmail answers GET /users/{email}. As Zulip does from feature
// level 302, a real (delivery) address finds its user only when the caller
// may see that address; the API address user<ID>@zulipdev.com finds any
// user by the ID it embeds. Before 302 only a user's API address (the
// email of user objects) finds them. Matching ignores case.
func (a *Actor) UserByEmail(ctx context.Context, email string, o UserViewOptions) (ans User, err error) {
	r := a.r
	err = a.read(ctx, func(me *user.User) error {
		u := r.userByEmailFor(me, email)
		if !r.has(changeRealEmailLookup) {
			u = r.userByAPIEmail(email)
		}
		if u == nil {
			return noSuchUser()
		}
		if !r.canAccessUser(me, u) {
			return BadRequest("Insufficient permission")
		}
		ans = r.userView(me, u, o)
		return nil
	})
	return ans, err
}

// UserListOptions choose what GET /users returns.
type UserListOptions struct {
	UserViewOptions
	// UserIDs, when non-nil, limits the list to these users (feature
	// level 384); IDs that are not users of the realm are skipped.
	UserIDs []int
}

// Users answers GET /users: the accounts of the realm (bots and
// deactivated users included, system bots not, nor the users a restricted
// guest may not access), by ID.
func (a *Actor) Users(ctx context.Context, o UserListOptions) (ans []User, err error) {
	var wanted map[int]bool
	if o.UserIDs != nil {
		wanted = make(map[int]bool, len(o.UserIDs))
		for _, id := range o.UserIDs {
			wanted[id] = true
		}
	}
	// Copy the users under the lock; build their views after it.
	r := a.r
	var env viewEnv
	var viewer userCard
	var cards []userCard
	err = a.read(ctx, func(me *user.User) error {
		env, viewer = r.viewEnv(), r.userCard(me, false)
		cards = make([]userCard, 0, len(r.users.byID))
		// A restricted guest's list leaves out the users it may not
		// access, as Zulip's get_users_for_api does.
		accessible := r.accessibleUserIDs(me, true)
		for _, u := range r.users.byID {
			if accessible != nil && !u.IsBot() && !accessible[u.ID] {
				continue
			}
			if !u.IsSystemBot && (wanted == nil || wanted[u.ID]) {
				cards = append(cards, r.userCard(u, o.IncludeCustomProfileFields))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(cards, func(a, b userCard) int { return cmp.Compare(a.id, b.id) })
	ans = make([]User, len(cards))
	for i := range cards {
		ans[i] = env.userView(&viewer, &cards[i], o.UserViewOptions)
	}
	return ans, nil
}

// CreateUserRequest is POST /users as sent; a nil field was not sent at
// all (NewCreateUserRequest fills all three).
type CreateUserRequest struct {
	Email, Password, FullName *string
}

// NewCreateUserRequest is a CreateUserRequest with every parameter sent.
func NewCreateUserRequest(email, password, fullName string) CreateUserRequest {
	return CreateUserRequest{Email: &email, Password: &password, FullName: &fullName}
}

// CreateUser creates a member account (POST /users) and returns its ID.
// The caller must be an organization administrator who also holds the
// can_create_users permission (see Realm.SetCanCreateUsers). Checks come
// in Zulip's order: the administrator check, then missing parameters
// (REQUEST_VARIABLE_MISSING), then can_create_users, the name, the address
// and its uniqueness.
func (a *Actor) CreateUser(ctx context.Context, p CreateUserRequest) (ans int, err error) {
	r := a.r
	err = a.write(ctx, func(me *user.User) error {
		if !me.Role.IsAdmin() {
			return UnauthorizedPrincipal("Must be an organization administrator")
		}
		for _, v := range []struct {
			name string
			val  *string
		}{{"email", p.Email}, {"password", p.Password}, {"full_name", p.FullName}} {
			if v.val == nil {
				return VariableMissing(v.name)
			}
		}
		if !me.CanCreateUsers {
			return BadRequest("User not authorized to create users")
		}
		name, err := r.checkFullName(*p.FullName, 0)
		if err != nil {
			return err
		}
		email := strings.TrimSpace(*p.Email)
		if !user.ValidNewEmail(email) {
			return BadRequest("Bad name or username")
		}
		if err := r.emailRefusalOf(email).createUserError(email); err != nil {
			return err
		}
		if err := r.checkEmailFree(email); err != nil {
			return err
		}
		u := r.addUser(&user.User{DeliveryEmail: email, FullName: name, Role: user.RoleMember,
			PasswordHash: user.HashPassword(*p.Password), JoinsOnFirstLogin: true})
		r.announceNewUser(u)
		r.emitExportConsent(u)
		r.welcomeNewUser(u, r.settings.WelcomeMessageCustomText)
		ans = u.ID
		return nil
	})
	return ans, err
}

// NewUser describes an account to add directly with Realm.AddUser.
type NewUser struct {
	Email    string
	FullName string
	// Role defaults to member.
	Role user.Role
	// BotType makes the account a bot; BotOwnerID is its owner (0: none).
	BotType    user.BotType
	BotOwnerID int
	// Timezone is an IANA name; empty means unset.
	Timezone string
	// APIKey fixes the key (32 characters of [A-Za-z0-9]); empty means random.
	APIKey string
	// CanCreateUsers grants the POST /users permission.
	CanCreateUsers bool
}

// AddUser adds an account without any permission check, for tests and
// embedders. The address must be valid and unused, the name non-blank and
// at most 100 characters. Clients with event queues are told as for
// POST /users. It returns the new user's ID.
func (r *Realm) AddUser(spec NewUser) (ans int, err error) {
	err = r.update(func() error {
		email := strings.TrimSpace(spec.Email)
		if !user.ValidNewEmail(email) {
			return BadRequest("Invalid email '%s'", spec.Email)
		}
		if err := r.checkEmailFree(email); err != nil {
			return err
		}
		name := strings.TrimSpace(spec.FullName)
		if name == "" {
			return BadRequest("Name too short!")
		}
		if len([]rune(name)) > user.MaxFullNameLength {
			return BadRequest("Name too long!")
		}
		if err := noNull("full_name", name); err != nil {
			return err
		}
		role := spec.Role
		if role == 0 {
			role = user.RoleMember
		}
		if !role.Valid() {
			return BadRequest("Invalid role")
		}
		if spec.BotType < user.NotABot || spec.BotType > user.EmbeddedBot {
			return BadRequest("Invalid bot type")
		}
		if spec.BotOwnerID != 0 {
			owner := r.realmUser(spec.BotOwnerID)
			if spec.BotType == user.NotABot || owner == nil || owner.IsBot() {
				return BadRequest("Invalid bot owner")
			}
		}
		if spec.APIKey != "" && (!user.WellFormedAPIKey(spec.APIKey) || r.apiKeyInUse(spec.APIKey)) {
			return BadRequest("Invalid API key")
		}
		u := r.addUser(&user.User{
			DeliveryEmail: email, FullName: name, Role: role, BotType: spec.BotType, BotOwnerID: spec.BotOwnerID,
			Timezone: spec.Timezone, APIKey: spec.APIKey, CanCreateUsers: spec.CanCreateUsers,
		})
		r.announceNewUser(u)
		ans = u.ID
		return nil
	})
	return ans, err
}

// SetPassword sets a human account's password for password login
// (POST /fetch_api_key); an empty password turns password login off.
func (r *Realm) SetPassword(userID int, password string) error {
	return r.update(func() error {
		u := r.realmUser(userID)
		if u == nil || u.IsBot() {
			return noSuchUser()
		}
		u.PasswordHash = ""
		if password != "" {
			u.PasswordHash = user.HashPassword(password)
		}
		return nil
	})
}

// SetCanCreateUsers grants or withdraws the can_create_users permission,
// which a Zulip server grants only through a management command.
func (r *Realm) SetCanCreateUsers(userID int, on bool) error {
	return r.update(func() error {
		u := r.realmUser(userID)
		if u == nil {
			return noSuchUser()
		}
		u.CanCreateUsers = on
		return nil
	})
}

// SetCanChangeUserEmails grants or withdraws the can_change_user_emails
// permission, which lets an administrator change another user's address
// (PATCH /users/{user_id} new_email); a Zulip server grants it only
// through a management command.
func (r *Realm) SetCanChangeUserEmails(userID int, on bool) error {
	return r.update(func() error {
		u := r.realmUser(userID)
		if u == nil {
			return noSuchUser()
		}
		u.CanChangeUserEmails = on
		return nil
	})
}

// realmUser is the account with that ID in this realm: system bots, which
// Zulip keeps in a realm of their own, are not.
func (r *Realm) realmUser(id int) *user.User {
	if u := r.users.byID[id]; u != nil && !u.IsSystemBot {
		return u
	}
	return nil
}

// userByEmailFor resolves an email as GET /users/{email} does for viewer;
// the caller holds the lock.
func (r *Realm) userByEmailFor(viewer *user.User, email string) *user.User {
	if id, ok := user.ParseFakeEmailIn(email, r.users.fakeEmailDomain); ok {
		if u := r.realmUser(id); u != nil {
			return u
		}
	}
	if u := r.users.byEmail[user.NormalizeEmail(email)]; u != nil && !u.IsSystemBot && r.canSeeDeliveryEmail(viewer, u) {
		return u
	}
	return nil
}

// userByAPIEmail is the user whose API address (the email of user
// objects) is email, ignoring case; the caller holds the lock.
func (r *Realm) userByAPIEmail(email string) *user.User {
	var u *user.User
	if id, ok := user.ParseFakeEmailIn(email, r.users.fakeEmailDomain); ok {
		u = r.realmUser(id)
	} else {
		u = r.users.byEmail[user.NormalizeEmail(email)]
	}
	if u == nil || u.IsSystemBot || user.NormalizeEmail(r.apiEmail(u)) != user.NormalizeEmail(email) {
		return nil
	}
	return u
}

// checkEmailFree rejects an address some account already has, in any case.
// Zulip checks the realm only; here system bots count too, since their
// addresses share one index with the realm's.
func (r *Realm) checkEmailFree(email string) error {
	if r.users.byEmail[user.NormalizeEmail(email)] != nil {
		return BadRequest("Email '%s' already in use", email)
	}
	return nil
}

func (r *Realm) apiKeyInUse(key string) bool {
	for _, u := range r.users.byID {
		if u.APIKey == key {
			return true
		}
	}
	return false
}

// announceNewUser sends realm_user add to every active user (the real
// address only to those who may see it) and, for bots, realm_bot add to the
// owner and the administrators; the caller holds the write lock.
func (r *Realm) announceNewUser(u *user.User) {
	r.emitRealmUserAdd(u)
	if !u.IsBot() {
		return
	}
	var owners []int
	for _, v := range r.users.sorted() {
		if v.IsActive && !v.IsSystemBot && (v.ID == u.BotOwnerID || v.Role.IsAdmin()) {
			owners = append(owners, v.ID)
		}
	}
	r.emit("realm_bot", RealmBotAddEvent{Op: "add", Bot: r.botView(u)}, owners...)
}

// emitRealmUserAdd sends realm_user add of u to every other active user,
// the real address only to those who may see it.
func (r *Realm) emitRealmUserAdd(u *user.User) {
	o := UserViewOptions{IncludeCustomProfileFields: true}
	var seeing, blind, restricted []int
	var seeingView, blindView User
	for _, v := range r.users.sorted() {
		if !v.IsActive || v.IsSystemBot || v.ID == u.ID {
			continue
		}
		if !u.IsBot() && !r.seesAllUsers(v) {
			// As Zulip's notify_created_user: every guest restricted by
			// can_access_all_users_group hears of a new human user as
			// "Unknown user"; subscriptions it then shares give the
			// real data (emitAccessChanges).
			restricted = append(restricted, v.ID)
			continue
		}
		if r.canSeeDeliveryEmail(v, u) {
			if seeing == nil {
				seeingView = r.userView(v, u, o)
			}
			seeing = append(seeing, v.ID)
		} else {
			if blind == nil {
				blindView = r.userView(v, u, o)
			}
			blind = append(blind, v.ID)
		}
	}
	if seeing != nil {
		r.emit("realm_user", RealmUserAddEvent{Op: "add", Person: seeingView}, seeing...)
	}
	if blind != nil {
		r.emit("realm_user", RealmUserAddEvent{Op: "add", Person: blindView}, blind...)
	}
	if restricted != nil {
		// Clients declaring user_list_incomplete are not told at all.
		r.emitChange(&change{typ: "realm_user", payload: RealmUserAddEvent{Op: "add", Person: r.inaccessibleUserView(u.ID)},
			filter: func(q *Queue) bool { return !q.Config().opts.Capabilities.UserListIncomplete }}, restricted)
	}
}
