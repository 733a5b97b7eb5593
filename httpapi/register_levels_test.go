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

// Every field an honoured "register gate" row names is in the register
// answer of a realm at the row's level and absent one level below it
// (an owner's register, every section fetched).
func TestRegisterGateRowsAtTheirLevels(t *testing.T) {
	keys := map[int]map[string]any{}
	at := func(level int) map[string]any {
		if keys[level] == nil {
			e := newChanEnv(t, realm.WithFeatureLevel(level, ""))
			st, reg := e.do("desdemona@zulip.com", "POST", "/register", url.Values{})
			if st != 200 {
				t.Fatalf("level %d: register %d %v", level, st, reg)
			}
			keys[level] = reg
		}
		return keys[level]
	}
	for _, c := range realm.FeatureChanges() {
		if c.Honour != "register gate" || c.Status != realm.StatusHonoured || c.Where != "POST /register" {
			continue
		}
		if _, ok := at(c.Level)[c.Field]; !ok {
			t.Errorf("%d %s: not sent at its level", c.Level, c.Field)
		}
		if c.Level > 185 {
			if _, ok := at(c.Level - 1)[c.Field]; ok {
				t.Errorf("%d %s: sent at level %d", c.Level, c.Field, c.Level-1)
			}
		}
	}
}
