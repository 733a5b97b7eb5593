package httpapi

import (
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// devPost sends POST /dev_fetch_api_key with form in a urlencoded body
// and query in the URL, with a Basic header if auth is set.
func devPost(t *testing.T, base string, form url.Values, query string, auth string) (*http.Response, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/api/v1/dev_fetch_api_key"+query, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, body := rawDo(t, req)
	return resp, srvDecode(t, body)
}

func TestDevFetchAPIKey(t *testing.T) {
	ts := RunT(t)
	// Any Basic header is ignored, even a broken one.
	resp, out := devPost(t, ts.URL, url.Values{"username": {"aaron@ZULIP.com"}}, "", "Basic garbage")
	if resp.StatusCode != 200 || out["result"] != "success" || out["email"] != "AARON@zulip.com" || out["user_id"] != float64(6) ||
		out["api_key"] != ts.Creds("AARON@zulip.com").APIKey || len(out) != 5 {
		t.Fatalf("dev_fetch_api_key: %d %v", resp.StatusCode, out)
	}
	// Same key on every call; username in the query string works too.
	if _, again := devPost(t, ts.URL, nil, "?username=AARON%40zulip.com", ""); again["api_key"] != out["api_key"] {
		t.Fatalf("the key changed between logins: %v", again)
	}
	// The key works for the API.
	req := mustRequest("GET", ts.URL+"/api/v1/users/me")
	req.SetBasicAuth(out["email"].(string), out["api_key"].(string))
	if resp, body := rawDo(t, req); resp.StatusCode != 200 || srvDecode(t, body)["user_id"] != float64(6) {
		t.Fatalf("users/me with the dev key: %d %s", resp.StatusCode, body)
	}
	// Unsupported parameters are reported (Zulip declares username).
	_, out = devPost(t, ts.URL, url.Values{"username": {"iago@zulip.com"}, "password": {"x"}}, "", "")
	if ig, _ := out["ignored_parameters_unsupported"].([]any); len(ig) != 1 || ig[0] != "password" {
		t.Fatalf("ignored: %v", out)
	}
}

func TestDevFetchAPIKeyErrors(t *testing.T) {
	ts := RunT(t)
	cases := []struct {
		username   string
		status     int
		code, msg  string
		challenged bool
	}{
		{"ghost@zulip.com", 401, "AUTHENTICATION_FAILED", "Your username or password is incorrect", false},
		{"user11@zulipdev.com", 401, "AUTHENTICATION_FAILED", "Your username or password is incorrect", false},
		{"not an email", 400, "BAD_REQUEST", "Enter a valid email address.", false},
		{"welcome-bot@zulip.com", 404, "NONEXISTENT_SUBDOMAIN", "Invalid subdomain", false},
	}
	for _, c := range cases {
		resp, out := devPost(t, ts.URL, url.Values{"username": {c.username}}, "", "")
		if resp.StatusCode != c.status || out["code"] != c.code || out["msg"] != c.msg || len(out) != 3 {
			t.Errorf("%q: %d %v", c.username, resp.StatusCode, out)
		}
		// Only UNAUTHORIZED carries a WWW-Authenticate challenge.
		if resp.Header.Get("WWW-Authenticate") != "" {
			t.Errorf("%q: unexpected challenge", c.username)
		}
	}
	resp, out := devPost(t, ts.URL, nil, "", "")
	if resp.StatusCode != 400 || out["code"] != "REQUEST_VARIABLE_MISSING" || out["var_name"] != "username" {
		t.Fatalf("missing username: %d %v", resp.StatusCode, out)
	}
	// POST only.
	resp, body := rawDo(t, mustRequest("GET", ts.URL+"/api/v1/dev_fetch_api_key?username=iago@zulip.com"))
	if resp.StatusCode != 405 || strings.Contains(string(body), "api_key\"") {
		t.Fatalf("GET: %d %s", resp.StatusCode, body)
	}
}

func TestDevListUsers(t *testing.T) {
	ts := RunT(t)
	for _, method := range []string{"GET", "POST"} {
		resp, body := rawDo(t, mustRequest(method, ts.URL+"/api/v1/dev_list_users?junk=1"))
		out := srvDecode(t, body)
		admins, _ := out["direct_admins"].([]any)
		users, _ := out["direct_users"].([]any)
		if resp.StatusCode != 200 || len(admins) != 2 || len(users) != 8 {
			t.Fatalf("%s: %d %s", method, resp.StatusCode, body)
		}
		// Ordered by the hidden API address (user11 < user9), listed by the real one.
		first, last := admins[0].(map[string]any), users[len(users)-1].(map[string]any)
		if first["email"] != "iago@zulip.com" || admins[1].(map[string]any)["email"] != "desdemona@zulip.com" ||
			users[0].(map[string]any)["email"] != "hamlet@zulip.com" || last["email"] != "cordelia@zulip.com" {
			t.Fatalf("order: %s", body)
		}
		if first["realm_uri"] != ts.URL || first["realm_url"] != ts.URL {
			t.Fatalf("realm URL: %v", first)
		}
		// Zulip's view declares no parameters and so reports none.
		if _, ok := out["ignored_parameters_unsupported"]; ok {
			t.Fatalf("ignored parameters reported: %s", body)
		}
		for _, u := range append(admins, users...) {
			if e := u.(map[string]any)["email"].(string); strings.Contains(e, "bot") {
				t.Fatalf("bot listed: %s", e)
			}
		}
	}
}

func TestDevEndpointsOff(t *testing.T) {
	r := realm.New()
	srv := httptest.NewServer(New(r, WithDevEndpoints(false)))
	defer srv.Close()
	resp, out := devPost(t, srv.URL, url.Values{"username": {"iago@zulip.com"}}, "", "")
	if resp.StatusCode != 400 || out["code"] != "BAD_REQUEST" || out["msg"] != "Endpoint not available in production." {
		t.Fatalf("dev_fetch_api_key off: %d %v", resp.StatusCode, out)
	}
	resp, body := rawDo(t, mustRequest("GET", srv.URL+"/api/v1/dev_list_users"))
	if out := srvDecode(t, body); resp.StatusCode != 400 || out["msg"] != "Endpoint not available in production." {
		t.Fatalf("dev_list_users off: %d %s", resp.StatusCode, body)
	}
	// server_settings does not depend on dev mode.
	if resp, _ := rawDo(t, mustRequest("GET", srv.URL+"/api/v1/server_settings")); resp.StatusCode != 200 {
		t.Fatalf("server_settings: %d", resp.StatusCode)
	}
}

func TestServerSettingsNeedsNoLogin(t *testing.T) {
	ts := RunT(t, realmFeatureLevel(277, "9.0"))
	req := mustRequest("GET", ts.URL+"/api/v1/server_settings?client=x")
	req.Header.Set("Authorization", "Basic garbage")
	resp, body := rawDo(t, req)
	out := srvDecode(t, body)
	if resp.StatusCode != 200 || out["zulip_feature_level"] != float64(277) || out["zulip_version"] != "9.0" ||
		out["realm_name"] != "Zulip Dev" || out["zulip_merge_base"] != "9.0" || out["realm_web_public_access_enabled"] != true ||
		out["realm_uri"] != ts.URL || out["realm_url"] != ts.URL || out["is_incompatible"] != false ||
		!strings.HasPrefix(out["realm_description"].(string), "<p>The Zulip development environment") {
		t.Fatalf("server_settings: %d %s", resp.StatusCode, body)
	}
	if m, ok := out["authentication_methods"].(map[string]any); !ok || m["dev"] != true {
		t.Fatalf("authentication_methods %v", out["authentication_methods"])
	}
	if ext, ok := out["external_authentication_methods"].([]any); !ok || len(ext) != 0 {
		t.Fatalf("external_authentication_methods %v", out["external_authentication_methods"])
	}
	if _, ok := out["ignored_parameters_unsupported"]; ok {
		t.Fatal("server_settings declares no parameters and reports none")
	}
	req = mustRequest("GET", ts.URL+"/api/v1/server_settings")
	req.Header.Set("User-Agent", "ZulipInvalid/1.0")
	if _, body := rawDo(t, req); srvDecode(t, body)["is_incompatible"] != true {
		t.Fatalf("ZulipInvalid is incompatible: %s", body)
	}
}

// At feature level 218 the answer has exactly the keys of that level's
// OpenAPI schema (which forbids others).
func TestServerSettingsKeysAtOldLevel(t *testing.T) {
	ts := RunT(t, realmFeatureLevel(218, "8.0-dev+git"))
	_, body := rawDo(t, mustRequest("GET", ts.URL+"/api/v1/server_settings"))
	got := srvKeys(srvDecode(t, body))
	want := []string{
		"authentication_methods", "email_auth_enabled", "external_authentication_methods", "is_incompatible", "msg",
		"push_notifications_enabled", "realm_description", "realm_icon", "realm_name", "realm_uri",
		"realm_web_public_access_enabled", "require_email_format_usernames", "result", "zulip_feature_level",
		"zulip_merge_base", "zulip_version",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("keys\n got %v\nwant %v", got, want)
	}
}

func srvKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }
