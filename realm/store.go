package realm

import (
	"strconv"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/user"
)

// This file holds the low-level writers of the realm's tables. Callers hold
// the write lock and have validated their input.

func (r *Realm) fixedAPIKey(email string) string {
	for e, k := range r.opts.APIKeys {
		if user.NormalizeEmail(e) == user.NormalizeEmail(email) {
			return k
		}
	}
	if r.opts.APIKeySeed != "" {
		return user.DerivedAPIKey(r.opts.APIKeySeed, email)
	}
	return user.NewAPIKey()
}

func (r *Realm) addToRoleGroups(u *user.User) {
	r.groups.byName[group.RoleGroup(u.Role)].Members[u.ID] = struct{}{}
	if u.Role == user.RoleMember {
		r.groups.byName[group.FullMembers].Members[u.ID] = struct{}{}
	}
}

// userByEmail finds an account by delivery email or by its API email
// (user<ID>@zulipdev.com and the like), case-insensitively.
func (r *Realm) userByEmail(email string) *user.User {
	norm := user.NormalizeEmail(email)
	if u := r.users.byEmail[norm]; u != nil {
		return u
	}
	if id, ok := user.ParseFakeEmailIn(email, r.users.fakeEmailDomain); ok {
		if u := r.users.byID[id]; u != nil && r.apiEmail(u) != u.DeliveryEmail {
			return u
		}
	}
	return nil
}

func itoa(n int) string { return strconv.Itoa(n) }
