package realm

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// The realm's email domains (Zulip's RealmDomain): the domains new users'
// addresses must belong to when the realm's emails_restricted_to_domains
// is on.

// storedDomain is one of the realm's email domains, with its ID.
type storedDomain struct {
	id int
	RealmDomain
}

// realmDomainTable holds the realm's email domains; IDs are never reused.
type realmDomainTable struct {
	list   []storedDomain // the domains, in the order added
	nextID int            // the next domain ID to give
}

func (t *realmDomainTable) clone() realmDomainTable {
	return realmDomainTable{list: slices.Clone(t.list), nextID: t.nextID}
}

// seed gives a new realm the dev realm's one domain, zulip.com,
// without subdomains.
func (t *realmDomainTable) seed() {
	*t = realmDomainTable{list: []storedDomain{{id: 1, RealmDomain: RealmDomain{Domain: "zulip.com"}}}, nextID: 2}
}

// RealmDomainsEvent is a realm_domains event: op "add" and "change" carry
// the domain as it now is, "remove" only its name.
type RealmDomainsEvent struct {
	Op          string       `json:"op"`
	RealmDomain *RealmDomain `json:"realm_domain,omitempty"`
	Domain      string       `json:"domain,omitempty"`
}

// RealmDomainsState is the realm_domains section of POST /register.
type RealmDomainsState struct {
	RealmDomains []RealmDomain `json:"realm_domains"`
}

// dump adds the realm's domains to f, in the order added (an empty list
// when there are none).
func (t *realmDomainTable) dump(r *Realm, f *fixture.Document) error {
	f.RealmDomains = []fixture.Domain{}
	for _, d := range t.list {
		f.RealmDomains = append(f.RealmDomains, fixture.Domain(d.RealmDomain))
	}
	return nil
}

// load replaces the realm's email domains with the document's,
// checked as POST /realm/domains checks a new one (a valid, lower-case
// domain name, not listed twice). An absent list keeps a new realm's
// zulip.com; an empty one leaves the realm without domains.
func (t *realmDomainTable) load(r *Realm, f *fixture.Document) error {
	if f.RealmDomains == nil {
		return nil
	}
	var state realmDomainTable
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
	*t = state
	return nil
}

// register fills the realm_domains section.
func (t *realmDomainTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("realm_domains") {
		out.RealmDomainsState = &RealmDomainsState{RealmDomains: r.domainList()}
	}
}

// domainList is the realm's domains in the order added, never nil.
func (r *Realm) domainList() []RealmDomain {
	out := make([]RealmDomain, len(r.domains.list))
	for i, d := range r.domains.list {
		out[i] = d.RealmDomain
	}
	return out
}

// domainIndex finds a domain by its exact name, -1 when absent.
func (r *Realm) domainIndex(domain string) int {
	return slices.IndexFunc(r.domains.list, func(d storedDomain) bool { return d.Domain == domain })
}

// RealmDomains answers GET /realm/domains: any user of the realm may list
// its domains.
func (a *Actor) RealmDomains(ctx context.Context) (ans []RealmDomain, err error) {
	err = a.read(ctx, func(me *user.User) error {
		ans = a.r.domainList()
		return nil
	})
	return ans, err
}

// CheckRealmOwner reports UNAUTHORIZED_PRINCIPAL unless the actor is an
// organization owner: Zulip checks the role of a caller of the realm
// domain endpoints before it reads any parameter, so adapters call it
// when a parameter is missing or malformed.
func (a *Actor) CheckRealmOwner(ctx context.Context) error {
	return a.read(ctx, func(me *user.User) error { return requireOwner(me) })
}

// requireOwner refuses anyone but organization owners, as Zulip's
// require_realm_owner.
func requireOwner(me *user.User) error {
	if me.Role != user.RoleOwner {
		return UnauthorizedPrincipal("Must be an organization owner")
	}
	return nil
}

// writeOwner runs fn under the write lock for an organization owner.
func (a *Actor) writeOwner(ctx context.Context, fn func(me *user.User) error) error {
	return a.write(ctx, func(me *user.User) error {
		if err := requireOwner(me); err != nil {
			return err
		}
		return fn(me)
	})
}

