package httpapi

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

func TestHTTPSubscribeCreatesChannel(t *testing.T) {
	e := newChanEnv(t)
	body := e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{
		"subscriptions": {`[{"name":"elsinore","description":"Castle"},{"name":"Verona"}]`}, "principals": {`["othello@zulip.com"]`},
		"announce": {"true"}, "history_public_to_subscribers": {"true"}, "send_new_subscription_messages": {"true"},
	}))
	if got := body["subscribed"].(map[string]any); len(got) != 1 || len(got["12"].([]any)) != 1 || got["12"].([]any)[0] != "elsinore" {
		t.Fatalf("subscribed %v", body)
	}
	if got := body["already_subscribed"].(map[string]any); len(got["12"].([]any)) != 1 || got["12"].([]any)[0] != "Verona" {
		t.Fatalf("already_subscribed %v", body)
	}
	if _, ok := body["unauthorized"]; ok || body["new_subscription_messages_sent"] != true {
		t.Fatalf("optional keys %v", body)
	}
	id := e.ok(e.do("othello@zulip.com", "GET", "/get_stream_id", url.Values{"stream": {"ELSINORE"}}))["stream_id"]
	subs := e.ok(e.do("othello@zulip.com", "GET", "/users/me/subscriptions", url.Values{"include_subscribers": {"true"}}))
	var sub map[string]any
	for _, s := range subs["subscriptions"].([]any) {
		if s.(map[string]any)["stream_id"] == id {
			sub = s.(map[string]any)
		}
	}
	if sub == nil || sub["description"] != "Castle" || sub["rendered_description"] != "<p>Castle</p>" || sub["invite_only"] != false ||
		sub["creator_id"] != float64(10) || sub["subscriber_count"] != float64(1) || sub["is_archived"] != false ||
		sub["stream_weekly_traffic"] != nil || sub["folder_id"] != nil || sub["topics_policy"] != "inherit" {
		t.Fatalf("subscription %v", sub)
	}
	// The new channel opens with Notification Bot's notice (Zulip's
	// send_messages_for_new_subscribers), its first message.
	notices := e.channelEventsNotices("othello@zulip.com", "elsinore")
	if len(notices) != 1 || sub["first_message_id"] != notices[0]["id"] ||
		notices[0]["content"] != "**Public** channel created by @_**King Hamlet|10**. **Description:**\n```` quote\nCastle\n````" {
		t.Fatalf("first message %v, notices %v", sub["first_message_id"], notices)
	}
	if s := sub["subscribers"].([]any); len(s) != 1 || s[0] != float64(12) {
		t.Fatalf("subscribers %v", s)
	}
	if admin, _ := json.Marshal(sub["can_administer_channel_group"]); string(admin) != `{"direct_members":[10],"direct_subgroups":[]}` {
		t.Fatalf("can_administer_channel_group %s", admin)
	}
	for _, k := range []string{"color", "is_muted", "in_home_view", "pin_to_top", "desktop_notifications", "email_notifications",
		"push_notifications", "audible_notifications", "wildcard_mentions_notify", "date_created", "history_public_to_subscribers",
		"is_web_public", "message_retention_days", "stream_post_policy", "is_announcement_only", "is_recently_active",
		"can_add_subscribers_group", "can_create_topic_group", "can_delete_any_message_group", "can_delete_own_message_group",
		"can_move_messages_out_of_channel_group", "can_move_messages_within_channel_group", "can_remove_subscribers_group",
		"can_resolve_topics_group", "can_send_message_group", "can_subscribe_group"} {
		if _, ok := sub[k]; !ok {
			t.Errorf("subscription lacks %s", k)
		}
	}
	if names := e.streamNames("cordelia@zulip.com", nil); !slices.Contains(names, "elsinore") || !slices.IsSorted(names) {
		t.Fatalf("GET /streams %v", names)
	}
	if slices.Contains(e.subscriptionNames("hamlet@zulip.com"), "elsinore") {
		t.Fatal("hamlet was subscribed though principals named only othello")
	}
}

