package realm

import (
	"strings"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/minizulip/minizulip/user"
)

// checkFullName checks a new full name (user.CheckFullName) for the
// account selfID (0 for a new one) and, when the realm requires unique
// names (feature level 246), that no other account of the realm has it
// up to case and Unicode compatibility (NFKC, case folded), as Zulip's
// check_full_name does.
func (r *Realm) checkFullName(raw string, selfID int) (string, error) {
	name, err := user.CheckFullName(raw)
	if err != nil {
		return "", BadRequest("%s", err.Error())
	}
	if !r.settings.RequireUniqueNames {
		return name, nil
	}
	key := uniqueNameKey(name)
	for _, u := range r.users.byID {
		if u.ID != selfID && !u.IsSystemBot && uniqueNameKey(u.FullName) == key {
			return "", BadRequest("Unique names required in this organization.")
		}
	}
	return name, nil
}

// uniqueNameKey is a name as the unique-names rule compares them.
func uniqueNameKey(name string) string {
	return cases.Fold().String(norm.NFKC.String(strings.TrimSpace(name)))
}
