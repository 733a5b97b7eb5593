package httpapi

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// GET /json/users logged out (feature level 387): with spectator access
// and a web-public channel, every account of the realm but the system
// bots, without delivery_email, timezone or custom profile field values
// (include_custom_profile_fields notwithstanding); user_ids narrows the
// list. Below 387, and from it without spectator access, Zulip's
// MissingAuthenticationError, as for any logged-out request.
func TestSpectatorListsUsersFromLevel387(t *testing.T) {
	for _, level := range []int{realm.ChangeSpectatorUsers.Level() - 1, realm.ChangeSpectatorUsers.Level(), realm.DefaultFeatureLevel} {
		e := newSpectatorEnv(t, realm.WithFeatureLevel(level, ""))
		resp, out := e.do("GET", "/users", url.Values{"include_custom_profile_fields": {"true"}})
		if level < realm.ChangeSpectatorUsers.Level() {
			e.missingAuth("level "+itoa(level), resp, out)
			continue
		}
		if resp.StatusCode != 200 {
			t.Fatalf("level %d: %d %v", level, resp.StatusCode, out)
		}
		members, _ := out["members"].([]any)
		seen := map[float64]bool{}
		for _, m := range members {
			u := m.(map[string]any)
			seen[u["user_id"].(float64)] = true
			if u["delivery_email"] != nil {
				t.Errorf("level %d: user %v shows delivery_email %v", level, u["user_id"], u["delivery_email"])
			}
			if _, ok := u["timezone"]; ok {
				t.Errorf("level %d: user %v shows a timezone", level, u["user_id"])
			}
			if _, ok := u["profile_data"]; ok {
				t.Errorf("level %d: user %v shows profile_data", level, u["user_id"])
			}
			if u["is_system_bot"] == true {
				t.Errorf("level %d: a system bot is listed: %v", level, u)
			}
			if u["user_id"] == float64(10) && (u["full_name"] != "King Hamlet" || u["email"] != "user10@zulipdev.com") {
				t.Errorf("level %d: hamlet is %v", level, u)
			}
		}
		if !seen[10] || !seen[11] || len(members) < 10 {
			t.Errorf("level %d: %d members, hamlet %v iago %v", level, len(members), seen[10], seen[11])
		}
		_, out = e.do("GET", "/users", url.Values{"user_ids": {"[10]"}})
		if ms, _ := out["members"].([]any); len(ms) != 1 || ms[0].(map[string]any)["user_id"] != float64(10) {
			t.Errorf("level %d: user_ids=[10] gave %v", level, out)
		}
		// Spectator access off: refused again.
		r, err := http.DefaultClient.Do(e.ts.NewRequest("iago@zulip.com", "PATCH", "/realm", url.Values{"enable_spectator_access": {"false"}}))
		if err != nil || r.StatusCode != 200 {
			t.Fatalf("PATCH /realm: %v %v", err, r)
		}
		r.Body.Close()
		resp, out = e.do("GET", "/users", nil)
		e.missingAuth("spectator access off", resp, out)
	}
}
