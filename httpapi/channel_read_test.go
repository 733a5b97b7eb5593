package httpapi

import (
	"net/url"
	"regexp"
	"slices"
	"testing"
)

func TestHTTPGetChannelByID(t *testing.T) {
	e := newChanEnv(t)
	body := e.ok(e.do("cordelia@zulip.com", "GET", "/streams/2", nil))
	st := body["stream"].(map[string]any)
	if st["stream_id"] != float64(2) || st["name"] != "Denmark" || st["invite_only"] != false ||
		st["description"] != "A Scandinavian country" || st["subscriber_count"] == nil {
		t.Fatalf("stream %v", st)
	}
	// Private channels: subscribers and administrators, nobody else.
	e.ok(e.do("hamlet@zulip.com", "GET", "/streams/6", nil))
	e.ok(e.do("iago@zulip.com", "GET", "/streams/6", nil))
	for _, c := range []struct{ email, path string }{
		{"cordelia@zulip.com", "/streams/6"},
		{"polonius@zulip.com", "/streams/2"}, // a guest outside a public channel
		{"cordelia@zulip.com", "/streams/999"},
	} {
		status, body := e.do(c.email, "GET", c.path, nil)
		e.fail(status, body, 400, "BAD_REQUEST", "Invalid channel ID")
	}
	status, body := e.do("cordelia@zulip.com", "GET", "/streams/abc", nil)
	e.fail(status, body, 404, "BAD_REQUEST", "Not Found")
}

// members is GET /streams/{id}/members for email.
func (e *chanEnv) members(email, id string) []float64 {
	e.t.Helper()
	var out []float64
	for _, v := range e.ok(e.do(email, "GET", "/streams/"+id+"/members", nil))["subscribers"].([]any) {
		out = append(out, v.(float64))
	}
	return out
}

func TestHTTPChannelMembers(t *testing.T) {
	e := newChanEnv(t)
	if got := e.members("hamlet@zulip.com", "6"); !slices.Equal(got, []float64{9, 10, 11}) {
		t.Fatalf("core team members %v", got)
	}
	if got := e.members("iago@zulip.com", "6"); !slices.Equal(got, []float64{9, 10, 11}) {
		t.Fatalf("core team members for an administrator %v", got)
	}
	if got := e.members("polonius@zulip.com", "1"); !slices.Contains(got, 13) || !slices.IsSorted(got) {
		t.Fatalf("Verona members for a subscribed guest %v", got)
	}
	// A deactivated subscriber is not listed.
	e.ok(e.do("iago@zulip.com", "DELETE", "/users/10", nil))
	if got := e.members("iago@zulip.com", "6"); !slices.Equal(got, []float64{9, 11}) {
		t.Fatalf("core team after hamlet's deactivation %v", got)
	}
	for _, c := range []struct{ email, id string }{{"cordelia@zulip.com", "6"}, {"polonius@zulip.com", "2"}, {"iago@zulip.com", "999"}} {
		status, body := e.do(c.email, "GET", "/streams/"+c.id+"/members", nil)
		e.fail(status, body, 400, "BAD_REQUEST", "Invalid channel ID")
	}
}

func TestHTTPSubscriptionStatus(t *testing.T) {
	e := newChanEnv(t)
	status := func(email, path string) any {
		t.Helper()
		return e.ok(e.do(email, "GET", path, nil))["is_subscribed"]
	}
	if status("cordelia@zulip.com", "/users/12/subscriptions/2") != true || status("cordelia@zulip.com", "/users/8/subscriptions/2") != false ||
		status("hamlet@zulip.com", "/users/11/subscriptions/6") != true {
		t.Fatal("wrong subscription status")
	}
	e.ok(e.do("iago@zulip.com", "DELETE", "/users/14", nil))
	for _, c := range []struct{ email, path, msg string }{
		{"cordelia@zulip.com", "/users/999/subscriptions/2", "No such user"},
		{"cordelia@zulip.com", "/users/16/subscriptions/2", "No such user"}, // a bot
		{"cordelia@zulip.com", "/users/4/subscriptions/1", "No such user"},  // a system bot
		{"cordelia@zulip.com", "/users/14/subscriptions/2", "User is deactivated"},
		{"cordelia@zulip.com", "/users/10/subscriptions/6", "Invalid channel ID"},
		{"cordelia@zulip.com", "/users/10/subscriptions/999", "Invalid channel ID"},
	} {
		st, body := e.do(c.email, "GET", c.path, nil)
		e.fail(st, body, 400, "BAD_REQUEST", c.msg)
	}
	st, body := e.do("cordelia@zulip.com", "GET", "/users/me/subscriptions/2", nil)
	e.fail(st, body, 404, "BAD_REQUEST", "Not Found")
}

