package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
)

// TestDevLoginSessionAndBots follows what go-zulip's integration suite
// does against a dev server: dev login, then /json calls with the session
// cookie and CSRF token, creating a bot.
func TestDevLoginSessionAndBots(t *testing.T) {
	ts := RunT(t)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	decode := func(resp *http.Response) map[string]any {
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return out
	}
	resp, err := client.PostForm(ts.URL+"/api/v1/dev_fetch_api_key", url.Values{"username": {"hamlet@zulip.com"}})
	if err != nil {
		t.Fatal(err)
	}
	login := decode(resp)
	var csrf string
	for _, c := range resp.Cookies() {
		if c.Secure || c.Domain != "" || c.Path != "/" {
			t.Errorf("cookie %s: %+v", c.Name, c)
		}
		if c.Name == "csrftoken" {
			csrf = c.Value
		}
		// The session cookie is out of scripts' reach; both stay on
		// same-site requests (issue 14, item 6).
		if c.SameSite != http.SameSiteLaxMode || c.HttpOnly != (c.Name == "sessionid") {
			t.Errorf("cookie %s: SameSite %v HttpOnly %v", c.Name, c.SameSite, c.HttpOnly)
		}
	}
	if login["result"] != "success" || csrf == "" || len(resp.Cookies()) != 2 {
		t.Fatalf("dev login %v cookies %v", login, resp.Cookies())
	}
	resp, _ = client.Get(ts.URL + "/json/users/me")
	if me := decode(resp); resp.StatusCode != 200 || me["user_id"] != float64(10) {
		t.Fatalf("/json/users/me: %d %v", resp.StatusCode, me)
	}
	var body bytes.Buffer
	ctype := newMultipart(&body, map[string]string{"full_name": "Test Bot", "short_name": "tester", "bot_type": "1"})
	post := func(token string) (*http.Response, map[string]any) {
		req, _ := http.NewRequest("POST", ts.URL+"/json/bots", bytes.NewReader(body.Bytes()))
		req.Header.Set("Content-Type", ctype)
		if token != "" {
			req.Header.Set("X-CSRFToken", token)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp, decode(resp)
	}
	resp, out := post("")
	if resp.StatusCode != 403 || out["code"] != "CSRF_FAILED" {
		t.Fatalf("no CSRF token: %d %v", resp.StatusCode, out)
	}
	resp, out = post("wrong")
	if resp.StatusCode != 403 || out["code"] != "CSRF_FAILED" {
		t.Fatalf("wrong CSRF token: %d %v", resp.StatusCode, out)
	}
	if ts.Creds("tester-bot@zulipdev.com").UserID != 0 {
		t.Fatal("a refused request created the bot")
	}
	resp, out = post(csrf)
	if resp.StatusCode != 200 || out["api_key"] == nil || out["user_id"] == nil {
		t.Fatalf("create bot: %d %v", resp.StatusCode, out)
	}
	// The bot logs in with its key, at the address clients build themselves.
	req, _ := http.NewRequest("GET", ts.URL+"/api/v1/users/me", nil)
	req.SetBasicAuth("tester-bot@zulipdev.com", out["api_key"].(string))
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if me := decode(resp); resp.StatusCode != 200 || me["is_bot"] != true || me["bot_owner_id"] != float64(10) {
		t.Fatalf("bot /users/me: %d %v", resp.StatusCode, me)
	}
	resp, out = post(csrf)
	if resp.StatusCode != 400 || !strings.Contains(out["msg"].(string), "already in use") {
		t.Fatalf("duplicate bot: %d %v", resp.StatusCode, out)
	}
	// Without a session, /json is a 401 with a Session challenge.
	resp, _ = http.Get(ts.URL + "/json/users/me")
	if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != `Session realm="zulip"` {
		t.Fatalf("no session: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	resp.Body.Close()
	// The dev login endpoints live under /api/v1 only.
	resp, _ = client.PostForm(ts.URL+"/json/dev_fetch_api_key", url.Values{"username": {"hamlet@zulip.com"}})
	if resp.StatusCode != 404 {
		t.Fatalf("/json/dev_fetch_api_key: %d", resp.StatusCode)
	}
	resp.Body.Close()
}
