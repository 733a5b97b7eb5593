package realm

import (
	"bytes"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDumpLoadCarriesEmailRules: the realm's domains and email settings
// survive Dump → Load (same bytes again), and the loaded realm enforces
// them.
func TestDumpLoadCarriesEmailRules(t *testing.T) {
	r, _ := newTestRealm(t)
	owner := r.As(idDesdemona)
	if _, _, err := owner.AddRealmDomain(bg, "example.org", true); err != nil {
		t.Fatal(err)
	}
	if err := owner.RemoveRealmDomain(bg, "zulip.com"); err != nil {
		t.Fatal(err)
	}
	if _, err := owner.UpdateRealm(bg, RealmUpdate{EmailsRestrictedToDomains: boolPtr(true), DisallowDisposableEmailAddresses: boolPtr(false)}); err != nil {
		t.Fatal(err)
	}
	r.UpdateSettings(func(s *Settings) { s.MaxInvites = 7 })
	doc := mustDump(t, r)
	loaded, err := Load(doc)
	if err != nil {
		t.Fatal(err)
	}
	if again := mustDump(t, loaded); !bytes.Equal(doc, again) {
		t.Fatalf("Dump → Load → Dump differs:\n%s", cmp.Diff(string(doc), string(again)))
	}
	domains, err := loaded.As(idDesdemona).RealmDomains(bg)
	if err != nil {
		t.Fatal(err)
	}
	if want := []RealmDomain{{Domain: "example.org", AllowSubdomains: true}}; !cmp.Equal(domains, want) {
		t.Errorf("domains = %+v, want %+v", domains, want)
	}
	s := loaded.Settings()
	if !s.EmailsRestrictedToDomains || s.DisallowDisposableEmailAddresses || s.MaxInvites != 7 {
		t.Errorf("settings = restricted %v, disposable refused %v, max invites %d", s.EmailsRestrictedToDomains, s.DisallowDisposableEmailAddresses, s.MaxInvites)
	}
	if err := loaded.SetCanCreateUsers(idIago, true); err != nil {
		t.Fatal(err)
	}
	_, err = loaded.As(idIago).CreateUser(bg, NewCreateUserRequest("new@zulip.com", "pw", "New"))
	wantCode(t, err, CodeBadRequest, "Email 'new@zulip.com' not allowed in this organization")
	if _, err := loaded.As(idIago).CreateUser(bg, NewCreateUserRequest("new@dept.example.org", "pw", "New")); err != nil {
		t.Errorf("a subdomain of an allowed domain is refused: %v", err)
	}
}

// TestLoadRealmDomainsDefaults: a document without realm_domains keeps a
// new realm's zulip.com; an empty list leaves none.
func TestLoadRealmDomainsDefaults(t *testing.T) {
	for _, c := range []struct {
		list string
		want []RealmDomain
	}{
		{"", []RealmDomain{{Domain: "zulip.com"}}},
		{`, "realm_domains": []`, []RealmDomain{}},
	} {
		r, err := Load([]byte(`{"minizulip_fixture": 1, "users": [{"id": 1, "email": "ada@example.com", "full_name": "Ada", "role": 100}]` + c.list + `}`))
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.As(1).RealmDomains(bg)
		if err != nil || !cmp.Equal(got, c.want) {
			t.Errorf("realm_domains%q: got %+v, %v; want %+v", c.list, got, err, c.want)
		}
		if s := r.Settings(); s.MaxInvites != DefaultMaxInvites || !s.DisallowDisposableEmailAddresses || s.EmailsRestrictedToDomains {
			t.Errorf("realm_domains%q: settings %+v are not a new realm's", c.list, s)
		}
	}
}

// TestLoadRefusesBadRealmDomains: bad domains and limits name their item.
func TestLoadRefusesBadRealmDomains(t *testing.T) {
	const users = `{"minizulip_fixture": 1, "users": [{"id": 1, "email": "ada@example.com", "full_name": "Ada"}]`
	for _, c := range []struct{ doc, want string }{
		{users + `, "realm_domains": [{"domain": "nodot"}]}`,
			`fixture: realm_domains[0].domain: invalid domain "nodot": Domain must have at least one dot (.)`},
		{users + `, "realm_domains": [{"domain": "a.com"}, {"domain": "a.com", "allow_subdomains": true}]}`,
			"fixture: realm_domains[1].domain: duplicate domain a.com"},
		{users + `, "realm_domains": [{"domain": "-a.com"}]}`,
			`fixture: realm_domains[0].domain: invalid domain "-a.com": Subdomains cannot start or end with a '-'.`},
		{users + `, "settings": {"max_invites": 0}}`,
			"fixture: settings.max_invites: 0 is not a positive number of invitations"},
	} {
		r, err := Load([]byte(c.doc))
		var fe *FixtureError
		if r != nil || !errors.As(err, &fe) || err.Error() != c.want {
			t.Errorf("%s: got %v, want %q", c.doc, err, c.want)
		}
	}
}
