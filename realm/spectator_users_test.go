package realm

import (
	"encoding/json"
	"testing"
)

// A spectator's register lists every account as Zulip's format_user_row
// does for no acting user — real names even where guests are restricted
// (spectators access all users), no timezone, no delivery_email, no
// is_billing_admin, no profile_data, date_joined to the day — and no
// custom profile fields; GET /json/users gives the same objects.
func TestSpectatorGetsUsersAsZulipFormatsThemForNoUser(t *testing.T) {
	for _, level := range []int{changeGuestAccessEvents.Level(), 496} {
		t.Run(itoa(level), func(t *testing.T) {
			r := restrictedRealm(t, level)
			r.UpdateSettings(func(s *Settings) { s.EnableSpectatorAccess = true })
			ans, err := r.Spectator("en").Register(bg, RegisterRequest{})
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(ans.Wire())
			if err != nil {
				t.Fatal(err)
			}
			var wire struct {
				RealmUsers          []map[string]any `json:"realm_users"`
				CustomProfileFields []any            `json:"custom_profile_fields"`
				UserSettings        map[string]any   `json:"user_settings"`
			}
			if err := json.Unmarshal(b, &wire); err != nil {
				t.Fatal(err)
			}
			if wire.CustomProfileFields == nil || len(wire.CustomProfileFields) != 0 {
				t.Fatalf("custom_profile_fields %v, want []", wire.CustomProfileFields)
			}
			// The spectator's own settings keep their timezone, as Zulip's
			// settings_user has one ("").
			if tz, ok := wire.UserSettings["timezone"]; !ok || tz != "" {
				t.Fatalf("user_settings.timezone %v %v", tz, ok)
			}
			checkSpectatorUsers(t, "register", wire.RealmUsers)
			users, err := r.Spectator("en").Users(bg, UserListOptions{UserViewOptions: UserViewOptions{IncludeCustomProfileFields: true}})
			if err != nil {
				t.Fatal(err)
			}
			b, _ = json.Marshal(users)
			var list []map[string]any
			if err := json.Unmarshal(b, &list); err != nil {
				t.Fatal(err)
			}
			checkSpectatorUsers(t, "GET /users", list)
		})
	}
}

func checkSpectatorUsers(t *testing.T, where string, users []map[string]any) {
	t.Helper()
	seen := map[int]bool{}
	for _, u := range users {
		id := int(u["user_id"].(float64))
		seen[id] = true
		if u["full_name"] == InaccessibleUserName {
			t.Fatalf("%s: user %d is a placeholder", where, id)
		}
		for _, k := range []string{"timezone", "is_billing_admin", "profile_data"} {
			if _, ok := u[k]; ok {
				t.Fatalf("%s: user %d has %s: %v", where, id, k, u)
			}
		}
		if u["delivery_email"] != nil {
			t.Fatalf("%s: user %d delivery_email %v", where, id, u["delivery_email"])
		}
		if d, _ := u["date_joined"].(string); len(d) != len("2026-01-02") {
			t.Fatalf("%s: user %d date_joined %q, want the day only", where, id, d)
		}
	}
	if !seen[idIago] || !seen[idOthello] || !seen[idPolonius] {
		t.Fatalf("%s lists %v", where, seen)
	}
}
