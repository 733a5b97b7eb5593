package httpapi

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// getDump fetches GET /minizulip/dump and returns its status, content
// type and body.
func (e *ctlEnv) getDump(query string) (int, string, []byte) {
	e.t.Helper()
	resp, err := http.Get(e.srv.URL + "/minizulip/dump" + query)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), body
}

func TestControlDump(t *testing.T) {
	e := newCtlEnv(t)
	e.sendTo("Verona", "dumped")
	status, ct, body := e.getDump("")
	want, err := e.realm.Dump()
	if err != nil {
		t.Fatal(err)
	}
	if status != 200 || ct != "application/json" || !bytes.Equal(body, want) {
		t.Fatalf("dump: %d %s, %d bytes (want %d)", status, ct, len(body), len(want))
	}
	if !bytes.Contains(body, []byte(`"content": "dumped"`)) || !bytes.HasPrefix(body, []byte(`{
  "minizulip_fixture": 1,`)) {
		t.Fatalf("the dump is not the bare fixture document:\n%.300s", body)
	}
	// The document loads into a realm that dumps the same.
	loaded, err := realm.Load(body, realm.WithClock(e.clock))
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := loaded.Dump(); !bytes.Equal(again, body) {
		t.Fatal("the served dump does not load back to itself")
	}
	// Parameters are refused.
	status, _, body = e.getDump("?" + url.Values{"pretty": {"1"}}.Encode())
	if status != 400 || !bytes.Contains(body, []byte("Unknown parameter(s) of GET /minizulip/dump: pretty")) {
		t.Fatalf("dump with a parameter: %d %s", status, body)
	}
}
