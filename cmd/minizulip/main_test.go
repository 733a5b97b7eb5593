package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/user"
)

// mainStart runs the command with args on a free port and returns its URL,
// a stop function that returns run's error, and its output (complete once
// stopped).
func mainStart(t *testing.T, args ...string) (string, func() error, *bytes.Buffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &bytes.Buffer{}
	urls := make(chan string, 1)
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), out, func(u string) { urls <- u })
	}()
	var base string
	select {
	case base = <-urls:
	case err := <-errc:
		t.Fatalf("run: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("not ready after 5 s")
	}
	stopped := false
	var runErr error
	stop := func() error {
		if !stopped {
			stopped = true
			cancel()
			select {
			case runErr = <-errc:
			case <-time.After(5 * time.Second):
				t.Fatal("run did not return 5 s after cancel")
			}
		}
		return runErr
	}
	t.Cleanup(func() { _ = stop() })
	return base, stop, out
}

func mainGetJSON(t *testing.T, req *http.Request) (int, map[string]any) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out
}

func TestRunServesDevRealmAndStops(t *testing.T) {
	base, stop, out := mainStart(t, "-feature-level", "277", "-zulip-version", "9.0", "-plan-type", "2")
	if !strings.HasPrefix(base, "http://127.0.0.1:") || strings.HasSuffix(base, ":0") {
		t.Fatalf("URL %q", base)
	}
	req, _ := http.NewRequest("GET", base+"/api/v1/server_settings", nil)
	status, settings := mainGetJSON(t, req)
	if status != 200 || settings["realm_uri"] != base || settings["zulip_feature_level"] != float64(277) || settings["zulip_version"] != "9.0" {
		t.Fatalf("server_settings %d %v", status, settings)
	}
	req, _ = http.NewRequest("POST", base+"/api/v1/dev_fetch_api_key", strings.NewReader("username=iago@zulip.com"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	status, login := mainGetJSON(t, req)
	key, _ := login["api_key"].(string)
	if status != 200 || login["user_id"] != float64(11) || len(key) != 32 {
		t.Fatalf("dev_fetch_api_key %d %v", status, login)
	}
	req, _ = http.NewRequest("GET", base+"/api/v1/users/me", nil)
	req.SetBasicAuth("iago@zulip.com", key)
	if status, me := mainGetJSON(t, req); status != 200 || me["user_id"] != float64(11) {
		t.Fatalf("users/me %d %v", status, me)
	}
	// -plan-type 2: Zulip Cloud Free, its 5 GiB quota in MiB at level 277.
	req, _ = http.NewRequest("POST", base+"/api/v1/register", strings.NewReader(url.Values{"fetch_event_types": {`["realm"]`}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth("iago@zulip.com", key)
	if status, reg := mainGetJSON(t, req); status != 200 || reg["realm_plan_type"] != float64(2) || reg["realm_upload_quota_mib"] != float64(5<<10) {
		t.Fatalf("register on -plan-type 2: %d %v %v", status, reg["realm_plan_type"], reg["realm_upload_quota_mib"])
	}

	// A long poll in flight must not hold up shutdown.
	req, _ = http.NewRequest("POST", base+"/api/v1/register", strings.NewReader(url.Values{"event_types": {`["message"]`}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth("iago@zulip.com", key)
	status, reg := mainGetJSON(t, req)
	if status != 200 {
		t.Fatalf("register %d %v", status, reg)
	}
	polled := make(chan struct{})
	go func() {
		defer close(polled)
		q := url.Values{"queue_id": {reg["queue_id"].(string)}, "last_event_id": {"-1"}}
		req, _ := http.NewRequest("GET", base+"/api/v1/events?"+q.Encode(), nil)
		req.SetBasicAuth("iago@zulip.com", key)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	if err := stop(); err != nil {
		t.Fatalf("run returned %v after a clean stop", err)
	}
	<-polled
	// A long poll lasts 90 s: 10 s tells a shutdown that waited for it
	// from one slowed by a loaded machine.
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("shutdown took %v with a long poll open", d)
	}
	if _, err := http.Get(base + "/api/v1/server_settings"); err == nil {
		t.Fatal("still serving after stop")
	}
	text := out.String()
	for _, want := range []string{
		base + " (feature level 277, version 9.0)",
		"curl -s -X POST " + base + "/api/v1/dev_fetch_api_key -d username=iago@zulip.com",
		"curl -s -u iago@zulip.com:" + key + " " + base + "/api/v1/users/me",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("banner lacks %q:\n%s", want, text)
		}
	}
}

func TestRunOptions(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	base, _, out := mainStart(t, "-addr", addr, "-seed", "empty", "-dev-endpoints=false", "-url", "http://chat.example.test")
	if base != "http://chat.example.test" {
		t.Fatalf("ready URL %q, want the -url value", base)
	}
	req, _ := http.NewRequest("GET", "http://"+addr+"/api/v1/server_settings", nil)
	if status, s := mainGetJSON(t, req); status != 200 || s["realm_uri"] != base {
		t.Fatalf("server_settings %d %v", status, s)
	}
	req, _ = http.NewRequest("POST", "http://"+addr+"/api/v1/dev_fetch_api_key?username=iago@zulip.com", nil)
	if status, e := mainGetJSON(t, req); status != 400 || e["msg"] != "Endpoint not available in production." {
		t.Fatalf("dev endpoints off: %d %v", status, e)
	}
	text := out.String()
	if strings.Contains(text, "dev_fetch_api_key") || strings.Contains(text, "iago") || !strings.Contains(text, base) {
		t.Fatalf("banner for an empty realm without dev login:\n%s", text)
	}
}

func TestRunFlagErrors(t *testing.T) {
	ctx := context.Background()
	for _, args := range [][]string{
		{"-feature-level", "x"},
		{"-seed", "lots"},
		{"-plan-type", "7"},
		{"-no-such-flag"},
		{"extra"},
		{"-addr", "256.0.0.1:bad"},
	} {
		if err := run(ctx, args, io.Discard, func(string) { t.Errorf("%v: served", args) }); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	var help bytes.Buffer
	if err := run(ctx, []string{"-h"}, &help, nil); !errors.Is(err, flag.ErrHelp) || !strings.Contains(help.String(), "-feature-level") {
		t.Fatalf("-h: %v %q", err, help.String())
	}
}

func TestRunPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := run(context.Background(), []string{"-addr", ln.Addr().String()}, io.Discard, nil); err == nil {
		t.Fatal("listening on a busy port must fail")
	}
}

func TestAdvertisedHost(t *testing.T) {
	for in, want := range map[string]string{
		"127.0.0.1:9991": "127.0.0.1:9991",
		"0.0.0.0:9991":   "localhost:9991",
		"[::]:80":        "localhost:80",
		"[::1]:80":       "[::1]:80",
	} {
		addr, err := net.ResolveTCPAddr("tcp", in)
		if err != nil {
			t.Fatal(err)
		}
		if got := advertisedHost(addr); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

// -seed empty is an organization with one owner, whose credentials the
// banner prints; -api-key-seed makes keys the same on every run (issue 14,
// items 9 and 10).
func TestEmptySeedOwnerAndStableKeys(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, _, out := mainStart(t, "-addr", addr, "-seed", "empty", "-api-key-seed", "my-suite")
	key := user.DerivedAPIKey("my-suite", emptyRealmOwner)
	if !strings.Contains(out.String(), emptyRealmOwner+":"+key) || strings.Contains(out.String(), "iago") {
		t.Fatalf("banner does not give the owner's stable credentials:\n%s", out.String())
	}
	req, _ := http.NewRequest("GET", "http://"+addr+"/api/v1/users/me", nil)
	req.SetBasicAuth(emptyRealmOwner, key)
	if status, me := mainGetJSON(t, req); status != 200 || me["role"] != float64(100) || me["email"] == nil {
		t.Fatalf("owner's own user: %d %v", status, me)
	}
	req, _ = http.NewRequest("GET", "http://"+addr+"/api/v1/users", nil)
	req.SetBasicAuth(emptyRealmOwner, key)
	if status, users := mainGetJSON(t, req); status != 200 || len(users["members"].([]any)) != 1 {
		t.Fatalf("an empty realm's users: %d %v", status, users["members"])
	}
}

// A reset (POST /minizulip/reset) of a -seed empty realm keeps its owner
// and their key: the owner is seeded with the realm, not added after it.
// With -data the first start seeds the owner once, and a restart loads
// them without adding another.
func TestEmptySeedResetKeepsOwner(t *testing.T) {
	key := user.DerivedAPIKey("my-suite", emptyRealmOwner)
	users := func(base string) int {
		t.Helper()
		req, _ := http.NewRequest("GET", base+"/api/v1/users", nil)
		req.SetBasicAuth(emptyRealmOwner, key)
		status, body := mainGetJSON(t, req)
		if status != 200 {
			t.Fatalf("the owner's key: %d %v", status, body)
		}
		return len(body["members"].([]any))
	}
	dir := t.TempDir()
	for start := range 2 {
		base, stop, _ := mainStart(t, "-seed", "empty", "-api-key-seed", "my-suite", "-data", dir)
		if n := users(base); n != 1 {
			t.Fatalf("start %d: %d users, want the owner only", start, n)
		}
		if status, body := postForm(t, "POST", base+"/minizulip/reset", nil); status != 200 {
			t.Fatalf("reset: %d %v", status, body)
		}
		if n := users(base); n != 1 {
			t.Fatalf("start %d, after a reset: %d users, want the owner only", start, n)
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
	}
	base, _, _ := mainStart(t, "-seed", "empty", "-api-key-seed", "my-suite")
	if status, body := postForm(t, "POST", base+"/minizulip/reset", nil); status != 200 {
		t.Fatalf("reset: %d %v", status, body)
	}
	if n := users(base); n != 1 {
		t.Fatalf("after a reset: %d users, want the owner only", n)
	}
}

// On a loopback address the server answers only to loopback names, the
// realm URL's host and -allow-hosts (DNS-rebinding protection); elsewhere
// it warns that dev login is open (issue 14, item 6).
func TestLoopbackHostsAndWarning(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, _, out := mainStart(t, "-addr", addr, "-allow-hosts", "zulip.local, dev.box")
	_, port, _ := net.SplitHostPort(addr)
	for host, want := range map[string]int{
		"127.0.0.1:" + port: 200, "localhost:" + port: 200, "[::1]:" + port: 200, "zulip.local:" + port: 200,
		"dev.box": 200, "evil.example:" + port: 400, "127.0.0.1.nip.io:" + port: 400,
	} {
		req, _ := http.NewRequest("GET", "http://"+addr+"/api/v1/server_settings", nil)
		req.Host = host
		status, body := mainGetJSON(t, req)
		if status != want || (want == 400 && body["msg"] != "Invalid HTTP Host header") {
			t.Errorf("Host %s: %d %v, want %d", host, status, body["msg"], want)
		}
	}
	if strings.Contains(out.String(), "WARNING") {
		t.Fatalf("a loopback server warned:\n%s", out.String())
	}

	_, _, out = mainStart(t, "-addr", "0.0.0.0:0")
	if !strings.Contains(out.String(), "WARNING: dev login is on") {
		t.Fatalf("no warning for a non-loopback server with dev login:\n%s", out.String())
	}
}

// -log json writes one JSON line per request with its method, path, user,
// status and duration (issue 14, item 11).
func TestRequestLog(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, stop, out := mainStart(t, "-addr", addr, "-log", "json", "-api-key-seed", "s")
	req, _ := http.NewRequest("GET", "http://"+addr+"/api/v1/users/me", nil)
	req.SetBasicAuth("iago@zulip.com", user.DerivedAPIKey("s", "iago@zulip.com"))
	if status, _ := mainGetJSON(t, req); status != 200 {
		t.Fatalf("users/me: %d", status)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	var line map[string]any
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, `"path":"/api/v1/users/me"`) {
			if err := json.Unmarshal([]byte(l), &line); err != nil {
				t.Fatal(err)
			}
		}
	}
	if line["method"] != "GET" || line["status"] != float64(200) || line["user"] != float64(11) || line["duration"] == nil {
		t.Fatalf("log line %v in:\n%s", line, out.String())
	}
	if _, err := parseFlags([]string{"-log", "yaml"}, io.Discard); err == nil {
		t.Fatal("-log yaml accepted")
	}
}

// The test-control API is on by default, on a clock that follows real
// time until moved; -control=false turns it off, -strict refuses what the
// server does not support.
func TestRunControlAndStrictFlags(t *testing.T) {
	base, _, _ := mainStart(t)
	req, _ := http.NewRequest("GET", base+"/minizulip/clock", nil)
	status, body := mainGetJSON(t, req)
	now, _ := body["now"].(float64)
	if status != 200 || time.Since(time.UnixMicro(int64(now*1e6))).Abs() > time.Minute {
		t.Fatalf("clock %d %v", status, body)
	}
	req, _ = http.NewRequest("POST", base+"/minizulip/clock", strings.NewReader("advance=86400"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	status, body = mainGetJSON(t, req)
	moved, _ := body["now"].(float64)
	if status != 200 || moved-now < 86400 || moved-now > 86400+60 {
		t.Fatalf("advance a day: %d %v (was %v)", status, body, now)
	}
	req, _ = http.NewRequest("GET", base+"/api/v1/nope", nil)
	if status, body := mainGetJSON(t, req); status != 404 {
		t.Fatalf("without -strict: %d %v", status, body)
	}

	off, _, _ := mainStart(t, "-control=false")
	req, _ = http.NewRequest("GET", off+"/minizulip/clock", nil)
	if status, body := mainGetJSON(t, req); status != 404 || body["msg"] != "Not Found" {
		t.Fatalf("-control=false: %d %v", status, body)
	}

	strict, _, _ := mainStart(t, "-strict")
	req, _ = http.NewRequest("GET", strict+"/api/v1/nope", nil)
	if status, body := mainGetJSON(t, req); status != 400 || body["msg"] != "minizulip does not implement GET /api/v1/nope (strict mode)" {
		t.Fatalf("-strict: %d %v", status, body)
	}
}

// README's flag table lists every flag.
func TestReadmeListsEveryFlag(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var c config
	newFlagSet(&c, io.Discard).VisitAll(func(f *flag.Flag) {
		if !strings.Contains(string(readme), "| `-"+f.Name+"` |") {
			t.Errorf("README.md's flag table lacks -%s", f.Name)
		}
	})
}

func TestCanCreateUsersFlag(t *testing.T) {
	createAs := func(base, email string) (int, map[string]any) {
		key := user.DerivedAPIKey("s", email)
		form := url.Values{"email": {"new@zulip.com"}, "password": {"pw"}, "full_name": {"New Person"}}
		req, _ := http.NewRequest("POST", base+"/api/v1/users", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth(email, key)
		return mainGetJSON(t, req)
	}
	// Without the flag only iago, as in Zulip's test database, may.
	base, _, _ := mainStart(t, "-api-key-seed", "s")
	if status, body := createAs(base, "desdemona@zulip.com"); status != 400 || body["msg"] != "User not authorized to create users" {
		t.Fatalf("desdemona without the flag: %d %v", status, body)
	}
	if status, body := createAs(base, "iago@zulip.com"); status != 200 || body["user_id"] == nil {
		t.Fatalf("iago: %d %v", status, body)
	}
	base, _, _ = mainStart(t, "-api-key-seed", "s", "-can-create-users", " DESDEMONA@zulip.com ,")
	if status, body := createAs(base, "desdemona@zulip.com"); status != 200 || body["user_id"] == nil {
		t.Fatalf("desdemona with the flag: %d %v", status, body)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-addr", "127.0.0.1:0", "-can-create-users", "nobody@zulip.com"}, &out, nil); err == nil ||
		!strings.Contains(err.Error(), "no user nobody@zulip.com") {
		t.Fatalf("unknown user: %v", err)
	}
}

// The dev realm starts with 100 read messages, as a Zulip dev server
// does (clients such as zulip-terminal crash on an empty message list);
// -messages sets how many, 0 for none, and a negative count is refused.
func TestMessagesFlag(t *testing.T) {
	newest := func(base string) []any {
		req, _ := http.NewRequest("GET", base+"/api/v1/messages?anchor=newest&num_before=1000&num_after=0&narrow=%5B%5D", nil)
		req.SetBasicAuth("iago@zulip.com", user.DerivedAPIKey("s", "iago@zulip.com"))
		status, body := mainGetJSON(t, req)
		if status != 200 {
			t.Fatalf("GET /messages: %d %v", status, body)
		}
		return body["messages"].([]any)
	}
	base, _, _ := mainStart(t, "-api-key-seed", "s")
	msgs := newest(base)
	if len(msgs) == 0 {
		t.Fatal("the default dev realm has no messages")
	}
	for _, m := range msgs {
		if flags := m.(map[string]any)["flags"].([]any); !slices.Contains(flags, any("read")) {
			t.Fatalf("seeded message unread: %v", m)
		}
	}
	base, _, _ = mainStart(t, "-api-key-seed", "s", "-messages", "0")
	if msgs := newest(base); len(msgs) != 0 {
		t.Fatalf("-messages 0: %d messages", len(msgs))
	}
	if err := run(context.Background(), []string{"-addr", "127.0.0.1:0", "-messages", "-1"}, io.Discard, nil); err == nil ||
		!strings.Contains(err.Error(), "-messages must not be negative") {
		t.Fatalf("-messages -1: %v", err)
	}
}
