package httpapi

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
)

func rawDo(t *testing.T, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

func TestAuthenticationFailures(t *testing.T) {
	ts := RunT(t)
	key := ts.Creds("hamlet@zulip.com").APIKey
	cases := []struct {
		name, header, msg string
	}{
		{"no credentials", "", "Not logged in: API authentication or user session required"},
		{"bad base64", "Basic %%%", "Invalid authorization header for basic auth"},
		{"no colon", "Basic " + base64.StdEncoding.EncodeToString([]byte("hamlet@zulip.com")), "Invalid authorization header for basic auth"},
		{"wrong key", "Basic " + base64.StdEncoding.EncodeToString([]byte("hamlet@zulip.com:"+strings.Repeat("a", 32))), "Invalid API key"},
		{"malformed key", "Basic " + base64.StdEncoding.EncodeToString([]byte("hamlet@zulip.com:short")), "Malformed API key"},
		{"unknown email", "Basic " + base64.StdEncoding.EncodeToString([]byte("ghost@zulip.com:"+key)), "Invalid API key"},
		{"another user's key", "Basic " + base64.StdEncoding.EncodeToString([]byte("iago@zulip.com:"+key)), "Invalid API key"},
	}
	for _, c := range cases {
		req, _ := http.NewRequest("GET", ts.URL+"/api/v1/users/me", nil)
		if c.header != "" {
			req.Header.Set("Authorization", c.header)
		}
		resp, body := rawDo(t, req)
		var out map[string]any
		_ = json.Unmarshal(body, &out)
		if resp.StatusCode != 401 || out["code"] != "UNAUTHORIZED" || out["msg"] != c.msg || resp.Header.Get("WWW-Authenticate") != `Basic realm="zulip"` {
			t.Errorf("%s: %d %v %q", c.name, resp.StatusCode, out, resp.Header.Get("WWW-Authenticate"))
		}
	}
	// Case and API email both work as the username.
	for _, email := range []string{"HAMLET@zulip.com", "user10@zulipdev.com"} {
		req, _ := http.NewRequest("GET", ts.URL+"/api/v1/users/me", nil)
		req.SetBasicAuth(email, key)
		if resp, body := rawDo(t, req); resp.StatusCode != 200 {
			t.Errorf("%s: %d %s", email, resp.StatusCode, body)
		}
	}
}

func TestRoutingErrors(t *testing.T) {
	ts := RunT(t)
	resp, body := rawDo(t, ts.NewRequest("iago@zulip.com", "GET", "/no/such/route", nil))
	var out map[string]any
	if resp.StatusCode != 404 || json.Unmarshal(body, &out) != nil || out["result"] != "error" {
		t.Fatalf("unknown route: %d %s", resp.StatusCode, body)
	}
	resp, body = rawDo(t, ts.NewRequest("iago@zulip.com", "PUT", "/messages", nil))
	out = nil
	_ = json.Unmarshal(body, &out)
	allowed := []string{}
	for _, m := range out["allowed_methods"].([]any) {
		allowed = append(allowed, m.(string))
	}
	sort.Strings(allowed)
	if resp.StatusCode != 405 || out["msg"] != "Method Not Allowed" || strings.Join(allowed, ",") != "GET,HEAD,POST" ||
		resp.Header.Get("Allow") != "GET, HEAD, POST" {
		t.Fatalf("405: %d %s %q", resp.StatusCode, body, resp.Header.Get("Allow"))
	}
	if _, ok := out["code"]; ok {
		t.Fatal("a 405 carries no code")
	}
	req, _ := http.NewRequest("OPTIONS", ts.URL+"/api/v1/users/me", nil)
	resp, _ = rawDo(t, req)
	if resp.StatusCode != 204 || resp.Header.Get("Allow") != "GET, HEAD" {
		t.Fatalf("OPTIONS: %d %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
	resp, body = rawDo(t, ts.NewRequest("iago@zulip.com", "HEAD", "/users/me", nil))
	if resp.StatusCode != 200 || len(body) != 0 {
		t.Fatalf("HEAD: %d %q", resp.StatusCode, body)
	}
}

func TestEnvelopeShape(t *testing.T) {
	ts := RunT(t)
	resp, body := rawDo(t, ts.NewRequest("iago@zulip.com", "GET", "/users/me", url.Values{"bogus": {"1"}, "also": {"2"}}))
	if resp.Header.Get("Content-Type") != "application/json" || !bytes.HasSuffix(body, []byte("}\n")) {
		t.Fatalf("headers %v body %q", resp.Header, body)
	}
	var out map[string]any
	_ = json.Unmarshal(body, &out)
	ignored := out["ignored_parameters_unsupported"].([]any)
	if out["result"] != "success" || out["msg"] != "" || len(ignored) != 2 {
		t.Fatalf("envelope %v", out)
	}
	_, body = rawDo(t, ts.NewRequest("iago@zulip.com", "GET", "/users/me", nil))
	if bytes.Contains(body, []byte("ignored_parameters_unsupported")) {
		t.Fatal("no unsupported parameter was sent")
	}
}

// Parameters arrive in the query string or the body for every method.
func TestParametersFromEveryEncoding(t *testing.T) {
	ts := RunT(t)
	key := ts.Creds("othello@zulip.com").APIKey
	send := func(method, ctype string, body io.Reader, query string) int {
		req, _ := http.NewRequest(method, ts.URL+"/api/v1/users/me/subscriptions"+query, body)
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		req.SetBasicAuth("othello@zulip.com", key)
		resp, out := rawDo(t, req)
		if resp.StatusCode != 200 {
			t.Errorf("%s %s: %d %s", method, ctype, resp.StatusCode, out)
		}
		return resp.StatusCode
	}
	form := url.Values{"subscriptions": {`[{"name":"Venice"}]`}}.Encode()
	send("POST", "application/x-www-form-urlencoded", strings.NewReader(form), "")
	del := url.Values{"subscriptions": {`["Venice"]`}}.Encode()
	send("DELETE", "application/x-www-form-urlencoded", strings.NewReader(del), "")
	send("POST", "", nil, "?"+form)
	var mp bytes.Buffer
	mpw := newMultipart(&mp, map[string]string{"subscriptions": `["Venice"]`})
	send("DELETE", mpw, &mp, "")
	subs, _ := ts.Realm.As(12).Subscriptions(bg(), false)
	for _, s := range subs {
		if s.Name == "Venice" {
			t.Fatal("the last DELETE (multipart) did not unsubscribe")
		}
	}
}

func TestDevEndpoints(t *testing.T) {
	ts := RunT(t)
	post := func(form url.Values, auth bool) (int, map[string]any) {
		req, _ := http.NewRequest("POST", ts.URL+"/api/v1/dev_fetch_api_key", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if auth {
			req.SetBasicAuth("garbage", "garbage")
		}
		resp, body := rawDo(t, req)
		var out map[string]any
		_ = json.Unmarshal(body, &out)
		return resp.StatusCode, out
	}
	status, out := post(url.Values{"username": {"aaron@ZULIP.com"}}, true)
	if status != 200 || out["email"] != "AARON@zulip.com" || out["user_id"] != float64(6) || out["api_key"] != ts.Creds("AARON@zulip.com").APIKey {
		t.Fatalf("dev_fetch_api_key: %d %v", status, out)
	}
	if _, again := post(url.Values{"username": {"AARON@zulip.com"}}, false); again["api_key"] != out["api_key"] {
		t.Fatal("the key changed between logins")
	}
	status, out = post(url.Values{"username": {"ghost@zulip.com"}}, false)
	if status != 401 || out["code"] != "AUTHENTICATION_FAILED" || out["msg"] != "Your username or password is incorrect" {
		t.Fatalf("unknown user: %d %v", status, out)
	}
	status, out = post(url.Values{"username": {"not an email"}}, false)
	if status != 400 {
		t.Fatalf("bad email: %d %v", status, out)
	}
	status, out = post(nil, false)
	if status != 400 || out["code"] != "REQUEST_VARIABLE_MISSING" {
		t.Fatalf("missing username: %d %v", status, out)
	}
	resp, body := rawDo(t, mustRequest("GET", ts.URL+"/api/v1/dev_list_users"))
	var list map[string][]map[string]any
	_ = json.Unmarshal(body, &list)
	if resp.StatusCode != 200 || len(list["direct_admins"]) != 2 || len(list["direct_users"]) != 8 ||
		list["direct_admins"][0]["email"] != "desdemona@zulip.com" || list["direct_users"][0]["email"] != "AARON@zulip.com" ||
		list["direct_users"][0]["realm_uri"] != ts.URL {
		t.Fatalf("dev_list_users: %d %s", resp.StatusCode, body)
	}
}

func TestServerSettingsNeedsNoLogin(t *testing.T) {
	ts := RunT(t, realmFeatureLevel(277, "9.0"))
	resp, body := rawDo(t, mustRequest("GET", ts.URL+"/api/v1/server_settings"))
	var out map[string]any
	_ = json.Unmarshal(body, &out)
	if resp.StatusCode != 200 || out["zulip_feature_level"] != float64(277) || out["zulip_version"] != "9.0" ||
		out["realm_name"] != "Zulip Dev" || out["zulip_merge_base"] != "9.0" || out["realm_web_public_access_enabled"] != true {
		t.Fatalf("server_settings: %d %s", resp.StatusCode, body)
	}
	if _, ok := out["authentication_methods"].(map[string]any); !ok {
		t.Fatal("authentication_methods missing")
	}
}

func mustRequest(method, target string) *http.Request {
	req, _ := http.NewRequest(method, target, nil)
	return req
}
