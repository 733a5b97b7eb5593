package httpapi

import (
	"strconv"

	"github.com/minizulip/minizulip/realm"
)

func (s *Server) userRoutes() []route {
	return []route{
		{method: "GET", path: "/users/me", h: getOwnUser},
		{method: "GET", path: "/users", h: listUsers},
		{method: "POST", path: "/users", h: createUser},
		{method: "GET", path: "/users/{user}", h: getUser},
	}
}

func getOwnUser(c *call) (any, error) { return c.actor.OwnUser(c.ctx()) }

func userViewOptions(c *call) (realm.UserViewOptions, error) {
	var o realm.UserViewOptions
	var err error
	if o.ClientGravatar, err = c.p.optBool("client_gravatar", true); err != nil {
		return o, err
	}
	o.IncludeCustomProfileFields, err = c.p.optBool("include_custom_profile_fields", false)
	return o, err
}

// userAnswer is the body of GET /users/{user}.
type userAnswer struct {
	User realm.User `json:"user"`
}

// getUser serves both /users/{user_id} and /users/{email}.
func getUser(c *call) (any, error) {
	o, err := userViewOptions(c)
	if err != nil {
		return nil, err
	}
	key := c.req.PathValue("user")
	var u realm.User
	if id, convErr := strconv.Atoi(key); convErr == nil {
		u, err = c.actor.GetUser(c.ctx(), id, o)
	} else {
		u, err = c.actor.GetUserByEmail(c.ctx(), key, o)
	}
	if err != nil {
		return nil, err
	}
	return userAnswer{User: u}, nil
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
	members, err := c.actor.ListUsers(c.ctx(), o)
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
	email, err := c.p.mustStr("email")
	if err != nil {
		return nil, err
	}
	password, err := c.p.mustStr("password")
	if err != nil {
		return nil, err
	}
	fullName, err := c.p.mustStr("full_name")
	if err != nil {
		return nil, err
	}
	id, err := c.actor.CreateUser(c.ctx(), email, password, fullName)
	if err != nil {
		return nil, err
	}
	return createdUser{UserID: id}, nil
}
