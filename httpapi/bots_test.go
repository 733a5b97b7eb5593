package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"testing"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/user"
)

func TestHTTPOutgoingWebhookBot(t *testing.T) {
	e := newMsgEnv(t)
	create := url.Values{"full_name": {"Echo"}, "short_name": {"echo"}, "bot_type": {"3"},
		"payload_url": {`"https://bots.example.com/echo"`}, "interface_type": {"2"}}
	for _, c := range []struct {
		param, value, msg string
	}{
		{"payload_url", "https://bots.example.com/echo", `Argument "payload_url" is not valid JSON.`},
		{"payload_url", "5", "payload_url is not a string"},
		{"payload_url", `"not a url"`, "payload_url is not a URL"},
		{"interface_type", "9", "Invalid interface type"},
	} {
		bad := url.Values{}
		for k, v := range create {
			bad[k] = v
		}
		bad.Set(c.param, c.value)
		status, body := e.do("hamlet@zulip.com", "POST", "/bots", bad)
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
	body := e.ok(e.do("hamlet@zulip.com", "POST", "/bots", create))
	id := int(body["user_id"].(float64))
	_, state := e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["realm_bot"]`}})
	var services []any
	for _, b := range state["realm_bots"].([]any) {
		if bot := b.(map[string]any); bot["user_id"] == float64(id) {
			services = bot["services"].([]any)
		}
	}
	if len(services) != 1 {
		t.Fatalf("services %v", services)
	}
	s := services[0].(map[string]any)
	if s["base_url"] != "https://bots.example.com/echo" || s["interface"] != float64(2) || s["token"] == "" {
		t.Fatalf("service %v", s)
	}
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["realm_bot"]`}})
	path := "/bots/" + strconv.Itoa(id)
	status, resp := e.do("hamlet@zulip.com", "PATCH", path, url.Values{"service_payload_url": {"plain"}})
	e.fail(status, resp, 400, "BAD_REQUEST", `Argument "service_payload_url" is not valid JSON.`)
	status, resp = e.do("hamlet@zulip.com", "PATCH", path, url.Values{"service_interface": {"x"}})
	e.fail(status, resp, 400, "BAD_REQUEST", "service_interface is not an integer")
	status, resp = e.do("othello@zulip.com", "PATCH", path, url.Values{"service_interface": {"1"}})
	e.fail(status, resp, 400, "BAD_REQUEST", "Insufficient permission")
	resp = e.ok(e.do("hamlet@zulip.com", "PATCH", path, url.Values{"service_payload_url": {`"http://localhost:4000/new"`}, "service_interface": {"1"}}))
	if resp["service_payload_url"] != "http://localhost:4000/new" || resp["service_interface"] != float64(1) || resp["full_name"] != "Echo" {
		t.Fatalf("answer %v", resp)
	}
	evs := e.events("hamlet@zulip.com", qid, -1, false)
	if len(evs) != 1 {
		t.Fatalf("events %v", evs)
	}
	bot := evs[0].(map[string]any)["bot"].(map[string]any)
	got := bot["services"].([]any)[0].(map[string]any)
	if bot["user_id"] != float64(id) || got["base_url"] != "http://localhost:4000/new" || got["interface"] != float64(1) || got["token"] != s["token"] {
		t.Fatalf("event %v", evs[0])
	}
}

// TestTestServerCallsServices: a TestServer's realm posts to an
// outgoing-webhook bot's service over HTTP and sends its answer back.
func TestTestServerCallsServices(t *testing.T) {
	got := make(chan map[string]any, 1)
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var p map[string]any
		_ = json.NewDecoder(req.Body).Decode(&p)
		got <- p
		_, _ = io.WriteString(w, `{"content": "pong"}`)
	}))
	defer svc.Close()
	ts, err := Run()
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	r := ts.Realm
	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")
	bot, err := r.As(hamlet).CreateBot(context.Background(), realm.BotRequest{FullName: "Pinger", ShortName: "pinger",
		BotType: user.OutgoingWebhook, PayloadURL: svc.URL})
	if err != nil {
		t.Fatal(err)
	}
	sent, err := r.As(hamlet).SendDirectMessage(context.Background(), []int{bot.UserID}, "ping")
	if err != nil {
		t.Fatal(err)
	}
	if p := <-got; p["data"] != "ping" || p["trigger"] != "direct_message" {
		t.Fatalf("payload %v", p)
	}
	r.WaitForOutgoingWebhooks()
	m, _, err := r.As(hamlet).Message(context.Background(), sent.ID+1, realm.ViewOptions{})
	if err != nil || m.SenderID != bot.UserID || m.Content != "pong" {
		t.Fatalf("reply %+v %v", m, err)
	}
}
