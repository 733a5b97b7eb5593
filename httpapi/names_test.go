package httpapi

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/upload"
	"github.com/minizulip/minizulip/user"
)

// Names refuse NUL and the other characters Zulip refuses, with a clear
// message, and nothing is created (issue 14, item 3).
func TestNamesRefuseUnprintableCharacters(t *testing.T) {
	e := newMsgEnv(t)
	for _, c := range []struct {
		path string
		form url.Values
		msg  string
	}{
		{"/user_groups/create", url.Values{"name": {"crew\x00"}, "members": {"[10]"}}, "Invalid character in user group name, at position 5."},
		{"/saved_snippets", url.Values{"title": {"t\x01"}, "content": {"c"}}, "Invalid character in title, at position 2."},
		{"/saved_snippets", url.Values{"title": {"t"}, "content": {"c\x00"}}, "Content must not contain null bytes"},
		{"/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"bad\u0000name"}]`}}, "Invalid character in channel name, at position 4."},
		{"/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"a\x00"}, "content": {"x"}}, "Invalid character in topic, at position 2!"},
	} {
		st, body := e.do("hamlet@zulip.com", "POST", c.path, c.form)
		e.fail(st, body, 400, "BAD_REQUEST", c.msg)
	}
	_, groups := e.do("hamlet@zulip.com", "GET", "/user_groups", nil)
	for _, g := range groups["user_groups"].([]any) {
		if g.(map[string]any)["name"] == "crew\x00" {
			t.Fatal("a refused group was created")
		}
	}
	_, snippets := e.do("hamlet@zulip.com", "GET", "/saved_snippets", nil)
	if n := len(snippets["saved_snippets"].([]any)); n != 0 {
		t.Fatalf("%d snippets after refusals", n)
	}
	if e.realm.MessageCount() != 0 {
		t.Fatal("a refused message was stored")
	}
}

// An incoming-webhook bot's key sends messages and nothing else: every
// other route answers as Zulip does (issue 14, item 2).
func TestIncomingWebhookBotOnlySends(t *testing.T) {
	e := newMsgEnv(t)
	const bot = "webhook-bot@zulip.com"
	st, body := e.do(bot, "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"alerts"}, "content": {"build failed"}})
	if st != 200 || body["id"] == nil {
		t.Fatalf("webhook bot send: %d %v", st, body)
	}
	for _, c := range []struct{ method, path string }{
		{"GET", "/messages"}, {"GET", "/users"}, {"GET", "/users/me"}, {"POST", "/register"},
		{"GET", "/users/me/subscriptions"}, {"POST", "/users/me/subscriptions"},
	} {
		st, body := e.do(bot, c.method, c.path, url.Values{"anchor": {"newest"}, "num_before": {"1"}, "num_after": {"0"},
			"subscriptions": {`[{"name":"x"}]`}})
		e.fail(st, body, 401, "UNAUTHORIZED", "This API is not available to incoming webhook bots.")
	}
	if n := e.realm.QueueCount(); n != 0 {
		t.Fatalf("the bot opened %d queues", n)
	}
	// Nor does its key read files, though they are not below /api/v1:
	// the refusal is the realm's.
	pathID := e.uploadOK("hamlet@zulip.com", "notes.txt", "text/plain", []byte("notes"))
	e.ok(e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"alerts"},
		"content": {link(pathID)}}))
	e.wantFile("othello@zulip.com", pathID, "notes")
	st, _, text := e.fetchFile(bot, upload.URL(pathID))
	if st != 401 || !strings.Contains(text, "This API is not available to incoming webhook bots.") {
		t.Fatalf("webhook bot reading a file: %d %s", st, text)
	}
	// A generic bot is not limited.
	if st, _ := e.do("default-bot@zulip.com", "GET", "/users/me", nil); st != 200 {
		t.Fatalf("generic bot: %d", st)
	}
}

// Over HTTP, a send whose body passes the cap is a 413 and stores nothing.
func TestOversizeSendIs413(t *testing.T) {
	e := newMsgEnv(t)
	form := url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"big"}, "content": {strings.Repeat("x", maxBodyBytes)}}
	st, body := e.do("hamlet@zulip.com", "POST", "/messages", form)
	e.fail(st, body, 413, "BAD_REQUEST", "Request body too large (limit: 64 MiB)")
	if e.realm.MessageCount() != 0 {
		t.Fatal("an oversize send stored a message")
	}
}

