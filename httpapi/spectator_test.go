package httpapi

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// spectatorEnv is the dev realm (Rome is its one web-public channel) with
// a message in Rome, one in Denmark (public, not web-public), one in the
// private "core team" and a direct message.
type spectatorEnv struct {
	t  *testing.T
	ts *TestServer
	// ids of the messages sent: rome, denmark, core, dm.
	rome, denmark, core, dm int
}

func newSpectatorEnv(t *testing.T, opts ...RunOption) *spectatorEnv {
	e := &spectatorEnv{t: t, ts: RunT(t, opts...)}
	send := func(email string, form url.Values) int {
		resp, err := http.DefaultClient.Do(e.ts.NewRequest(email, "POST", "/messages", form))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct{ ID int }
		_ = json.NewDecoder(resp.Body).Decode(&out)
		if resp.StatusCode != 200 || out.ID == 0 {
			t.Fatalf("send %v: %d", form, resp.StatusCode)
		}
		return out.ID
	}
	channel := func(name string) url.Values {
		return url.Values{"type": {"stream"}, "to": {name}, "topic": {"spectated"}, "content": {"in " + name}}
	}
	e.rome = send("iago@zulip.com", channel("Rome"))
	e.denmark = send("iago@zulip.com", channel("Denmark"))
	e.core = send("iago@zulip.com", channel("core team"))
	e.dm = send("iago@zulip.com", url.Values{"type": {"private"}, "to": {"[\"hamlet@zulip.com\"]"}, "content": {"secret"}})
	return e
}

// do sends a logged-out /json request (cookies optional) and decodes
// its answer.
func (e *spectatorEnv) do(method, path string, form url.Values, cookies ...*http.Cookie) (*http.Response, map[string]any) {
	e.t.Helper()
	target := e.ts.URL + JSONPrefix + path
	var body *strings.Reader
	if method == "GET" {
		target += "?" + form.Encode()
		body = strings.NewReader("")
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, target, body)
	if method != "GET" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	return resp, out
}

// missingAuth checks Zulip's MissingAuthenticationError answer: 401,
// UNAUTHORIZED, asking for a session.
func (e *spectatorEnv) missingAuth(what string, resp *http.Response, out map[string]any) {
	e.t.Helper()
	if resp.StatusCode != 401 || out["code"] != "UNAUTHORIZED" || out["msg"] != "Not logged in: API authentication or user session required" ||
		resp.Header.Get("WWW-Authenticate") == "" {
		e.t.Errorf("%s: %d %v (WWW-Authenticate %q), want 401 UNAUTHORIZED", what, resp.StatusCode, out, resp.Header.Get("WWW-Authenticate"))
	}
}

func spectatedIDs(out map[string]any) []int {
	var ids []int
	msgs, _ := out["messages"].([]any)
	for _, m := range msgs {
		ids = append(ids, int(m.(map[string]any)["id"].(float64)))
	}
	return ids
}

// Zulip's get_messages_backend for an AnonymousUser
// (zerver/views/message_fetch.py): the narrow must hold a positive
// channels:web-public term (in:home is dropped first) and only
// is_spectator_compatible operators (zerver/lib/narrow.py); otherwise
// MissingAuthenticationError. Only web-public channels' messages come
// back, flagged read, even when the narrow names another channel or the
// message IDs of others.
func TestSpectatorFetchesWebPublicMessagesOnly(t *testing.T) {
	e := newSpectatorEnv(t)
	fetch := func(narrow string, extra ...string) (*http.Response, map[string]any) {
		form := url.Values{"anchor": {"newest"}, "num_before": {"100"}, "num_after": {"0"}, "narrow": {narrow}}
		for i := 0; i+1 < len(extra); i += 2 {
			form.Set(extra[i], extra[i+1])
		}
		return e.do("GET", "/messages", form)
	}
	resp, out := fetch(`[{"operator":"channels","operand":"web-public"},{"operator":"in","operand":"home"}]`)
	if resp.StatusCode != 200 {
		t.Fatalf("web-public fetch: %d %v", resp.StatusCode, out)
	}
	ids := spectatedIDs(out)
	if len(ids) != 1 || ids[0] != e.rome {
		t.Fatalf("web-public fetch gave %v, want only Rome's %d", ids, e.rome)
	}
	m := out["messages"].([]any)[0].(map[string]any)
	if flags, _ := m["flags"].([]any); len(flags) != 1 || flags[0] != "read" {
		t.Errorf("flags %v, want [read]", m["flags"])
	}
	if m["avatar_url"] == nil {
		t.Errorf("avatar_url is null for a spectator (client_gravatar is forced off)")
	}
	// The legacy streams spelling and a topic narrow are admitted.
	resp, out = fetch(`[["streams","web-public"],["stream","Rome"],["topic","spectated"]]`)
	if ids := spectatedIDs(out); resp.StatusCode != 200 || len(ids) != 1 || ids[0] != e.rome {
		t.Errorf("Rome topic: %d %v", resp.StatusCode, out)
	}
	// A channel that is not web-public: Zulip's by_channel refusal.
	resp, out = fetch(`[["channels","web-public"],["channel","Denmark"]]`)
	if resp.StatusCode != 400 || out["code"] != "BAD_NARROW" || out["msg"] != "Invalid narrow operator: unknown web-public channel Denmark" {
		t.Errorf("Denmark narrow: %d %v", resp.StatusCode, out)
	}
	// message_ids of private and direct messages are left out.
	_, out = e.do("GET", "/messages", url.Values{"narrow": {`[["channels","web-public"]]`},
		"message_ids": {"[" + strings.Join([]string{itoa(e.rome), itoa(e.denmark), itoa(e.core), itoa(e.dm)}, ",") + "]"}})
	if ids := spectatedIDs(out); len(ids) != 1 || ids[0] != e.rome {
		t.Errorf("message_ids fetch gave %v (%v), want only %d", ids, out, e.rome)
	}
	for _, tc := range []struct{ name, narrow string }{
		{"no narrow", ``},
		{"no web-public term", `[["channel","Rome"]]`},
		{"negated web-public", `[{"operator":"channels","operand":"web-public","negated":true}]`},
		{"public channels", `[["channels","public"]]`},
		{"a dm operator", `[["channels","web-public"],["dm","hamlet@zulip.com"]]`},
		{"is:starred", `[["channels","web-public"],["is","starred"]]`},
		{"in:all", `[["channels","web-public"],["in","all"]]`},
	} {
		resp, out := fetch(tc.narrow)
		e.missingAuth(tc.name, resp, out)
	}
}

