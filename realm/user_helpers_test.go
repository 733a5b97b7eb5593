package realm

import (
	"encoding/json"
	"slices"
	"sort"
	"testing"
)

// usersKeys marshals v and returns its JSON object and sorted key list.
func usersKeys(t *testing.T, v any) (map[string]any, []string) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return m, keys
}

// usersWantKeys asserts the exact key set of a JSON object.
func usersWantKeys(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s keys\n got %v\nwant %v", what, got, want)
	}
}

// usersBaseKeys are the keys of every user object.
var usersBaseKeys = []string{"user_id", "delivery_email", "email", "full_name", "date_joined", "is_active", "is_owner",
	"is_admin", "is_guest", "is_bot", "bot_type", "bot_owner_id", "role", "timezone", "avatar_url",
	"avatar_version", "is_imported_stub"}

func usersCount(t *testing.T, r *Realm) int {
	t.Helper()
	l, err := r.As(idIago).Users(bg, UserListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return len(l)
}
