package httpapi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// realmClient calls a server by URL, as a client in another language
// would.
type realmClient struct {
	t    *testing.T
	base string
}

func (c realmClient) call(method, path, contentType, body string) (int, map[string]any) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.base+path, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		c.t.Fatalf("%s %s: %d %q", method, path, resp.StatusCode, raw)
	}
	return resp.StatusCode, out
}

func (c realmClient) form(method, path string, form url.Values) (int, map[string]any) {
	c.t.Helper()
	return c.call(method, path, "application/x-www-form-urlencoded", form.Encode())
}

func (c realmClient) ok(status int, body map[string]any) map[string]any {
	c.t.Helper()
	if status != 200 || body["result"] != "success" {
		c.t.Fatalf("got %d %v", status, body)
	}
	return body
}

func (c realmClient) refused(status int, body map[string]any, wantStatus int, code, msg string) {
	c.t.Helper()
	if status != wantStatus || body["result"] != "error" || body["code"] != code || (msg != "" && body["msg"] != msg) {
		c.t.Fatalf("got %d %v; want %d %s %q", status, body, wantStatus, code, msg)
	}
}

// unreachable reports whether nothing answers at base any more.
func unreachable(base string) bool {
	resp, err := http.Get(base + "/api/v1/server_settings")
	if err == nil {
		resp.Body.Close()
	}
	return err != nil
}

