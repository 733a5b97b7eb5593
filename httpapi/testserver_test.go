package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
)

func bg() context.Context { return context.Background() }

func TestRunTServesDevRealm(t *testing.T) {
	ts := RunT(t)
	if !strings.HasPrefix(ts.URL, "http://127.0.0.1:") || ts.Realm.URL() != ts.URL || ts.API.Realm() != ts.Realm {
		t.Fatalf("URL %q, realm URL %q", ts.URL, ts.Realm.URL())
	}
	iago := ts.Creds("iago@zulip.com")
	if iago.UserID != 11 || len(iago.APIKey) != 32 || iago.Email != "iago@zulip.com" {
		t.Fatalf("creds %+v", iago)
	}
	if byAPIEmail := ts.Creds("USER11@zulipdev.com"); byAPIEmail.UserID != 11 || byAPIEmail.APIKey != iago.APIKey {
		t.Fatalf("creds by API email %+v", byAPIEmail)
	}
	if (ts.Creds("nobody@zulip.com") != Credentials{}) {
		t.Fatal("unknown users have no credentials")
	}
	resp, err := http.DefaultClient.Do(ts.NewRequest("iago@zulip.com", "POST", "/messages",
		url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}, "content": {"hi"}}))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || ts.Realm.MessageCount() != 1 {
		t.Fatalf("send: %d, %d messages", resp.StatusCode, ts.Realm.MessageCount())
	}
	resp, err = http.Get(ts.URL + "/api/v1/server_settings")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	if body["realm_uri"] != ts.URL {
		t.Fatalf("realm_uri %v, want the server's own URL %s", body["realm_uri"], ts.URL)
	}
}

func TestRunTOptionsReachTheRealm(t *testing.T) {
	ts := RunT(t, realm.WithFeatureLevel(200, "7.0"), realm.WithSeed(realm.SeedEmpty))
	if ts.Realm.FeatureLevel() != 200 || ts.Realm.URL() != ts.URL {
		t.Fatalf("level %d URL %q", ts.Realm.FeatureLevel(), ts.Realm.URL())
	}
	if ts.Creds("iago@zulip.com").APIKey != "" {
		t.Fatal("the empty seed has no iago")
	}
}

func TestRunTClosesAtCleanup(t *testing.T) {
	var base string
	t.Run("inner", func(t *testing.T) { base = RunT(t).URL })
	// The inner test's cleanup closed the listener.
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), time.Second)
	if err == nil {
		conn.Close()
		t.Fatal("server still listening after its test ended")
	}
}

func TestClientSendsCredentials(t *testing.T) {
	ts := RunT(t)
	c := ts.Client("hamlet@zulip.com")
	resp, err := c.Get(ts.URL + "/api/v1/users/me")
	if err != nil {
		t.Fatal(err)
	}
	var me map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&me)
	resp.Body.Close()
	if resp.StatusCode != 200 || me["user_id"] != float64(10) {
		t.Fatalf("%d %v", resp.StatusCode, me)
	}
	// A request's own Authorization header wins.
	req := mustRequest("GET", ts.URL+"/api/v1/users/me")
	req.SetBasicAuth("iago@zulip.com", ts.Creds("iago@zulip.com").APIKey)
	resp, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	me = nil
	_ = json.NewDecoder(resp.Body).Decode(&me)
	resp.Body.Close()
	if me["user_id"] != float64(11) {
		t.Fatalf("own header overridden: %v", me)
	}
	// The caller's request is not modified.
	plain := mustRequest("GET", ts.URL+"/api/v1/users/me")
	if resp, err := c.Do(plain); err == nil {
		resp.Body.Close()
	}
	if plain.Header.Get("Authorization") != "" {
		t.Fatal("Client changed the caller's request")
	}
	// Unknown users get no credentials: 401.
	resp, err = ts.Client("ghost@zulip.com").Get(ts.URL + "/api/v1/users/me")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Fatalf("unknown user: %d", resp.StatusCode)
	}
}

