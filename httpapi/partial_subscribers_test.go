package httpapi

import (
	"net/url"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// Rows 412 include_subscribers: from 412 "partial" is accepted by GET
// /users/me/subscriptions and POST /register, and a large channel's
// listing carries partial_subscribers; at 411 "partial" is not a boolean
// and both refuse it, changing nothing.
func TestIncludeSubscribersPartialFollowsLevel(t *testing.T) {
	limits := realm.DefaultLimits()
	limits.PartialSubscribersAt = 3
	for _, level := range []int{realm.ChangePartialSubscribers.Level() - 1, realm.ChangePartialSubscribers.Level()} {
		ts := RunT(t, realm.WithFeatureLevel(level, "test"), realm.WithLimits(limits))
		has := level >= realm.ChangePartialSubscribers.Level()
		for _, quoted := range []string{"partial", `"partial"`} {
			resp, body := rawDo(t, ts.NewRequest("hamlet@zulip.com", "GET", "/users/me/subscriptions", url.Values{"include_subscribers": {quoted}}))
			out := srvDecode(t, body)
			if !has {
				if resp.StatusCode != 400 || out["code"] != "BAD_REQUEST" || !strings.Contains(out["msg"].(string), "include_subscribers") {
					t.Errorf("level %d: GET subscriptions with %s: %d %s", level, quoted, resp.StatusCode, body)
				}
				continue
			}
			if resp.StatusCode != 200 {
				t.Fatalf("level %d: GET subscriptions with %s: %d %s", level, quoted, resp.StatusCode, body)
			}
			partial := 0
			for _, s := range out["subscriptions"].([]any) {
				s := s.(map[string]any)
				_, full := s["subscribers"]
				if _, ok := s["partial_subscribers"]; ok {
					partial++
					if full {
						t.Errorf("level %d: %s has both lists", level, s["name"])
					}
				} else if !full {
					t.Errorf("level %d: %s has no list", level, s["name"])
				}
			}
			if partial == 0 {
				t.Errorf("level %d: no partial_subscribers", level)
			}
		}
		resp, body := rawDo(t, ts.NewRequest("hamlet@zulip.com", "POST", "/register",
			url.Values{"fetch_event_types": {`["subscription"]`}, "include_subscribers": {"partial"}}))
		if has != (resp.StatusCode == 200) {
			t.Errorf("level %d: register with partial: %d %s", level, resp.StatusCode, body)
		}
		if has && !strings.Contains(string(body), `"partial_subscribers"`) {
			t.Errorf("level %d: register with partial sends no partial_subscribers", level)
		}
	}
}