// A stalled request body is cut off by the server's read timeout instead of
// pinning the connection (issue 14, item 5): shown with a short timeout.
func TestStalledBodyTimesOut(t *testing.T) {
	srv, cancel := NewHTTPServer(New(realm.New()))
	defer cancel()
	if srv.ReadTimeout != BodyIdleTimeout || srv.ReadHeaderTimeout <= 0 {
		t.Fatalf("timeouts %v / %v", srv.ReadTimeout, srv.ReadHeaderTimeout)
	}
	srv.ReadTimeout = 200 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// Announce a body, send a byte of it, then stall.
	fmt.Fprintf(conn, "POST /api/v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nx")
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	start := time.Now()
	buf := make([]byte, 512)
	for {
		if _, err := conn.Read(buf); err != nil {
			break // the server closed the connection (or answered and closed)
		}
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("a stalled body held the connection for %v", d)
	}
}

// Dev-login sessions expire after Django's default session age on the
// realm's clock, and the oldest give way past the bound (issue 14, item 4).
func TestSessionsExpireAndAreBounded(t *testing.T) {
	e := newMsgEnv(t)
	srv := New(e.realm)
	sess := srv.sessions.start(10, e.realm.Now())
	req := httptest.NewRequest("GET", "/json/users/me", nil)
	req.AddCookie(&http.Cookie{Name: "sessionid", Value: sess.id})
	if _, err := srv.authenticateSession(req); err != nil {
		t.Fatalf("fresh session refused: %v", err)
	}
	e.clock.Advance(sessionLifetime + time.Second)
	if _, err := srv.authenticateSession(req); err == nil {
		t.Fatal("a session past its lifetime still works")
	}
	first := srv.sessions.start(10, e.realm.Now())
	for i := 0; i < maxSessions; i++ {
		srv.sessions.start(10, e.realm.Now())
	}
	if n := srv.sessions.count(); n != maxSessions {
		t.Fatalf("%d sessions kept, bound %d", n, maxSessions)
	}
	if _, ok := srv.sessions.lookup(first.id, e.realm.Now()); ok {
		t.Fatal("the oldest session survived the bound")
	}
}

// POST /fetch_api_key logs in with a password as Zulip does, and
// server_settings advertises dev login only where it works (issue 14,
// item 8).
func TestFetchAPIKeyOverHTTP(t *testing.T) {
	e := newMsgEnv(t)
	st, body := e.do("", "POST", "/fetch_api_key", url.Values{"username": {"hamlet@zulip.com"}, "password": {user.DevPassword}})
	if _, key, _ := e.realm.APIKey("hamlet@zulip.com"); st != 200 || body["api_key"] != key || body["user_id"] != float64(10) {
		t.Fatalf("login: %d %v", st, body)
	}
	st, body = e.do("", "POST", "/fetch_api_key", url.Values{"username": {"hamlet@zulip.com"}, "password": {"nope"}})
	e.fail(st, body, 401, "AUTHENTICATION_FAILED", "Your username or password is incorrect")
	st, body = e.do("", "POST", "/fetch_api_key", url.Values{"username": {"hamlet@zulip.com"}})
	e.fail(st, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'password' argument")

	for dev, want := range map[bool]bool{true: true, false: false} {
		ts := httptest.NewServer(New(realm.New(), WithDevEndpoints(dev)))
		_, raw := rawDo(t, mustRequest("GET", ts.URL+"/api/v1/server_settings"))
		methods := srvDecode(t, raw)["authentication_methods"].(map[string]any)
		if methods["dev"] != want || methods["password"] != true {
			t.Errorf("dev endpoints %v: authentication_methods %v", dev, methods)
		}
		ts.Close()
	}
}

// Linkifier patterns outside RE2 syntax are refused over HTTP, and
// nothing is added.
func TestLinkifierRefusesNonRE2(t *testing.T) {
	e := newMsgEnv(t)
	_, before := e.do("iago@zulip.com", "GET", "/realm/linkifiers", nil)
	st, body := e.do("iago@zulip.com", "POST", "/realm/filters", url.Values{"pattern": {`(?P<id>[0-9]+)\1`}, "url_template": {"https://x/{id}"}})
	e.fail(st, body, 400, "BAD_REQUEST", "Bad regular expression: invalid escape sequence: `\\1`")
	_, after := e.do("iago@zulip.com", "GET", "/realm/linkifiers", nil)
	if len(after["linkifiers"].([]any)) != len(before["linkifiers"].([]any)) {
		t.Fatal("a refused linkifier was added")
	}
}
