package realm

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/minizulip/minizulip/user"
)

// This file holds the user objects a spectator gets (register's
// realm_users, GET /json/users): Zulip's format_user_row for no acting
// user.

// Users answers a logged-out GET /json/users (feature level 387): every
// account of the realm but the system bots, as Zulip's get_members_backend
// lists them for no acting user (spectatorUser). Custom
// profile field values are left out, as register leaves them out for
// spectators, whatever include_custom_profile_fields says.
func (s *Spectator) Users(ctx context.Context, o UserListOptions) ([]SpectatorUser, error) {
	r := s.r
	var wanted map[int]bool
	if o.UserIDs != nil {
		wanted = make(map[int]bool, len(o.UserIDs))
		for _, id := range o.UserIDs {
			wanted[id] = true
		}
	}
	o.IncludeCustomProfileFields = false
	var out []SpectatorUser
	err := s.read(ctx, func(me *user.User) error {
		env, viewer := r.viewEnv(), r.userCard(me, false)
		out = []SpectatorUser{}
		for _, u := range r.users.sorted() {
			if u.IsSystemBot || (wanted != nil && !wanted[u.ID]) {
				continue
			}
			card := r.userCard(u, false)
			out = append(out, SpectatorUser{spectatorUser(env.userView(&viewer, &card, o.UserViewOptions))})
		}
		return nil
	})
	return out, err
}

// spectatorID is the ID of the stand-in user a spectator reads as, as
// Zulip's settings_user for no user (an ID no account has).
const spectatorID = 0

// spectatorUser is u as Zulip's format_user_row gives it to no acting
// user: no delivery_email, no is_billing_admin, no custom profile field
// values, date_joined to the day; its wire form drops timezone too.
func spectatorUser(u User) User {
	u.DeliveryEmail, u.IsBillingAdmin, u.ProfileData = nil, nil, nil
	if len(u.DateJoined) > len("2006-01-02") {
		u.DateJoined = u.DateJoined[:len("2006-01-02")]
	}
	return u
}

// withSpectatorUsers re-encodes the JSON object b with the user lists
// given as spectators get them (SpectatorUser, no timezone).
func withSpectatorUsers(b []byte, lists map[string][]User) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for key, list := range lists {
		if _, ok := m[key]; !ok {
			continue
		}
		out := make([]SpectatorUser, len(list))
		for i := range list {
			out[i] = SpectatorUser{list[i]}
		}
		raw, err := json.Marshal(out)
		if err != nil {
			return nil, err
		}
		m[key] = raw
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// SpectatorUser is a user object as a spectator gets it: a User without
// timezone, which Zulip's format_user_row removes when there is no acting
// user.
type SpectatorUser struct{ User }

// MarshalJSON encodes the user without its timezone.
func (u SpectatorUser) MarshalJSON() ([]byte, error) {
	return withoutFields(u.User, []string{"timezone"})
}