func TestRealmsAreCreatedIsolatedAndDeleted(t *testing.T) {
	ts := RunT(t, WithRealms(DefaultMaxRealms, nil))
	main := realmClient{t, ts.URL}
	created := main.ok(main.form("POST", "/minizulip/realms", url.Values{"messages": {"5"}}))
	id, base := created["realm_id"], created["url"].(string)
	if id != float64(1) || !strings.HasPrefix(base, "http://127.0.0.1:") || base == ts.URL {
		t.Fatalf("created %v", created)
	}
	child := realmClient{t, base}
	settings := child.ok(child.form("GET", "/api/v1/server_settings", nil))
	if settings["realm_url"] != base {
		t.Fatalf("the realm's URL is %v, want %s", settings["realm_url"], base)
	}
	sr := ts.API.tc.realms.byID[1]
	if n := sr.api.Realm().MessageCount(); n != 5 {
		t.Fatalf("the realm holds %d messages, want 5", n)
	}
	// Its own clock, faults and request log.
	before := main.ok(main.form("GET", "/minizulip/clock", nil))["now"].(float64)
	child.ok(child.form("POST", "/minizulip/clock", url.Values{"advance": {"3600"}}))
	if after := main.ok(main.form("GET", "/minizulip/clock", nil))["now"].(float64); after-before > 600 {
		t.Fatalf("moving the realm's clock moved the main one: %v → %v", before, after)
	}
	child.ok(child.form("POST", "/minizulip/faults", url.Values{"path": {"/api/v1/server_settings"}, "status": {"503"}, "count": {"-1"}}))
	main.ok(main.form("GET", "/api/v1/server_settings", nil))
	status, _ := child.form("GET", "/api/v1/server_settings", nil)
	if status != 503 {
		t.Fatalf("the realm's fault did not answer: %d", status)
	}
	if n := len(child.ok(child.form("GET", "/minizulip/requests", nil))["requests"].([]any)); n != 2 {
		t.Fatalf("the realm logged %d requests, want 2", n)
	}
	if n := len(main.ok(main.form("GET", "/minizulip/requests", nil))["requests"].([]any)); n != 1 {
		t.Fatalf("the main server logged %d requests, want 1", n)
	}
	// Its own queues: a long poll there ends when the realm is deleted.
	key := child.ok(child.form("POST", "/api/v1/dev_fetch_api_key", url.Values{"username": {"iago@zulip.com"}}))["api_key"].(string)
	regReq, _ := http.NewRequest("POST", base+"/api/v1/register", nil)
	regReq.SetBasicAuth("iago@zulip.com", key)
	resp, err := http.DefaultClient.Do(regReq)
	if err != nil {
		t.Fatal(err)
	}
	var reg map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&reg)
	resp.Body.Close()
	if q := main.ok(main.form("GET", "/minizulip/queues", nil))["queues"].([]any); len(q) != 0 {
		t.Fatalf("the realm's queue shows on the main server: %v", q)
	}
	if q := child.ok(child.form("GET", "/minizulip/queues", nil))["queues"].([]any); len(q) != 1 {
		t.Fatalf("the realm's queues: %v", q)
	}

	second := main.ok(main.form("POST", "/minizulip/realms", url.Values{"seed": {"empty"}, "feature_level": {"277"}, "zulip_version": {"9.0"}}))
	if second["realm_id"] != float64(2) {
		t.Fatalf("second %v", second)
	}
	other := realmClient{t, second["url"].(string)}
	if s := other.ok(other.form("GET", "/api/v1/server_settings", nil)); s["zulip_feature_level"] != float64(277) || s["zulip_version"] != "9.0" {
		t.Fatalf("feature level: %v", s)
	}
	if _, ok := ts.API.tc.realms.byID[2].api.Realm().UserIDByEmail(EmptyRealmOwner); !ok {
		t.Fatal("the empty realm has no owner")
	}
	ownerKey := other.ok(other.form("POST", "/api/v1/dev_fetch_api_key", url.Values{"username": {EmptyRealmOwner}}))["api_key"]
	other.ok(other.form("POST", "/minizulip/reset", nil))
	if again := other.ok(other.form("POST", "/api/v1/dev_fetch_api_key", url.Values{"username": {EmptyRealmOwner}})); again["api_key"] != ownerKey {
		t.Fatalf("the owner after a reset: %v, want key %v", again, ownerKey)
	}
	list := main.ok(main.form("GET", "/minizulip/realms", nil))["realms"].([]any)
	if len(list) != 2 || list[0].(map[string]any)["url"] != base || list[0].(map[string]any)["created"].(float64) <= 0 {
		t.Fatalf("list %v", list)
	}

	main.ok(main.form("DELETE", "/minizulip/realms/1", nil))
	if !unreachable(base) {
		t.Fatal("the deleted realm still answers")
	}
	iago, _ := sr.api.Realm().UserIDByEmail("iago@zulip.com")
	if _, err := sr.api.Realm().As(iago).Events(t.Context(), realm.GetEventsRequest{QueueID: reg["queue_id"].(string), LastEventID: -1, DontBlock: true}); err == nil {
		t.Fatal("the deleted realm's queue lives on")
	}
	if list := main.ok(main.form("GET", "/minizulip/realms", nil))["realms"].([]any); len(list) != 1 {
		t.Fatalf("after delete %v", list)
	}
	status, body := main.form("DELETE", "/minizulip/realms/1", nil)
	main.refused(status, body, 400, "BAD_REQUEST", `No realm with ID "1"`)
	status, body = main.form("DELETE", "/minizulip/realms/x", nil)
	main.refused(status, body, 400, "BAD_REQUEST", `No realm with ID "x"`)

	// Closing the main server closes the realms it created.
	ts.Close()
	if !unreachable(other.base) {
		t.Fatal("a realm outlived the server that created it")
	}
}

