package httpapi

import (
	"strconv"

	"github.com/minizulip/minizulip/realm"
)

func userRoutes() []route {
	return []route{
		{method: "GET", path: "/users/me", h: getOwnUser},
		{method: "DELETE", path: "/users/me", h: deactivateOwnUser},
		{method: "GET", path: "/users", h: listUsers, spectators: true, spectatorsSince: &realm.ChangeSpectatorUsers},
		{method: "POST", path: "/users", h: createUser},
		// Zulip has /users/{user_id} (digits) and /users/{email}; one
		// pattern serves both.
		{method: "GET", path: "/users/{user}", h: getUser},
		{method: "PATCH", path: "/users/{user}", h: updateUser, byEmailSince: &realm.ChangeUpdateUserByEmail},
		{method: "DELETE", path: "/users/{user}", h: deactivateUser},
		{method: "POST", path: "/users/{user}/reactivate", h: reactivateUser},
	}
}

func getOwnUser(c *call) (any, error) { return c.actor.OwnUser(c.ctx()) }

// userViewOptions reads client_gravatar (default true) and
// include_custom_profile_fields (default false).
func userViewOptions(c *call) (realm.UserViewOptions, error) {
	var o realm.UserViewOptions
	var err error
	if o.ClientGravatar, err = c.p.optBool("client_gravatar", true); err != nil {
		return o, err
	}
	o.IncludeCustomProfileFields, err = c.p.optBool("include_custom_profile_fields", false)
	return o, err
}

// userAnswer is the body of GET /users/{user_id} and /users/{email}.
type userAnswer struct {
	User realm.User `json:"user"`
}

// getUser serves /users/{user_id} when the segment is all digits and
// /users/{email} otherwise.
func getUser(c *call) (any, error) {
	o, err := userViewOptions(c)
	if err != nil {
		return nil, err
	}
	key := c.req.PathValue("user")
	var u realm.User
	if id, ok := digitsID(key); ok {
		u, err = c.actor.User(c.ctx(), id, o)
	} else {
		u, err = c.actor.UserByEmail(c.ctx(), key, o)
	}
	if err != nil {
		return nil, err
	}
	return userAnswer{User: u}, nil
}

// digitsID parses a path segment made only of ASCII digits; a number too
// large for an int is an ID no user has.
func digitsID(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	id, err := strconv.Atoi(s)
	if err != nil {
		return -1, true
	}
	return id, true
}

// membersAnswer is the body of GET /users.
type membersAnswer struct {
	Members []realm.User `json:"members"`
}

func listUsers(c *call) (any, error) {
	o, err := userViewOptions(c)
	if err != nil {
		return nil, err
	}
	ids, _, err := c.p.optIntList("user_ids")
	if err != nil {
		return nil, err
	}
	req := realm.UserListOptions{UserViewOptions: o, UserIDs: ids}
	if c.spectator != nil {
		// Logged out, with spectator access (feature level 387).
		members, err := c.spectator.Users(c.ctx(), req)
		if err != nil {
			return nil, err
		}
		return map[string]any{"members": members}, nil
	}
	members, err := c.actor.Users(c.ctx(), req)
	if err != nil {
		return nil, err
	}
	return membersAnswer{Members: members}, nil
}

// createdUser is the body of POST /users.
type createdUser struct {
	UserID int `json:"user_id"`
}

func createUser(c *call) (any, error) {
	var p realm.CreateUserRequest
	for _, f := range []struct {
		name string
		dst  **string
	}{{"email", &p.Email}, {"password", &p.Password}, {"full_name", &p.FullName}} {
		if v, ok := c.p.str(f.name); ok {
			*f.dst = &v
		}
	}
	id, err := c.actor.CreateUser(c.ctx(), p)
	if err != nil {
		return nil, err
	}
	return createdUser{UserID: id}, nil
}

func deactivateOwnUser(c *call) (any, error) { return nil, c.actor.DeactivateOwnUser(c.ctx()) }

func deactivateUser(c *call) (any, error) {
	id, err := c.pathInt("user")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.DeactivateUser(c.ctx(), id)
}

func reactivateUser(c *call) (any, error) {
	id, err := c.pathInt("user")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.ReactivateUser(c.ctx(), id)
}

// updateUser is an administrator's PATCH /users/{user_id}, or
// /users/{email} when the segment is not all digits: full_name, role (a
// JSON integer), profile_data (values may be null, a removal) and
// new_email.
func updateUser(c *call) (any, error) {
	var req realm.UserUpdate
	if v, ok := c.p.str("full_name"); ok {
		req.FullName = &v
	}
	role, set, err := c.p.optInt("role")
	if err != nil {
		return nil, err
	}
	if set {
		req.Role = &role
	}
	if req.ProfileData, _, err = profileDataParam(c, "profile_data", true); err != nil {
		return nil, err
	}
	if v, ok := c.p.str("new_email"); ok {
		req.NewEmail = &v
	}
	key := c.req.PathValue("user")
	if id, ok := digitsID(key); ok {
		return nil, c.actor.UpdateUser(c.ctx(), id, req)
	}
	return nil, c.actor.UpdateUserByEmail(c.ctx(), key, req)
}