func TestHTTPSubscribePrincipalsByIDAndLegacyKeys(t *testing.T) {
	e := newChanEnv(t)
	body := e.ok(e.do("iago@zulip.com", "POST", "/users/me/subscriptions", url.Values{
		"subscriptions": {`[{"name":"Venice"}]`}, "principals": {`[8, 9]`}}))
	sub, already := body["subscribed"].(map[string]any), body["already_subscribed"].(map[string]any)
	if len(sub) != 1 || sub["8"].([]any)[0] != "Venice" || len(already) != 1 || already["9"].([]any)[0] != "Venice" {
		t.Fatalf("%v", body)
	}
	old := newChanEnv(t, realm.WithFeatureLevel(218, "8.0"))
	body = old.ok(old.do("iago@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"Venice"}]`}}))
	if _, ok := body["subscribed"].(map[string]any)["user11@zulipdev.com"]; !ok || body["new_subscription_messages_sent"] != nil {
		t.Fatalf("feature level 218 answer %v", body)
	}
}

func TestHTTPPrivateChannelVisibility(t *testing.T) {
	e := newChanEnv(t)
	e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{
		"subscriptions": {`[{"name":"secret"}]`}, "invite_only": {"true"}}))
	for _, c := range []struct {
		email string
		form  url.Values
		sees  bool
	}{
		{"hamlet@zulip.com", nil, true},
		{"othello@zulip.com", nil, false},
		{"othello@zulip.com", url.Values{"include_all": {"true"}}, false},
		{"iago@zulip.com", nil, false},
		{"iago@zulip.com", url.Values{"include_all": {"true"}}, true},
		{"iago@zulip.com", url.Values{"include_all_active": {"true"}}, true},
		{"iago@zulip.com", url.Values{"include_can_access_content": {"true"}}, false},
	} {
		if got := slices.Contains(e.streamNames(c.email, c.form), "secret"); got != c.sees {
			t.Errorf("%s %v sees secret: %v", c.email, c.form, got)
		}
	}
	if got := e.streamNames("othello@zulip.com", url.Values{"include_all": {"true"}}); !slices.Contains(got, "Rome") || slices.Contains(got, "core team") {
		t.Fatalf("othello include_all %v", got)
	}
	st, body := e.do("othello@zulip.com", "GET", "/get_stream_id", url.Values{"stream": {"secret"}})
	e.fail(st, body, 400, "BAD_REQUEST", "Invalid channel name 'secret'")
	st, body = e.do("othello@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"secret"}]`}})
	e.fail(st, body, 400, "BAD_REQUEST", "Unable to access channel (secret).")
	body = e.ok(e.do("othello@zulip.com", "POST", "/users/me/subscriptions", url.Values{
		"subscriptions": {`[{"name":"secret"},{"name":"Venice"}]`}, "authorization_errors_fatal": {"false"}}))
	if u := body["unauthorized"].([]any); len(u) != 1 || u[0] != "secret" {
		t.Fatalf("unauthorized %v", body)
	}
	st, body = e.do("polonius@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"guest land"}]`}})
	e.fail(st, body, 400, "BAD_REQUEST", "Not allowed for guest users")
}

func TestHTTPUnsubscribe(t *testing.T) {
	e := newChanEnv(t)
	// python-zulip-api sends DELETE parameters in a urlencoded body.
	body := e.ok(e.do("othello@zulip.com", "DELETE", "/users/me/subscriptions", url.Values{"subscriptions": {`["Denmark","Rome"]`}}))
	if r := body["removed"].([]any); len(r) != 1 || r[0] != "Denmark" {
		t.Fatalf("removed %v", body)
	}
	if nr := body["not_removed"].([]any); len(nr) != 1 || nr[0] != "Rome" {
		t.Fatalf("not_removed %v", body)
	}
	// zulip-js sends them in the query string.
	body = e.ok(e.call("othello@zulip.com", "DELETE", "/users/me/subscriptions", url.Values{"subscriptions": {`["Scotland"]`}}, true))
	if body["removed"].([]any)[0] != "Scotland" || slices.Contains(e.subscriptionNames("othello@zulip.com"), "Scotland") {
		t.Fatalf("query-string DELETE: %v", body)
	}
	body = e.ok(e.do("iago@zulip.com", "DELETE", "/users/me/subscriptions", url.Values{
		"subscriptions": {`["Verona"]`}, "principals": {`[10]`}}))
	if body["removed"].([]any)[0] != "Verona" || slices.Contains(e.subscriptionNames("hamlet@zulip.com"), "Verona") {
		t.Fatalf("admin removing hamlet: %v", body)
	}
}

func TestHTTPSubscribeMultipart(t *testing.T) {
	e := newChanEnv(t)
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

func TestHTTPChannelParameters(t *testing.T) {
	e := newChanEnv(t)
	status, body := e.do("desdemona@zulip.com", "POST", "/users/me/subscriptions", url.Values{
		"subscriptions": {`[{"name":"archive","color":"#123456"}]`}, "message_retention_days": {"unlimited"},
		"topics_policy": {`"allow_empty_topic"`}, "can_remove_subscribers_group": {`{"direct_members":[9],"direct_subgroups":[]}`},
		"can_send_message_group": {"11"}, "is_default_stream": {"true"}, "include_bogus": {"1"},
	})
	// Only the unknown parameter may be echoed.
	if ign, _ := body["ignored_parameters_unsupported"].([]any); status != 200 || len(ign) != 1 || ign[0] != "include_bogus" {
		t.Fatalf("%d %v", status, body)
	}
	list := e.ok(e.do("desdemona@zulip.com", "GET", "/streams", url.Values{"include_default": {"true"}, "include_owner_subscribed": {"false"}}))
	var ch map[string]any
	for _, s := range list["streams"].([]any) {
		if s.(map[string]any)["name"] == "archive" {
			ch = s.(map[string]any)
		}
	}
	if ch == nil || ch["message_retention_days"] != float64(-1) || ch["topics_policy"] != "allow_empty_topic" || ch["is_default"] != true ||
		ch["can_send_message_group"] != float64(11) || ch["stream_post_policy"] != float64(2) {
		t.Fatalf("channel %v", ch)
	}
	if rm, _ := json.Marshal(ch["can_remove_subscribers_group"]); string(rm) != `{"direct_members":[9],"direct_subgroups":[]}` {
		t.Fatalf("can_remove_subscribers_group %s", rm)
	}
	subs := e.ok(e.do("desdemona@zulip.com", "GET", "/users/me/subscriptions", url.Values{"include_subscribers": {"partial"}}))
	for _, s := range subs["subscriptions"].([]any) {
		if m := s.(map[string]any); m["name"] == "archive" && (m["color"] != "#123456" || m["subscribers"] == nil) {
			t.Fatalf("archive subscription %v", m)
		}
	}
}

func TestHTTPChannelErrorsChangeNothing(t *testing.T) {
	e := newChanEnv(t)
	before := e.snapshot()
	cases := []struct {
		email, method, path string
		form                url.Values
		code, msg, varName  string
	}{
		{"hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"x"`}}, "BAD_REQUEST", `Argument "subscriptions" is not valid JSON.`, ""},
		{"hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`{"name":"x"}`}}, "BAD_REQUEST", "subscriptions is not a list", ""},
		{"hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`["x"]`}}, "BAD_REQUEST", "subscriptions[0] is not a dict", ""},
		{"hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"description":"d"}]`}}, "BAD_REQUEST", `subscriptions[0]["name"] is missing`, ""},
		{"hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":7}]`}}, "BAD_REQUEST", `subscriptions[0]["name"] is not a string`, ""},
		{"hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{"invite_only": {"true"}}, "REQUEST_VARIABLE_MISSING", "Missing 'subscriptions' argument", "subscriptions"},
		{"hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"x"}]`}, "principals": {`[999]`}}, "BAD_REQUEST", "No such user", ""},
		{"hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"x"}]`}, "principals": {`[10,"a@b.c"]`}}, "BAD_REQUEST", "principals is not a list of user IDs or of emails", ""},
		{"hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"x"}]`}, "invite_only": {"maybe"}}, "BAD_REQUEST", "invite_only is not a boolean", ""},
		{"desdemona@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"x"}]`}, "message_retention_days": {"0"}}, "REQUEST_VARIABLE_INVALID", "Bad value for 'message_retention_days': 0", "message_retention_days"},
		{"hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"x"}]`}, "can_subscribe_group": {`{"direct_members":`}}, "BAD_REQUEST", `Argument "can_subscribe_group" is not valid JSON.`, ""},
		{"othello@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"x"},{"name":"core team"}]`}, "principals": {`[8]`}}, "BAD_REQUEST", "Unable to access channel (core team).", ""},
		{"iago@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"x"}]`}, "is_web_public": {"true"}}, "BAD_REQUEST", "Insufficient permission", ""},
		{"othello@zulip.com", "GET", "/get_stream_id", url.Values{"stream": {"Atlantis"}}, "BAD_REQUEST", "Invalid channel name 'Atlantis'", ""},
		{"othello@zulip.com", "GET", "/get_stream_id", nil, "REQUEST_VARIABLE_MISSING", "Missing 'stream' argument", "stream"},
		{"othello@zulip.com", "DELETE", "/users/me/subscriptions", url.Values{"subscriptions": {`["Verona","Atlantis"]`}}, "BAD_REQUEST", "Channel(s) (Atlantis) do not exist", ""},
		{"othello@zulip.com", "DELETE", "/users/me/subscriptions", url.Values{"subscriptions": {`[1]`}}, "BAD_REQUEST", "subscriptions[0] is not a string", ""},
		{"othello@zulip.com", "DELETE", "/users/me/subscriptions", nil, "REQUEST_VARIABLE_MISSING", "Missing 'subscriptions' argument", "subscriptions"},
		{"othello@zulip.com", "DELETE", "/users/me/subscriptions", url.Values{"subscriptions": {`["Verona"]`}, "principals": {`[10]`}}, "BAD_REQUEST", "Insufficient permission", ""},
		{"othello@zulip.com", "GET", "/streams", url.Values{"include_public": {"yes"}}, "BAD_REQUEST", "include_public is not a boolean", ""},
		{"othello@zulip.com", "GET", "/users/me/subscriptions", url.Values{"include_subscribers": {"some"}}, "BAD_REQUEST", "include_subscribers is not a boolean", ""},
	}
	for _, c := range cases {
		status, body := e.do(c.email, c.method, c.path, c.form)
		e.fail(status, body, 400, c.code, c.msg)
		if got, _ := body["var_name"].(string); got != c.varName {
			t.Errorf("%s %s %v: var_name %q, want %q", c.method, c.path, c.form, got, c.varName)
		}
	}
	e.unchanged(before)
}
