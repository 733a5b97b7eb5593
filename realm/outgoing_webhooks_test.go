package realm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/minizulip/minizulip/user"
)

// fakeService is a bot server: it records each request and answers with
// the status and body its handler gives.
type fakeService struct {
	*httptest.Server
	mu       sync.Mutex
	requests []serviceRequest
	answer   func() (int, string)
}

type serviceRequest struct {
	contentType, userAgent string
	body                   []byte
}

func newFakeService(t *testing.T, status int, body string) *fakeService {
	t.Helper()
	s := &fakeService{answer: func() (int, string) { return status, body }}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		data, _ := io.ReadAll(req.Body)
		s.mu.Lock()
		s.requests = append(s.requests, serviceRequest{req.Header.Get("Content-Type"), req.Header.Get("User-Agent"), data})
		s.mu.Unlock()
		code, text := s.answer()
		w.WriteHeader(code)
		_, _ = io.WriteString(w, text)
	}))
	t.Cleanup(s.Close)
	return s
}

// httpCaller is a ServiceCaller over net/http, as httpapi's (which the
// realm's tests cannot import).
type httpCaller struct{ client *http.Client }

func (c httpCaller) PostToService(ctx context.Context, serviceURL, contentType, userAgent string, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, serviceURL, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("User-Agent", userAgent)
	resp, err := c.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	return resp.StatusCode, answer, err
}

func (c httpCaller) Timeout() time.Duration { return OutgoingWebhookTimeout }

func (s *fakeService) got() []serviceRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]serviceRequest(nil), s.requests...)
}

// newServiceBot creates hamlet's outgoing-webhook bot posting to url.
func newServiceBot(t *testing.T, r *Realm, url string, iface int) CreatedBot {
	t.Helper()
	bot, err := r.As(idHamlet).CreateBot(bg, BotRequest{FullName: "Echo", ShortName: "echo",
		BotType: user.OutgoingWebhook, PayloadURL: url, InterfaceType: iface})
	if err != nil {
		t.Fatal(err)
	}
	return bot
}

func serviceOf(t *testing.T, r *Realm, botID int) user.Service {
	t.Helper()
	var s user.Service
	_ = r.view(func() error { s = r.users.byID[botID].Service; return nil })
	return s
}

func TestCreateOutgoingWebhookBot(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm_bot"}})
	bot := newServiceBot(t, r, "https://bots.example.com/echo", 0)
	s := serviceOf(t, r, bot.UserID)
	if s.BaseURL != "https://bots.example.com/echo" || s.Interface != user.GenericInterface || s.Name != "echo" ||
		!user.WellFormedAPIKey(s.Token) || s.Token == bot.APIKey {
		t.Fatalf("service %+v", s)
	}
	evs := eventsOfType(t, r, idHamlet, q, "realm_bot")
	if len(evs) != 1 {
		t.Fatalf("events %v", evs)
	}
	services := evs[0]["bot"].(map[string]any)["services"].([]any)
	want := map[string]any{"base_url": "https://bots.example.com/echo", "interface": float64(1), "token": s.Token}
	if len(services) != 1 || !jsonEqual(services[0].(map[string]any), want) {
		t.Fatalf("services %v", services)
	}
	state, err := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm_bot"}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, b := range state.RealmBots {
		if b.UserID == bot.UserID {
			found = len(b.Services) == 1 && b.Services[0].Token == s.Token && b.Services[0].Interface == 1
		} else if len(b.Services) != 0 {
			t.Fatalf("bot %d has services %v", b.UserID, b.Services)
		}
	}
	if !found {
		t.Fatal("realm_bots lacks the service")
	}
	slack, err := r.As(idHamlet).CreateBot(bg, BotRequest{FullName: "Slacky", ShortName: "slacky",
		BotType: user.OutgoingWebhook, PayloadURL: "http://localhost:8080/x", InterfaceType: user.SlackInterface, ServiceName: "svc"})
	if err != nil {
		t.Fatal(err)
	}
	if s := serviceOf(t, r, slack.UserID); s.Interface != 2 || s.Name != "svc" {
		t.Fatalf("slack service %+v", s)
	}
	generic, _ := r.As(idHamlet).CreateBot(bg, BotRequest{FullName: "Plain", ShortName: "plain", PayloadURL: "https://x.example.com"})
	if s := serviceOf(t, r, generic.UserID); s != (user.Service{}) {
		t.Fatalf("generic bot got a service %+v", s)
	}
}

