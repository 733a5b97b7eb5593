package httpapi

import (
	"net/http"

	"github.com/minizulip/minizulip/realm"
)

// specialPermissionParams are what POST /minizulip/special_permissions
// takes.
var specialPermissionParams = []string{"user", "can_create_users", "can_change_user_emails"}

// setSpecialPermissions grants or withdraws a user's special permissions,
// which a Zulip server grants only through a management command
// (change_user_role): can_create_users (POST /users) and
// can_change_user_emails (PATCH /users/{user_id} new_email). Each is a
// JSON boolean; one left out is left as it is.
func (s *Server) setSpecialPermissions(_ *http.Request, p *params) (any, error) {
	email, ok := p.str("user")
	if !ok {
		return nil, realm.VariableMissing("user")
	}
	id, found := s.realm.UserIDByEmail(email)
	if !found {
		return nil, realm.BadRequest("No user with email %q", email)
	}
	createUsers, setCreate, err := p.optBoolSet("can_create_users")
	if err != nil {
		return nil, err
	}
	changeEmails, setChange, err := p.optBoolSet("can_change_user_emails")
	if err != nil {
		return nil, err
	}
	if setCreate {
		if err := s.realm.SetCanCreateUsers(id, createUsers); err != nil {
			return nil, err
		}
	}
	if setChange {
		if err := s.realm.SetCanChangeUserEmails(id, changeEmails); err != nil {
			return nil, err
		}
	}
	return nil, nil
}
