package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
)

func TestRunTServesDevRealm(t *testing.T) {
	ts := RunT(t)
	iago := ts.Creds("iago@zulip.com")
	if iago.UserID != 11 || len(iago.APIKey) != 32 {
		t.Fatalf("creds %+v", iago)
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
			url.Values{"queue_id": {reg.QueueID()}, "last_event_id": {"-1"}}))
		if err == nil {
			resp.Body.Close()
		}
	}()
	time.Sleep(20 * time.Millisecond)
	start := time.Now()
	ts.Close()
	ts.Close()
	<-done
	if d := time.Since(start); d > time.Second {
		t.Fatalf("Close waited %v for a long poll", d)
	}
}

// BenchmarkRunT measures start-up of the test helper: realm, dev seed and
// listener.
func BenchmarkRunT(b *testing.B) {
	for b.Loop() {
		ts, err := Run()
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		ts.Close()
		b.StartTimer()
	}
}

func bg() context.Context { return context.Background() }