func TestRealmFromAFixture(t *testing.T) {
	ts := RunT(t, WithRealms(4, nil))
	main := realmClient{t, ts.URL}
	doc, err := realm.New(realm.WithSeed(realm.SeedEmpty)).Dump()
	if err != nil {
		t.Fatal(err)
	}
	// As a JSON value in a JSON body…
	created := main.ok(main.call("POST", "/minizulip/realms", "application/json", `{"fixture":`+string(doc)+`,"feature_level":300}`))
	sr := ts.API.tc.realms.byID[int(created["realm_id"].(float64))]
	if sr.api.Realm().FeatureLevel() != 300 {
		t.Fatalf("feature level %d", sr.api.Realm().FeatureLevel())
	}
	if _, ok := sr.api.Realm().UserIDByEmail("iago@zulip.com"); ok {
		t.Fatal("the fixture realm has the dev realm's users")
	}
	// … or as a string in a form body.
	main.ok(main.form("POST", "/minizulip/realms", url.Values{"fixture": {string(doc)}}))

	for _, c := range []struct {
		ct, body, msg string
	}{
		{"application/json", `{"fixture":{"minizulip_fixture":999}}`, "fixture: minizulip_fixture: format 999, want 1"},
		{"application/json", `{"fixture":"not json"}`, ""},
		{"application/x-www-form-urlencoded", "fixture=", "fixture is empty: give a fixture document (GET /minizulip/dump writes one)"},
		{"application/json", `{"fixture":{},"seed":"empty"}`, "fixture excludes seed and messages: the fixture says what the realm holds"},
	} {
		status, body := main.call("POST", "/minizulip/realms", c.ct, c.body)
		main.refused(status, body, 400, "BAD_REQUEST", c.msg)
	}
	if n := len(ts.API.Realms()); n != 2 {
		t.Fatalf("%d realms after refusals, want 2", n)
	}
}

func TestRealmsRefuseBadInputAndTheLimit(t *testing.T) {
	ts := RunT(t, WithRealms(2, nil))
	main := realmClient{t, ts.URL}
	for _, c := range []struct {
		form url.Values
		msg  string
	}{
		{url.Values{"seed": {"prod"}}, `seed must be "dev" or "empty", not "prod"`},
		{url.Values{"messages": {"-1"}}, "messages must be between 0 and 10000"},
		{url.Values{"messages": {"10001"}}, "messages must be between 0 and 10000"},
		{url.Values{"messages": {"many"}}, ""},
		{url.Values{"feature_level": {"0"}}, "feature_level must be between 1 and 496"},
		{url.Values{"feature_level": {"9999"}}, "feature_level must be between 1 and 496"},
		{url.Values{"zulip_version": {"9.0"}}, "zulip_version goes with feature_level"},
		{url.Values{"name": {"x"}}, "Unknown parameter(s) of POST /minizulip/realms: name (it takes: seed, messages, fixture, feature_level, zulip_version)"},
	} {
		status, body := main.form("POST", "/minizulip/realms", c.form)
		main.refused(status, body, 400, "BAD_REQUEST", c.msg)
	}
	main.ok(main.form("POST", "/minizulip/realms", nil))
	main.ok(main.form("POST", "/minizulip/realms", nil))
	status, body := main.form("POST", "/minizulip/realms", nil)
	main.refused(status, body, 429, "TOO_MANY_REALMS", "Too many realms (limit: 2): delete one first (DELETE /minizulip/realms/{realm_id})")
	if n := len(ts.API.Realms()); n != 2 {
		t.Fatalf("%d realms past the limit", n)
	}
	// Deleting one makes room again; IDs are not reused.
	main.ok(main.form("DELETE", "/minizulip/realms/1", nil))
	if again := main.ok(main.form("POST", "/minizulip/realms", nil)); again["realm_id"] != float64(3) {
		t.Fatalf("after a delete: %v", again)
	}
	// A realm's own control API creates no realms.
	child := realmClient{t, ts.API.Realms()[0].URL}
	status, body = child.form("POST", "/minizulip/realms", nil)
	child.refused(status, body, 400, "BAD_REQUEST", errNoRealms.Msg)
}

func TestServerWithoutRealmsRefusesToCreateThem(t *testing.T) {
	ts := RunT(t)
	c := realmClient{t, ts.URL}
	status, body := c.form("POST", "/minizulip/realms", nil)
	c.refused(status, body, 400, "BAD_REQUEST", errNoRealms.Msg)
	if list := c.ok(c.form("GET", "/minizulip/realms", nil))["realms"].([]any); len(list) != 0 {
		t.Fatalf("list %v", list)
	}
	status, body = c.form("DELETE", "/minizulip/realms/1", nil)
	c.refused(status, body, 400, "BAD_REQUEST", `No realm with ID "1"`)
}
