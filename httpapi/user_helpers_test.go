package httpapi

import (
	"slices"
	"sort"
	"testing"
)

// memberCount is the number of users GET /users lists for iago.
func (e *usersEnv) memberCount() int {
	e.t.Helper()
	body := e.ok(e.do("iago@zulip.com", "GET", "/users", nil))
	return len(body["members"].([]any))
}

// usersKeySet returns the sorted keys of a JSON object.
func usersKeySet(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// usersExpectKeys asserts the exact key set of a JSON object.
func usersExpectKeys(t *testing.T, what string, m map[string]any, want ...string) {
	t.Helper()
	sort.Strings(want)
	if got := usersKeySet(m); !slices.Equal(got, want) {
		t.Errorf("%s keys\n got %v\nwant %v", what, got, want)
	}
}
