package realm

import (
	"fmt"

	"github.com/minizulip/minizulip/realm/fixture"
)

// loadRealmDomains replaces the realm's email domains with the document's,
// checked as POST /realm/domains checks a new one (a valid, lower-case
// domain name, not listed twice). An absent list keeps a new realm's
// zulip.com; an empty one leaves the realm without domains.
func (r *Realm) loadRealmDomains(f *fixture.Document) error {
	if f.RealmDomains == nil {
		return nil
	}
	var state domainState
	state.nextID = 1
	seen := map[string]bool{}
	for i, d := range f.RealmDomains {
		at := fmt.Sprintf("realm_domains[%d].domain", i)
		if msg := domainError(d.Domain); msg != "" {
			return badItem(at, "invalid domain %q: %s", d.Domain, msg)
		}
		if seen[d.Domain] {
			return badItem(at, "duplicate domain %s", d.Domain)
		}
		seen[d.Domain] = true
		state.list = append(state.list, storedDomain{id: state.nextID, RealmDomain: RealmDomain(d)})
		state.nextID++
	}
	r.domains = state
	return nil
}