func jsonEqual(a, b map[string]any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

func TestCreateOutgoingWebhookBotRejects(t *testing.T) {
	r, _ := newTestRealm(t)
	before := usersCount(t, r)
	for _, c := range []struct {
		req  BotRequest
		want string
	}{
		{BotRequest{FullName: "Abc", ShortName: "a", BotType: user.OutgoingWebhook, PayloadURL: "not a url"}, "payload_url is not a URL"},
		{BotRequest{FullName: "Abc", ShortName: "a", BotType: user.OutgoingWebhook, PayloadURL: "http://nodot"}, "payload_url is not a URL"},
		{BotRequest{FullName: "Abc", ShortName: "a", BotType: user.OutgoingWebhook, PayloadURL: "gopher://x.example.com"}, "payload_url is not a URL"},
		{BotRequest{FullName: "Abc", ShortName: "a", BotType: user.OutgoingWebhook, PayloadURL: "https://x.example.com", InterfaceType: 3}, "Invalid interface type"},
	} {
		wantCode(t, errOf(r.As(idHamlet).CreateBot(bg, c.req)), CodeBadRequest, c.want)
	}
	if usersCount(t, r) != before {
		t.Fatal("a rejected bot was created")
	}
	for _, ok := range []string{"http://localhost:9000/hook", "https://127.0.0.1/x?y=1", "https://bots.example.co.uk:8443/a/b"} {
		if !user.ValidURL(ok) {
			t.Errorf("%q refused", ok)
		}
	}
}

func TestUpdateBotService(t *testing.T) {
	r, _ := newTestRealm(t)
	bot := newServiceBot(t, r, "https://bots.example.com/echo", 0)
	token := serviceOf(t, r, bot.UserID).Token
	hq := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm_bot"}})
	iq := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"realm_bot"}})
	oq := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"realm_bot"}})
	newURL, slack := "http://localhost:4000/hook", 2
	ans, err := r.As(idHamlet).UpdateBot(bg, bot.UserID, BotUpdate{ServicePayloadURL: &newURL, ServiceInterface: &slack})
	if err != nil {
		t.Fatal(err)
	}
	if ans.ServicePayloadURL == nil || *ans.ServicePayloadURL != newURL || ans.BotOwner != "user10@zulipdev.com" {
		t.Fatalf("answer %+v", ans)
	}
	if s := serviceOf(t, r, bot.UserID); s.BaseURL != newURL || s.Interface != 2 || s.Token != token {
		t.Fatalf("service %+v", s)
	}
	for _, q := range []struct {
		id int
		q  *Queue
		n  int
	}{{idHamlet, hq, 1}, {idIago, iq, 1}, {idOthello, oq, 0}} {
		evs := eventsOfType(t, r, q.id, q.q, "realm_bot")
		if len(evs) != q.n {
			t.Fatalf("user %d events %v", q.id, evs)
		}
		if q.n == 1 {
			want := `{"op":"update","bot":{"user_id":` + itoa(bot.UserID) + `,"services":[{"base_url":"http://localhost:4000/hook","interface":2,"token":"` + token + `"}]}}`
			got, _ := json.Marshal(map[string]any{"op": evs[0]["op"], "bot": evs[0]["bot"]})
			var w, g any
			_ = json.Unmarshal([]byte(want), &w)
			_ = json.Unmarshal(got, &g)
			if !jsonEqual(w.(map[string]any), g.(map[string]any)) {
				t.Fatalf("event %s", got)
			}
		}
	}
	// The same values again change nothing and tell nobody.
	hq = mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm_bot"}})
	if _, err := r.As(idIago).UpdateBot(bg, bot.UserID, BotUpdate{ServicePayloadURL: &newURL}); err != nil {
		t.Fatal(err)
	}
	if evs := eventsOfType(t, r, idHamlet, hq, "realm_bot"); len(evs) != 0 {
		t.Fatalf("no-op update sent %v", evs)
	}
	bad, badIface := "nope", 7
	wantCode(t, errOf(r.As(idHamlet).UpdateBot(bg, bot.UserID, BotUpdate{ServicePayloadURL: &bad})), CodeBadRequest, "service_payload_url is not a URL")
	wantCode(t, errOf(r.As(idHamlet).UpdateBot(bg, bot.UserID, BotUpdate{ServiceInterface: &badIface})), CodeBadRequest, "Invalid interface type")
	wantCode(t, errOf(r.As(idOthello).UpdateBot(bg, bot.UserID, BotUpdate{ServicePayloadURL: &newURL})), CodeBadRequest, "Insufficient permission")
	wantCode(t, errOf(r.As(idHamlet).UpdateBot(bg, idOthello, BotUpdate{})), CodeBadRequest, "No such bot")
	wantCode(t, errOf(r.As(idHamlet).UpdateBot(bg, 9999, BotUpdate{})), CodeBadRequest, "No such bot")
	if s := serviceOf(t, r, bot.UserID); s.BaseURL != newURL || s.Interface != 2 {
		t.Fatalf("rejected updates changed the service: %+v", s)
	}
}

