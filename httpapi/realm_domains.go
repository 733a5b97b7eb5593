package httpapi

import "github.com/minizulip/minizulip/realm"

func realmDomainRoutes() []route {
	return []route{
		{method: "GET", path: "/realm/domains", h: listRealmDomains},
		{method: "POST", path: "/realm/domains", h: addRealmDomain},
		{method: "PATCH", path: "/realm/domains/{domain}", h: changeRealmDomain},
		{method: "DELETE", path: "/realm/domains/{domain}", h: removeRealmDomain},
	}
}

// realmDomainsAnswer is the body of GET /realm/domains.
type realmDomainsAnswer struct {
	Domains []realm.RealmDomain `json:"domains"`
}

func listRealmDomains(c *call) (any, error) {
	list, err := c.actor.RealmDomains(c.ctx())
	if err != nil {
		return nil, err
	}
	return realmDomainsAnswer{Domains: list}, nil
}

// newDomainAnswer is the body of POST /realm/domains: the new domain's
// ID and name.
type newDomainAnswer struct {
	NewDomain [2]any `json:"new_domain"`
}

// ownerFirst reports, for a request whose parameters failed, the
// caller's lack of the owner role instead when they lack it: Zulip
// checks the role before it reads any parameter.
func ownerFirst(c *call, err error) error {
	if ownerErr := c.actor.CheckRealmOwner(c.ctx()); ownerErr != nil {
		return ownerErr
	}
	return err
}

// allowSubdomainsParam reads the required allow_subdomains.
func allowSubdomainsParam(c *call) (bool, error) {
	v, set, err := c.p.optBoolSet("allow_subdomains")
	if err == nil && !set {
		err = realm.VariableMissing("allow_subdomains")
	}
	return v, err
}

// addRealmDomain is POST /realm/domains: domain and allow_subdomains,
// both required.
func addRealmDomain(c *call) (any, error) {
	domain, err := c.p.mustStr("domain")
	if err != nil {
		return nil, ownerFirst(c, err)
	}
	allow, err := allowSubdomainsParam(c)
	if err != nil {
		return nil, ownerFirst(c, err)
	}
	id, name, err := c.actor.AddRealmDomain(c.ctx(), domain, allow)
	if err != nil {
		return nil, err
	}
	return newDomainAnswer{NewDomain: [2]any{id, name}}, nil
}

// changeRealmDomain is PATCH /realm/domains/{domain}: allow_subdomains,
// required.
func changeRealmDomain(c *call) (any, error) {
	allow, err := allowSubdomainsParam(c)
	if err != nil {
		return nil, ownerFirst(c, err)
	}
	return nil, c.actor.UpdateRealmDomain(c.ctx(), c.req.PathValue("domain"), allow)
}

func removeRealmDomain(c *call) (any, error) {
	return nil, c.actor.RemoveRealmDomain(c.ctx(), c.req.PathValue("domain"))
}
