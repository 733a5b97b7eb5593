package httpapi

import (
	"net/url"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// Over HTTP too, the register answer has the shape of the advertised
// feature level: the spec's oldest documented change kept here (218), a
// middle level, and 496.
func TestRegisterShapeAtThreeFeatureLevels(t *testing.T) {
	for _, c := range []struct {
		level   int
		present []string
		absent  []string
	}{
		{218, []string{"realm_uri", "is_billing_admin", "realm_notifications_stream_id"},
			[]string{"realm_url", "realm_new_stream_announcements_stream_id"}},
		{300, []string{"realm_uri", "realm_url", "is_billing_admin", "realm_new_stream_announcements_stream_id"},
			[]string{"realm_notifications_stream_id"}},
		{realm.DefaultFeatureLevel, []string{"realm_uri", "realm_url", "realm_new_stream_announcements_stream_id"},
			[]string{"is_billing_admin", "realm_notifications_stream_id", "demo_organization_scheduled_deletion_date"}},
	} {
		ts := RunT(t, realm.WithFeatureLevel(c.level, "test"))
		resp, body := rawDo(t, ts.NewRequest("iago@zulip.com", "POST", "/register",
			url.Values{"fetch_event_types": {`["realm","realm_user"]`}}))
		out := srvDecode(t, body)
		if resp.StatusCode != 200 || out["zulip_feature_level"] != float64(c.level) {
			t.Fatalf("level %d: %d %v", c.level, resp.StatusCode, out["zulip_feature_level"])
		}
		for _, k := range c.present {
			if _, ok := out[k]; !ok {
				t.Errorf("level %d: %s missing", c.level, k)
			}
		}
		for _, k := range c.absent {
			if _, ok := out[k]; ok {
				t.Errorf("level %d: %s present", c.level, k)
			}
		}
	}
}