// channelID is a channel's ID, asked as iago.
func (e *spectatorEnv) channelID(name string) int {
	e.t.Helper()
	resp, err := http.DefaultClient.Do(e.ts.NewRequest("iago@zulip.com", "GET", "/get_stream_id?stream="+url.QueryEscape(name), nil))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		StreamID int `json:"stream_id"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return out.StreamID
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// Without spectator access (the realm's enable_spectator_access off), or
// with no web-public channel left, Zulip's
// Realm.allow_web_public_streams_access is false: every logged-out call
// is MissingAuthenticationError.
func TestSpectatorsRefusedWithoutAccess(t *testing.T) {
	e := newSpectatorEnv(t)
	narrow := url.Values{"anchor": {"newest"}, "num_before": {"10"}, "num_after": {"0"}, "narrow": {`[["channels","web-public"]]`}}
	off := func(what string) {
		t.Helper()
		resp, out := e.do("GET", "/messages", narrow)
		e.missingAuth(what+": messages", resp, out)
		resp, out = e.do("POST", "/register", nil)
		e.missingAuth(what+": register", resp, out)
		resp, out = e.do("GET", "/messages/"+itoa(e.rome), nil)
		e.missingAuth(what+": message", resp, out)
	}
	// Rome made not web-public: no web-public channel.
	rome := e.channelID("Rome")
	resp, err := http.DefaultClient.Do(e.ts.NewRequest("desdemona@zulip.com", "PATCH", "/streams/"+itoa(rome), url.Values{"is_web_public": {"false"}}))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("PATCH Rome: %v %v", err, resp)
	}
	resp.Body.Close()
	off("no web-public channel")
	resp, _ = http.DefaultClient.Do(e.ts.NewRequest("desdemona@zulip.com", "PATCH", "/streams/"+itoa(rome), url.Values{"is_web_public": {"true"}}))
	if resp.StatusCode != 200 {
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		t.Fatalf("PATCH Rome back: %d %v", resp.StatusCode, out)
	}
	resp.Body.Close()
	if resp, out := e.do("GET", "/messages", narrow); resp.StatusCode != 200 {
		t.Fatalf("Rome web-public again: %d %v", resp.StatusCode, out)
	}
	resp, _ = http.DefaultClient.Do(e.ts.NewRequest("iago@zulip.com", "PATCH", "/realm", url.Values{"enable_spectator_access": {"false"}}))
	resp.Body.Close()
	off("spectator access off")
	// The API prefix never serves spectators.
	resp, err = http.Get(e.ts.URL + "/api/v1/messages?" + narrow.Encode())
	if err != nil || resp.StatusCode != 401 {
		t.Errorf("/api/v1 logged out: %v %v", err, resp)
	}
}

// Zulip's events_register_backend for an AnonymousUser: no queue
// (queue_id null, no last_event_id), client_gravatar and
// include_subscribers refused, the web-public channels as subscriptions,
// no streams section, the settings of a new account in the language of
// the django_language cookie with Recent conversations as home view
// (zerver/lib/events.py, fetch_initial_state_data with user_profile None).
func TestSpectatorRegister(t *testing.T) {
	e := newSpectatorEnv(t)
	queuesBefore := e.ts.Realm.QueueCount()
	resp, out := e.do("POST", "/register", nil, &http.Cookie{Name: "django_language", Value: "de"})
	if resp.StatusCode != 200 {
		t.Fatalf("register: %d %v", resp.StatusCode, out)
	}
	if q, ok := out["queue_id"]; !ok || q != nil {
		t.Errorf("queue_id %v (present %v), want null", q, ok)
	}
	if _, ok := out["last_event_id"]; ok {
		t.Errorf("last_event_id sent to a spectator")
	}
	if _, ok := out["streams"]; ok {
		t.Errorf("streams section sent to a spectator")
	}
	if n := e.ts.Realm.QueueCount(); n != queuesBefore {
		t.Errorf("a spectator's register opened a queue: %d queues, were %d", n, queuesBefore)
	}
	subs, _ := out["subscriptions"].([]any)
	if len(subs) != 1 || subs[0].(map[string]any)["name"] != "Rome" {
		t.Errorf("subscriptions %v, want Rome only", subs)
	}
	if out["user_id"] != float64(0) || out["is_guest"] != true || out["full_name"] != "Anonymous User" ||
		out["realm_presence_disabled"] != true || out["realm_allow_message_editing"] != false || out["max_message_id"] != float64(-1) {
		t.Errorf("spectator state: user_id %v is_guest %v full_name %v presence_disabled %v editing %v max_message_id %v",
			out["user_id"], out["is_guest"], out["full_name"], out["realm_presence_disabled"], out["realm_allow_message_editing"], out["max_message_id"])
	}
	settings, _ := out["user_settings"].(map[string]any)
	if settings["default_language"] != "de" || (settings["web_home_view"] != "recent" && settings["web_home_view"] != "recent_topics") {
		t.Errorf("user_settings language %v home %v", settings["default_language"], settings["web_home_view"])
	}
	for _, key := range []string{"presences", "drafts", "realm_bots", "alert_words", "muted_users", "starred_messages"} {
		v, ok := out[key]
		if !ok {
			t.Errorf("%s missing", key)
			continue
		}
		switch v := v.(type) {
		case []any:
			if len(v) != 0 {
				t.Errorf("%s = %v, want empty", key, v)
			}
		case map[string]any:
			if len(v) != 0 {
				t.Errorf("%s = %v, want empty", key, v)
			}
		}
	}
	for _, bad := range []string{"client_gravatar", "include_subscribers"} {
		resp, out := e.do("POST", "/register", url.Values{bad: {"true"}})
		if resp.StatusCode != 400 || out["msg"] != "Invalid '"+bad+"' parameter for anonymous request" {
			t.Errorf("%s=true: %d %v", bad, resp.StatusCode, out)
		}
	}
}

// GET /json/messages/{id} and /json/users/me/{stream_id}/topics serve
// spectators web-public data only (Zulip's access_web_public_message
// and access_web_public_stream); a live session is served as its user.
func TestSpectatorSingleMessageAndTopics(t *testing.T) {
	e := newSpectatorEnv(t)
	if resp, out := e.do("GET", "/messages/"+itoa(e.rome), nil); resp.StatusCode != 200 || out["raw_content"] != "in Rome" {
		t.Errorf("Rome message: %d %v", resp.StatusCode, out)
	}
	for _, id := range []int{e.denmark, e.core, e.dm, 999999} {
		if resp, out := e.do("GET", "/messages/"+itoa(id), nil); resp.StatusCode != 400 || out["msg"] != "Invalid message(s)" {
			t.Errorf("message %d: %d %v", id, resp.StatusCode, out)
		}
	}
	rome, denmark := e.channelID("Rome"), e.channelID("Denmark")
	if resp, out := e.do("GET", "/users/me/"+itoa(rome)+"/topics", nil); resp.StatusCode != 200 || len(out["topics"].([]any)) != 1 {
		t.Errorf("Rome topics: %d %v", resp.StatusCode, out)
	}
	if resp, out := e.do("GET", "/users/me/"+itoa(denmark)+"/topics", nil); resp.StatusCode != 400 || out["msg"] != "Invalid channel ID" {
		t.Errorf("Denmark topics: %d %v", resp.StatusCode, out)
	}
	// A stale session cookie is no session: served as a spectator.
	if resp, out := e.do("GET", "/messages/"+itoa(e.rome), nil, &http.Cookie{Name: "sessionid", Value: "stale"}); resp.StatusCode != 200 {
		t.Errorf("stale session: %d %v", resp.StatusCode, out)
	}
	// Routes Zulip does not open to spectators still ask for a session.
	resp, out := e.do("GET", "/users/me", nil)
	e.missingAuth("GET /users/me", resp, out)
	resp, out = e.do("POST", "/users/me/presence", url.Values{"status": {"active"}})
	e.missingAuth("POST /users/me/presence", resp, out)
}