func TestCloseEndsLongPolls(t *testing.T) {
	ts, err := Run(realm.WithHeartbeat(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	reg, err := ts.Realm.As(11).Register(bg(), realm.RegisterRequest{Queue: realm.QueueOptions{EventTypes: []string{"message"}}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, err := http.DefaultClient.Do(ts.NewRequest("iago@zulip.com", "GET", "/events",
			url.Values{"queue_id": {reg.QueueID}, "last_event_id": {"-1"}}))
		if err == nil {
			resp.Body.Close()
		}
	}()
	waitPolling(t, ts.Realm, reg.QueueID)
	start := time.Now()
	ts.Close()
	ts.Close()
	<-done
	// A long poll lasts 90 s: 10 s tells a Close that waited for it from
	// one slowed by a loaded machine.
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("Close waited %v for a long poll", d)
	}
}

// BenchmarkRunT measures start-up of the test helper: realm, dev seed and
// listener, up to the first answered request (Close is not timed).
func BenchmarkRunT(b *testing.B) {
	withoutContract(b)
	for b.Loop() {
		ts, err := Run()
		if err != nil {
			b.Fatal(err)
		}
		resp, err := http.Get(ts.URL + "/api/v1/server_settings")
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("first request: %v", err)
		}
		resp.Body.Close()
		b.StopTimer()
		ts.Close()
		b.StartTimer()
	}
}

// A TestServer's realm follows real time on a clock the test can move.
func TestRunTClockCanBeMoved(t *testing.T) {
	ts := RunT(t)
	before := ts.Realm.Now()
	if d := time.Since(before).Abs(); d > time.Minute {
		t.Fatalf("the clock is %v off real time", d)
	}
	if err := ts.Realm.AdvanceClock(time.Hour); err != nil {
		t.Fatal(err)
	}
	if d := ts.Realm.Now().Sub(before); d < time.Hour {
		t.Fatalf("advanced by %v", d)
	}
}

// RunT takes server options beside realm options: strict mode, a logger
// and the control API reach the server, the realm options the realm.
func TestRunTTakesServerOptions(t *testing.T) {
	var logged strings.Builder
	ts := RunT(t, WithStrict(true), realm.WithSeededMessages(3),
		WithLogger(slog.New(slog.NewTextHandler(&logged, nil))), WithTestControl(false))
	if got := ts.Realm.MessageCount(); got != 3 {
		t.Fatalf("the realm option did not reach the realm: %d messages", got)
	}
	// Strict: an ignored parameter is a 400.
	resp, err := http.DefaultClient.Do(ts.NewRequest("iago@zulip.com", "GET", "/users/me", url.Values{"sparkle": {"1"}}))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Fatalf("strict mode: GET /users/me?sparkle=1 answered %d", resp.StatusCode)
	}
	if !strings.Contains(logged.String(), "/api/v1/users/me") {
		t.Fatalf("the logger saw no request: %q", logged.String())
	}
	// Control off: /minizulip/ is an unknown path, which strict mode
	// refuses as unimplemented.
	resp, err = http.Get(ts.URL + "/minizulip/clock")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(b), "does not implement GET /minizulip/clock") {
		t.Fatalf("control off, strict: GET /minizulip/clock answered %d %s", resp.StatusCode, b)
	}
}

// RunT's defaults: no seeded messages (the standalone server seeds 100),
// control on, not strict.
func TestRunTDefaults(t *testing.T) {
	ts := RunT(t)
	if got := ts.Realm.MessageCount(); got != 0 {
		t.Fatalf("RunT's dev realm starts with %d messages, want 0", got)
	}
	resp, err := http.Get(ts.URL + "/minizulip/clock")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET /minizulip/clock answered %d", resp.StatusCode)
	}
}

// fatalRecorder is a Tester that records Fatalf instead of stopping.
type fatalRecorder struct{ msg string }

func (*fatalRecorder) Helper()                             {}
func (f *fatalRecorder) Fatalf(format string, args ...any) { f.msg = fmt.Sprintf(format, args...) }
func (*fatalRecorder) Cleanup(func())                      {}

// An option of another type is refused, naming it, and nothing starts.
func TestRunRefusesOtherOptions(t *testing.T) {
	ts, err := Run(realm.WithSeed(realm.SeedEmpty), "strict")
	if err == nil {
		ts.Close()
		t.Fatal("Run took a string as an option")
	}
	if !strings.Contains(err.Error(), "option 2 is a string") {
		t.Fatalf("error %q does not name the option", err)
	}
	var f fatalRecorder
	if ts := RunT(&f, 42); ts != nil || !strings.Contains(f.msg, "option 1 is a int") {
		t.Fatalf("RunT(42): server %v, Fatalf %q", ts, f.msg)
	}
}