func TestHTTPChannelEmailAddress(t *testing.T) {
	e := newChanEnv(t)
	address := func(email, id string, form url.Values) string {
		t.Helper()
		return e.ok(e.do(email, "GET", "/streams/"+id+"/email_address", form))["email"].(string)
	}
	gateway := address("hamlet@zulip.com", "2", nil)
	if !regexp.MustCompile(`^denmark\.[0-9a-f]{32}\.show-sender@zulipdev\.com$`).MatchString(gateway) {
		t.Fatalf("Denmark address %q", gateway)
	}
	if got := address("hamlet@zulip.com", "2", url.Values{"sender_id": {"1"}}); got != gateway {
		t.Fatalf("the Email Gateway bot is the default sender: %q vs %q", got, gateway)
	}
	own := address("hamlet@zulip.com", "2", url.Values{"sender_id": {"10"}})
	if own == gateway || !regexp.MustCompile(`^denmark\.[0-9a-f]{32}\.show-sender@`).MatchString(own) {
		t.Fatalf("hamlet's own address %q (gateway %q)", own, gateway)
	}
	if got := address("hamlet@zulip.com", "6", nil); !regexp.MustCompile(`^core-team\.[0-9a-f]{32}\.show-sender@zulipdev\.com$`).MatchString(got) {
		t.Fatalf("core team address %q", got)
	}
	address("desdemona@zulip.com", "2", url.Values{"sender_id": {"16"}}) // her own bot
	for _, c := range []struct {
		email, id string
		form      url.Values
		msg       string
	}{
		{"hamlet@zulip.com", "2", url.Values{"sender_id": {"12"}}, "Insufficient permission"},
		{"hamlet@zulip.com", "2", url.Values{"sender_id": {"16"}}, "Insufficient permission"}, // desdemona's bot
		{"hamlet@zulip.com", "2", url.Values{"sender_id": {"4"}}, "Insufficient permission"},  // Notification Bot
		{"hamlet@zulip.com", "2", url.Values{"sender_id": {"999"}}, "No such user"},
		{"hamlet@zulip.com", "2", url.Values{"sender_id": {"x"}}, "sender_id is not an integer"},
		{"cordelia@zulip.com", "6", nil, "Invalid channel ID"},
		{"polonius@zulip.com", "2", nil, "Invalid channel ID"},
	} {
		st, body := e.do(c.email, "GET", "/streams/"+c.id+"/email_address", c.form)
		e.fail(st, body, 400, "BAD_REQUEST", c.msg)
	}
}

func TestHTTPChannelTopics(t *testing.T) {
	e := newMsgEnv(t)
	first := e.sendTo("hamlet@zulip.com", "Denmark", "Castle", "one")
	e.sendTo("hamlet@zulip.com", "Denmark", "ghost", "two")
	newest := e.sendTo("othello@zulip.com", "Denmark", "castle", "three")
	body := e.ok(e.do("cordelia@zulip.com", "GET", "/users/me/2/topics", url.Values{"allow_empty_topic_name": {"true"}}))
	topics := body["topics"].([]any)
	if len(topics) != 2 {
		t.Fatalf("topics %v", topics)
	}
	top := topics[0].(map[string]any)
	if top["name"] != "castle" || top["max_id"] != float64(newest) || len(top) != 2 || topics[1].(map[string]any)["name"] != "ghost" {
		t.Fatalf("topics %v (first castle message %d)", topics, first)
	}
	if got := e.ok(e.do("cordelia@zulip.com", "GET", "/users/me/4/topics", nil))["topics"].([]any); len(got) != 0 {
		t.Fatalf("Venice topics %v", got)
	}
	for _, c := range []struct{ email, id string }{{"cordelia@zulip.com", "6"}, {"polonius@zulip.com", "2"}, {"cordelia@zulip.com", "999"}} {
		st, body := e.do(c.email, "GET", "/users/me/"+c.id+"/topics", nil)
		e.fail(st, body, 400, "BAD_REQUEST", "Invalid channel ID")
	}
	st, body := e.do("cordelia@zulip.com", "GET", "/users/me/2/topics", url.Values{"allow_empty_topic_name": {"maybe"}})
	e.fail(st, body, 400, "BAD_REQUEST", "allow_empty_topic_name is not a boolean")
	st, body = e.do("cordelia@zulip.com", "GET", "/users/me/abc/topics", nil)
	e.fail(st, body, 404, "BAD_REQUEST", "Not Found")
	st, body = e.do("cordelia@zulip.com", "POST", "/users/me/2/topics", nil)
	if st != 405 || body["msg"] != "Method Not Allowed" {
		t.Fatalf("POST topics: %d %v", st, body)
	}
	// The subscription-status pattern still takes what it should.
	e.ok(e.do("cordelia@zulip.com", "GET", "/users/12/subscriptions/2", nil))
}