// TestServiceSnapshot checks that Snapshot and Restore carry services.
func TestServiceSnapshot(t *testing.T) {
	r, _ := newTestRealm(t)
	bot := newServiceBot(t, r, "https://bots.example.com/echo", 0)
	snap := r.Snapshot()
	other := "https://other.example.com"
	if _, err := r.As(idHamlet).UpdateBot(bg, bot.UserID, BotUpdate{ServicePayloadURL: &other}); err != nil {
		t.Fatal(err)
	}
	if err := r.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if s := serviceOf(t, r, bot.UserID); s.BaseURL != "https://bots.example.com/echo" {
		t.Fatalf("restored service %+v", s)
	}
}

func TestOutgoingWebhookMentionReply(t *testing.T) {
	svc := newFakeService(t, 200, `{"content": "Hi, **back**!"}`)
	r, _ := newTestRealm(t, WithOutgoingWebhookCaller(httpCaller{svc.Client()}))
	bot := newServiceBot(t, r, svc.URL+"/hook", 0)
	token := serviceOf(t, r, bot.UserID).Token
	id := send(t, r, idOthello, "Verona", "greetings", "hello @**Echo** there")
	r.WaitForOutgoingWebhooks()
	reqs := svc.got()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	if reqs[0].contentType != "application/json" || !strings.HasPrefix(reqs[0].userAgent, "ZulipOutgoingWebhook/") {
		t.Fatalf("headers %+v", reqs[0])
	}
	var p map[string]any
	if err := json.Unmarshal(reqs[0].body, &p); err != nil {
		t.Fatal(err)
	}
	if p["data"] != "hello @**Echo** there" || p["token"] != token || p["trigger"] != "mention" ||
		p["bot_email"] != "echo-bot@zulipdev.com" || p["bot_full_name"] != "Echo" {
		t.Fatalf("payload %v", p)
	}
	m := p["message"].(map[string]any)
	if m["id"] != float64(id) || m["content"] != "hello @**Echo** there" || m["type"] != "stream" ||
		m["display_recipient"] != "Verona" || m["subject"] != "greetings" || m["sender_id"] != float64(idOthello) ||
		!strings.Contains(m["rendered_content"].(string), `data-user-id="`+itoa(bot.UserID)+`"`) || m["flags"] != nil {
		t.Fatalf("message %v", m)
	}
	reply := getMsg(t, r, idOthello, id+1)
	if reply.SenderID != bot.UserID || reply.Subject != "greetings" || reply.DisplayRecipient != "Verona" ||
		reply.Content != "<p>Hi, <strong>back</strong>!</p>" || reply.Client != "OutgoingWebhookResponse" {
		t.Fatalf("reply %+v", reply)
	}
}

