package clienttest

import (
	"errors"
	"testing"

	"github.com/minizulip/minizulip/httpapi"
)

func TestSendAndRead(t *testing.T) {
	srv := httpapi.RunT(t) // the dev realm on a loopback port, closed at the end
	iago := srv.Creds("iago@zulip.com")
	c := &Client{BaseURL: srv.URL, Email: iago.Email, APIKey: iago.APIKey}

	id, err := c.Send("Denmark", "castle", "Something is **rotten**")
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := c.Newest("Denmark", "castle", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 1 || msgs[0].ID != id || msgs[0].Content != "<p>Something is <strong>rotten</strong></p>" || msgs[0].Sender != "Iago" {
		t.Fatalf("got %+v", msgs)
	}
	// The test can inspect the server directly.
	if n := srv.Realm.MessageCount(); n != 1 {
		t.Fatalf("server holds %d messages", n)
	}
}

func TestErrorsCarryZulipCodes(t *testing.T) {
	srv := httpapi.RunT(t)
	hamlet := srv.Creds("hamlet@zulip.com")
	c := &Client{BaseURL: srv.URL, Email: hamlet.Email, APIKey: hamlet.APIKey}
	_, err := c.Send("Atlantis", "t", "hello?")
	var apiErr *apiError
	if !errors.As(err, &apiErr) || apiErr.Code != "STREAM_DOES_NOT_EXIST" {
		t.Fatalf("got %v", err)
	}
	c.APIKey = "wrong"
	if _, err := c.Send("Denmark", "t", "x"); !errors.As(err, &apiErr) || apiErr.Code != "UNAUTHORIZED" {
		t.Fatalf("got %v", err)
	}
}
