package httpapi

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestHTTPSubscribeAndList(t *testing.T) {
	e := newMsgEnv(t)
	status, body := e.do("hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{
		"subscriptions": {`[{"name":"elsinore","description":"Castle"}]`}, "principals": {`["othello@zulip.com"]`},
	})
	e.wantSuccess(status, body)
	if got := body["subscribed"].(map[string]any)["12"].([]any); len(got) != 1 || got[0] != "elsinore" {
		t.Fatalf("subscribed %v", body)
	}
	status, body = e.do("othello@zulip.com", "GET", "/get_stream_id", url.Values{"stream": {"elsinore"}})
	e.wantSuccess(status, body)
	id := body["stream_id"]
	status, body = e.do("othello@zulip.com", "GET", "/users/me/subscriptions", url.Values{"include_subscribers": {"true"}})
	e.wantSuccess(status, body)
	var sub map[string]any
	for _, s := range body["subscriptions"].([]any) {
		if s.(map[string]any)["stream_id"] == id {
			sub = s.(map[string]any)
		}
	}
	if sub == nil || sub["description"] != "Castle" || len(sub["subscribers"].([]any)) != 1 || sub["invite_only"] != false {
		t.Fatalf("subscription %v", sub)
	}
	for _, k := range []string{"color", "is_muted", "pin_to_top", "desktop_notifications", "rendered_description", "date_created",
		"history_public_to_subscribers", "first_message_id", "stream_weekly_traffic", "can_remove_subscribers_group", "subscriber_count"} {
		if _, ok := sub[k]; !ok {
			t.Errorf("subscription lacks %s", k)
		}
	}
	status, body = e.do("othello@zulip.com", "GET", "/streams", nil)
	e.wantSuccess(status, body)
	found := false
	for _, s := range body["streams"].([]any) {
		if s.(map[string]any)["name"] == "core team" {
			t.Fatal("othello must not see core team")
		}
		found = found || s.(map[string]any)["name"] == "elsinore"
	}
	if !found {
		t.Fatal("new channel missing from GET /streams")
	}
}

func TestHTTPUnsubscribeWithDeleteBody(t *testing.T) {
	e := newMsgEnv(t)
	// python-zulip-api sends DELETE parameters in a urlencoded body.
	status, body := e.do("othello@zulip.com", "DELETE", "/users/me/subscriptions", url.Values{"subscriptions": {`["Denmark","Rome"]`}})
	e.wantSuccess(status, body)
	if r := body["removed"].([]any); len(r) != 1 || r[0] != "Denmark" {
		t.Fatalf("removed %v", body)
	}
	if nr := body["not_removed"].([]any); len(nr) != 1 || nr[0] != "Rome" {
		t.Fatalf("not_removed %v", body)
	}
	// zulip-js sends them in the query string.
	req, _ := http.NewRequest("DELETE", e.srv.URL+"/api/v1/users/me/subscriptions?subscriptions="+url.QueryEscape(`["Scotland"]`), nil)
	_, key, _ := e.realm.APIKey("othello@zulip.com")
	req.SetBasicAuth("othello@zulip.com", key)
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode != 200 || out["removed"].([]any)[0] != "Scotland" {
		t.Fatalf("query-string DELETE: %d %v", resp.StatusCode, out)
	}
}

func TestHTTPSubscribeMultipart(t *testing.T) {
	e := newMsgEnv(t)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("subscriptions", `[{"name":"Venice"}]`)
	_ = mw.Close()
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/v1/users/me/subscriptions", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	_, key, _ := e.realm.APIKey("othello@zulip.com")
	req.SetBasicAuth("othello@zulip.com", key)
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode != 200 || out["subscribed"].(map[string]any)["12"].([]any)[0] != "Venice" {
		t.Fatalf("multipart subscribe: %d %v", resp.StatusCode, out)
	}
}

func TestHTTPChannelErrors(t *testing.T) {
	e := newMsgEnv(t)
	cases := []struct {
		email, method, path string
		form                url.Values
		code, msg           string
	}{
		{"hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"x"`}}, "BAD_REQUEST", `Argument "subscriptions" is not valid JSON.`},
		{"hamlet@zulip.com", "POST", "/users/me/subscriptions", nil, "REQUEST_VARIABLE_MISSING", "Missing 'subscriptions' argument"},
		{"hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"x"}]`}, "principals": {`[999]`}}, "BAD_REQUEST", "No such user"},
		{"polonius@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"guests only"}]`}}, "BAD_REQUEST", "Insufficient permission"},
		{"othello@zulip.com", "GET", "/get_stream_id", url.Values{"stream": {"core team"}}, "BAD_REQUEST", "Invalid channel name 'core team'"},
		{"othello@zulip.com", "GET", "/get_stream_id", nil, "REQUEST_VARIABLE_MISSING", "Missing 'stream' argument"},
		{"othello@zulip.com", "DELETE", "/users/me/subscriptions", url.Values{"subscriptions": {`["Atlantis"]`}}, "STREAM_DOES_NOT_EXIST", "Channel 'Atlantis' does not exist"},
		{"othello@zulip.com", "GET", "/streams", url.Values{"include_all": {"true"}}, "BAD_REQUEST", "User not authorized for this query"},
	}
	for _, c := range cases {
		status, body := e.do(c.email, c.method, c.path, c.form)
		e.wantError(status, body, 400, c.code, c.msg)
	}
	status, body := e.do("hamlet@zulip.com", "GET", "/streams", nil)
	e.wantSuccess(status, body)
	for _, s := range body["streams"].([]any) {
		if n := s.(map[string]any)["name"].(string); strings.Contains(n, "guests only") || n == "x" {
			t.Fatalf("a rejected subscribe created %q", n)
		}
	}
}