func TestOutgoingWebhookTriggers(t *testing.T) {
	svc := newFakeService(t, 200, `{"response_not_required": true}`)
	r, _ := newTestRealm(t, WithOutgoingWebhookCaller(httpCaller{svc.Client()}))
	bot := newServiceBot(t, r, svc.URL, 0)
	a := r.As(idOthello)
	// Not triggering: no mention, a silent mention, a wildcard, a mention
	// in code, a message from a bot.
	send(t, r, idOthello, "Verona", "t", "no mention")
	send(t, r, idOthello, "Verona", "t", "silent @_**Echo**")
	send(t, r, idOthello, "Verona", "t", "`@**Echo**` in code")
	send(t, r, idOthello, "Verona", "t", "@**all** wildcard")
	if _, err := r.As(idDefaultBot).SendDirectMessage(bg, []int{bot.UserID}, "bot to bot"); err != nil {
		t.Fatal(err)
	}
	r.WaitForOutgoingWebhooks()
	if n := len(svc.got()); n != 0 {
		t.Fatalf("%d calls for non-triggering messages", n)
	}
	// A direct message and a group direct message trigger the bot.
	dm, err := a.SendDirectMessage(bg, []int{bot.UserID}, "hi bot")
	if err != nil {
		t.Fatal(err)
	}
	r.WaitForOutgoingWebhooks() // keeps the requests in order
	if _, err := a.SendDirectMessage(bg, []int{bot.UserID, idHamlet}, "hi all"); err != nil {
		t.Fatal(err)
	}
	r.WaitForOutgoingWebhooks()
	reqs := svc.got()
	if len(reqs) != 2 {
		t.Fatalf("%d calls", len(reqs))
	}
	var p map[string]any
	_ = json.Unmarshal(reqs[0].body, &p)
	m := p["message"].(map[string]any)
	if p["trigger"] != "direct_message" || m["id"] != float64(dm.ID) || m["type"] != "private" {
		t.Fatalf("payload %v", p)
	}
	// response_not_required: nothing is sent back.
	if _, _, err := r.As(idOthello).Message(bg, dm.ID+2, ViewOptions{}); err == nil {
		t.Fatal("a reply was sent though none was required")
	}
	// A deactivated bot is not called.
	if err := r.As(idHamlet).DeactivateUser(bg, bot.UserID); err != nil {
		t.Fatal(err)
	}
	send(t, r, idOthello, "Verona", "t", "@**Echo** are you there")
	r.WaitForOutgoingWebhooks()
	if n := len(svc.got()); n != 2 {
		t.Fatalf("deactivated bot called: %d", n)
	}
}

func TestOutgoingWebhookDirectReplyAndSlack(t *testing.T) {
	svc := newFakeService(t, 200, `{"text": "slack says hi"}`)
	r, _ := newTestRealm(t, WithOutgoingWebhookCaller(httpCaller{svc.Client()}))
	bot := newServiceBot(t, r, svc.URL, user.SlackInterface)
	id := send(t, r, idOthello, "Verona", "t", "@**Echo** hello")
	r.WaitForOutgoingWebhooks()
	reqs := svc.got()
	if len(reqs) != 1 || reqs[0].contentType != "application/x-www-form-urlencoded" {
		t.Fatalf("requests %+v", reqs)
	}
	form, _ := url.ParseQuery(string(reqs[0].body))
	if form.Get("text") != "@**Echo** hello" || form.Get("channel_name") != "Verona" || form.Get("trigger_word") != "mention" ||
		form.Get("user_id") != "U"+itoa(idOthello) || form.Get("service_id") != itoa(bot.UserID) || form.Get("token") == "" {
		t.Fatalf("form %v", form)
	}
	if reply := getMsg(t, r, idOthello, id+1); reply.Content != "<p>slack says hi</p>" || reply.SenderID != bot.UserID {
		t.Fatalf("reply %+v", reply)
	}
	// Slack services take no direct messages: the bot says so.
	dm, err := r.As(idOthello).SendDirectMessage(bg, []int{bot.UserID}, "private")
	if err != nil {
		t.Fatal(err)
	}
	r.WaitForOutgoingWebhooks()
	if len(svc.got()) != 1 {
		t.Fatal("a direct message was posted to a Slack service")
	}
	if reply := getMsg(t, r, idOthello, dm.ID+1); reply.SenderID != bot.UserID ||
		reply.Content != "<p>Failure! Slack outgoing webhooks don't support direct messages.</p>" {
		t.Fatalf("reply %+v", reply)
	}
}