// AddRealmDomain answers POST /realm/domains (organization owners): the
// domain, trimmed and lower-cased, must be a valid domain name not yet
// the realm's. It returns the new domain's ID and name; every active user
// gets a realm_domains add event.
func (a *Actor) AddRealmDomain(ctx context.Context, domain string, allowSubdomains bool) (id int, name string, err error) {
	r := a.r
	err = a.writeOwner(ctx, func(me *user.User) error {
		d := strings.ToLower(strings.TrimSpace(domain))
		if msg := domainError(d); msg != "" {
			return BadRequest("Invalid domain: %s", msg)
		}
		if r.domainIndex(d) >= 0 {
			return BadRequest("The domain %s is already a part of your organization.", d)
		}
		entry := storedDomain{id: r.domains.nextID, RealmDomain: RealmDomain{Domain: d, AllowSubdomains: allowSubdomains}}
		r.domains.nextID++
		r.domains.list = append(r.domains.list, entry)
		rd := entry.RealmDomain
		r.emit("realm_domains", RealmDomainsEvent{Op: "add", RealmDomain: &rd}, r.activeUserIDs()...)
		id, name = entry.id, d
		return nil
	})
	return id, name, err
}

// UpdateRealmDomain answers PATCH /realm/domains/{domain} (organization
// owners): whether the domain's subdomains are allowed too. The domain is
// named exactly as stored. Every active user gets a realm_domains change
// event, even when nothing changed, as in Zulip.
func (a *Actor) UpdateRealmDomain(ctx context.Context, domain string, allowSubdomains bool) error {
	r := a.r
	return a.writeOwner(ctx, func(me *user.User) error {
		i := r.domainIndex(domain)
		if i < 0 {
			return BadRequest("No entry found for domain %s.", domain)
		}
		r.domains.list[i].AllowSubdomains = allowSubdomains
		rd := r.domains.list[i].RealmDomain
		r.emit("realm_domains", RealmDomainsEvent{Op: "change", RealmDomain: &rd}, r.activeUserIDs()...)
		return nil
	})
}

// RemoveRealmDomain answers DELETE /realm/domains/{domain} (organization
// owners). Removing the last domain of a realm restricted to its domains
// lifts the restriction first (a realm setting change event), as Zulip
// does; then every active user gets a realm_domains remove event.
func (a *Actor) RemoveRealmDomain(ctx context.Context, domain string) error {
	r := a.r
	return a.writeOwner(ctx, func(me *user.User) error {
		i := r.domainIndex(domain)
		if i < 0 {
			return BadRequest("No entry found for domain %s.", domain)
		}
		r.domains.list = slices.Delete(r.domains.list, i, i+1)
		if len(r.domains.list) == 0 && r.settings.EmailsRestrictedToDomains {
			before := r.settings.apiValues()
			r.settings.EmailsRestrictedToDomains = false
			r.emitSettingsChange(before)
		}
		r.emit("realm_domains", RealmDomainsEvent{Op: "remove", Domain: domain}, r.activeUserIDs()...)
		return nil
	})
}

// domainLabel is what each dot-separated part of a domain may hold.
var domainLabel = regexp.MustCompile(`^[a-z0-9-]*$`)

// domainError checks a (lower-cased) domain name by Zulip's
// validate_domain, returning its complaint or "".
func domainError(d string) string {
	switch {
	case d == "":
		return "Domain can't be empty."
	case !strings.Contains(d, "."):
		return "Domain must have at least one dot (.)"
	case utf8.RuneCountInString(d) > 255:
		return "Domain is too long"
	case d[0] == '.' || d[len(d)-1] == '.':
		return "Domain cannot start or end with a dot (.)"
	}
	for _, label := range strings.Split(d, ".") {
		switch {
		case label == "":
			return "Consecutive '.' are not allowed."
		case label[0] == '-' || label[len(label)-1] == '-':
			return "Subdomains cannot start or end with a '-'."
		case !domainLabel.MatchString(label):
			return "Domain can only have letters, numbers, '.' and '-'s."
		}
	}
	return ""
}
