package realm

import (
	"testing"

	"github.com/minizulip/minizulip/user"
)

// WithOwner seeds an empty realm's owner with the realm, so that Reset
// keeps them and their API key; Load and the dev seed ignore it.
func TestWithOwnerSurvivesReset(t *testing.T) {
	r := New(WithSeed(SeedEmpty), WithOwner("boss@example.com", "Boss"))
	id, ok := r.UserIDByEmail("boss@example.com")
	if !ok {
		t.Fatal("no owner")
	}
	_, key, _ := r.APIKey("boss@example.com")
	r.Reset()
	id2, ok := r.UserIDByEmail("boss@example.com")
	_, key2, _ := r.APIKey("boss@example.com")
	if !ok || id2 != id || key2 != key {
		t.Fatalf("after Reset: id %d (was %d), key %q (was %q), found %v", id2, id, key2, key, ok)
	}
	if u := r.users.byID[id]; u.Role != user.RoleOwner || u.FullName != "Boss" {
		t.Fatalf("owner %+v", u)
	}
	if _, ok := New(WithOwner("boss@example.com", "Boss")).UserIDByEmail("boss@example.com"); ok {
		t.Fatal("the dev seed took the owner")
	}
	doc, err := New(WithSeed(SeedEmpty)).Dump()
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(doc, WithOwner("boss@example.com", "Boss"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := loaded.UserIDByEmail("boss@example.com"); ok {
		t.Fatal("Load added the owner to the document's realm")
	}
}