func TestOutgoingWebhookFailures(t *testing.T) {
	svc := newFakeService(t, 500, "boom")
	r, _ := newTestRealm(t, WithOutgoingWebhookCaller(httpCaller{svc.Client()}))
	bot := newServiceBot(t, r, svc.URL, 0)
	id := send(t, r, idOthello, "Verona", "t", "@**Echo** fail")
	r.WaitForOutgoingWebhooks()
	failure := getMsg(t, r, idOthello, id+1)
	if failure.SenderID != bot.UserID || failure.Content != "<p>Failure! Third party responded with 500</p>" {
		t.Fatalf("failure %+v", failure)
	}
	_, raw, err := r.As(idHamlet).Message(bg, id+2, ViewOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := "[A message](http://localhost:9991/#narrow/channel/1-Verona/topic/t/near/" + itoa(int(id)) +
		") to your bot @_**Echo** triggered an outgoing webhook.\nThe webhook got a response with status code *500*." +
		"\nThe response contains the following payload:\n```\nb'boom'\n```"
	if raw != want {
		t.Fatalf("owner notice\n%q\nwant\n%q", raw, want)
	}
	// Invalid JSON in a 2xx answer.
	svc.answer = func() (int, string) { return 200, "not json" }
	id = send(t, r, idOthello, "Verona", "t", "@**Echo** again")
	r.WaitForOutgoingWebhooks()
	if m := getMsg(t, r, idOthello, id+1); m.Content != "<p>Failure! Invalid JSON in response</p>" {
		t.Fatalf("failure %+v", m)
	}
	_, raw, _ = r.As(idHamlet).Message(bg, id+2, ViewOptions{})
	if !strings.HasSuffix(raw, "resulted in the following error:\n> Invalid JSON in response\nThe response contains the following payload:\n```\n'not json'\n```") {
		t.Fatalf("owner notice %q", raw)
	}
}

func TestOutgoingWebhookUnreachable(t *testing.T) {
	svc := newFakeService(t, 200, "{}")
	deadURL := svc.URL
	svc.Close() // connections are refused at once
	r, _ := newTestRealm(t, WithOutgoingWebhookCaller(httpCaller{http.DefaultClient}))
	bot := newServiceBot(t, r, deadURL, 0)
	id := send(t, r, idOthello, "Verona", "t", "@**Echo** anyone?")
	r.WaitForOutgoingWebhooks()
	if m := getMsg(t, r, idOthello, id+1); m.SenderID != bot.UserID || m.Content != "<p>Failure! Bot is unavailable</p>" {
		t.Fatalf("failure %+v", m)
	}
	_, raw, _ := r.As(idHamlet).Message(bg, id+2, ViewOptions{})
	if !strings.HasSuffix(raw, "triggered an outgoing webhook.\nA connection error occurred. Is my bot server down?") {
		t.Fatalf("owner notice %q", raw)
	}
}

// TestOutgoingWebhookPrivateChannel: a bot mentioned in a private channel
// it is not subscribed to gets the message, and its reply is posted
// there, as Zulip does.
func TestOutgoingWebhookPrivateChannel(t *testing.T) {
	svc := newFakeService(t, 200, `{"response_string": "seen"}`)
	r, _ := newTestRealm(t, WithOutgoingWebhookCaller(httpCaller{svc.Client()}))
	// Othello, the owner, is not in core team either.
	bot, err := r.As(idOthello).CreateBot(bg, BotRequest{FullName: "Echo", ShortName: "echo",
		BotType: user.OutgoingWebhook, PayloadURL: svc.URL})
	if err != nil {
		t.Fatal(err)
	}
	id := send(t, r, idHamlet, "core team", "secret", "@**Echo** psst")
	r.WaitForOutgoingWebhooks()
	if len(svc.got()) != 1 {
		t.Fatal("the bot was not called")
	}
	if m := getMsg(t, r, idHamlet, id+1); m.SenderID != bot.UserID || m.Content != "<p>seen</p>" || m.DisplayRecipient != "core team" {
		t.Fatalf("reply %+v", m)
	}
	// The bot cannot post there on its own.
	_, err = r.As(bot.UserID).SendChannelMessage(bg, "core team", "secret", "me again")
	wantCode(t, err, CodeBadRequest, "Not authorized to send to channel 'core team'")
}

// TestServiceFixtureRoundTrip: a dump carries the service, and loading it
// gives the bot the same service back; bad entries are refused.
func TestServiceFixtureRoundTrip(t *testing.T) {
	r, clock := newTestRealm(t)
	bot := newServiceBot(t, r, "https://bots.example.com/echo", user.SlackInterface)
	want := serviceOf(t, r, bot.UserID)
	doc := mustDump(t, r)
	loaded, err := Load(doc, WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	if got := serviceOf(t, loaded, bot.UserID); got != want {
		t.Fatalf("loaded service %+v, want %+v", got, want)
	}
	var d map[string]any
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	users := d["users"].([]any)
	var entry map[string]any
	for _, u := range users {
		if u.(map[string]any)["id"] == float64(bot.UserID) {
			entry = u.(map[string]any)
		}
	}
	for _, c := range []struct {
		service map[string]any
		botType float64
		want    string
	}{
		{map[string]any{"base_url": "nope"}, 3, `.service.base_url: "nope" is not a URL`},
		{map[string]any{"base_url": "https://x.example.com", "interface": 5}, 3, ".service.interface: unknown interface 5"},
		{map[string]any{"base_url": "https://x.example.com"}, 1, ".service: only outgoing webhook bots"},
	} {
		entry["service"], entry["bot_type"] = c.service, c.botType
		bad, _ := json.Marshal(d)
		if _, err := Load(bad, WithClock(clock)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("load error %v, want %q", err, c.want)
		}
	}
}

// TestNoCallerNoCalls: a realm made without a ServiceCaller calls no
// service.
func TestNoCallerNoCalls(t *testing.T) {
	svc := newFakeService(t, 200, `{"content": "hi"}`)
	r, _ := newTestRealm(t)
	newServiceBot(t, r, svc.URL, 0)
	id := send(t, r, idOthello, "Verona", "t", "@**Echo** hello")
	r.WaitForOutgoingWebhooks()
	if len(svc.got()) != 0 {
		t.Fatal("a realm with no caller called the service")
	}
	if _, _, err := r.As(idOthello).Message(bg, id+1, ViewOptions{}); err == nil {
		t.Fatal("a reply was sent")
	}
}

// A reply's widget_content (a JSON string, as zulip_botserver's bots
// send it) makes the reply a widget.
func TestOutgoingWebhookReplyWidget(t *testing.T) {
	zform := `{"widget_type": "zform", "extra_data": {"type": "choices", "heading": "Q?", "choices": [{"short_name": "A", "long_name": "Yes", "reply": "answer A"}]}}`
	body, _ := json.Marshal(map[string]any{"content": "Q?", "widget_content": zform})
	svc := newFakeService(t, 200, string(body))
	r, _ := newTestRealm(t, WithOutgoingWebhookCaller(httpCaller{svc.Client()}))
	newServiceBot(t, r, svc.URL+"/hook", 0)
	id := send(t, r, idOthello, "Verona", "quiz", "@**Echo** quiz me")
	r.WaitForOutgoingWebhooks()
	reply := getMsg(t, r, idOthello, id+1)
	if reply.Content != "<p>Q?</p>" || len(reply.Submessages) != 1 || reply.Submessages[0].Content != zform {
		t.Fatalf("reply %+v", reply)
	}
}

// Row 201 (POST /zulip-outgoing-webhook trigger): a direct message
// triggers the bot with "private_message" below 201, "direct_message"
// from it on; a mention is "mention" at both.
func TestOutgoingWebhookDirectTriggerFollowsFeatureLevel(t *testing.T) {
	for _, level := range []int{changeDirectMessageTrigger.Level() - 1, changeDirectMessageTrigger.Level()} {
		svc := newFakeService(t, 200, `{"response_not_required": true}`)
		r, _ := newTestRealm(t, WithOutgoingWebhookCaller(httpCaller{svc.Client()}), WithFeatureLevel(level, "test"))
		bot := newServiceBot(t, r, svc.URL, 0)
		if _, err := r.As(idOthello).SendDirectMessage(bg, []int{bot.UserID}, "hi bot"); err != nil {
			t.Fatal(err)
		}
		r.WaitForOutgoingWebhooks()
		send(t, r, idOthello, "Verona", "t", "hello @**Echo**")
		r.WaitForOutgoingWebhooks()
		reqs := svc.got()
		if len(reqs) != 2 {
			t.Fatalf("level %d: %d calls", level, len(reqs))
		}
		want := map[bool]string{true: "direct_message", false: "private_message"}[level >= changeDirectMessageTrigger.Level()]
		for i, w := range []string{want, "mention"} {
			var p map[string]any
			if err := json.Unmarshal(reqs[i].body, &p); err != nil {
				t.Fatal(err)
			}
			if p["trigger"] != w {
				t.Errorf("level %d: call %d's trigger %v, want %q", level, i, p["trigger"], w)
			}
		}
	}
}
