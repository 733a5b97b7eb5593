package clienttest

import (
	"net/http"
	"testing"

	"github.com/minizulip/minizulip/httpapi"
)

// A client's re-register path, driven by an expired queue: the test
// expires the watcher's queue through the test-control API, as a suite in
// any language can (curl -X POST $URL/minizulip/queues/$QUEUE_ID/expire;
// from Go, srv.Realm.ExpireQueue(id) does the same).
func TestWatcherRegistersAgainWhenItsQueueExpires(t *testing.T) {
	srv := httpapi.RunT(t)
	hamlet := srv.Creds("hamlet@zulip.com")
	iago := srv.Creds("iago@zulip.com")
	watcher := &Client{BaseURL: srv.URL, Email: hamlet.Email, APIKey: hamlet.APIKey}
	sender := &Client{BaseURL: srv.URL, Email: iago.Email, APIKey: iago.APIKey}

	w, err := watcher.Watch()
	if err != nil {
		t.Fatal(err)
	}
	first := w.QueueID()
	resp, err := http.Post(srv.URL+"/minizulip/queues/"+first+"/expire", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("expire: HTTP %d", resp.StatusCode)
	}

	msgs, err := w.Next() // BAD_EVENT_QUEUE_ID: the watcher registers again
	if err != nil || len(msgs) != 0 {
		t.Fatalf("Next after expiry: %v %v", msgs, err)
	}
	if w.Registrations != 2 || w.QueueID() == first {
		t.Fatalf("registrations %d, queue %s (was %s)", w.Registrations, w.QueueID(), first)
	}

	// The new queue works: a message sent now arrives.
	if _, err := sender.Send("Denmark", "castle", "still there?"); err != nil {
		t.Fatal(err)
	}
	msgs, err = w.Next()
	if err != nil || len(msgs) != 1 || msgs[0].Content != "<p>still there?</p>" {
		t.Fatalf("Next on the new queue: %+v %v", msgs, err)
	}
	if got := srv.Realm.QueueCount(); got != 1 {
		t.Fatalf("server holds %d queues, want the new one only", got)
	}
}
