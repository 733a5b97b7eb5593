package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A fixture with a channel message whose content reaches the API.
const testFixture = `{"minizulip_fixture": 1,
  "users": [{"id": 1, "email": "ada@example.com", "full_name": "Ada", "role": 100,
             "api_key": "abcdefghijklmnopqrstuvwxyz012345"},
            {"id": 2, "email": "bob@example.com", "full_name": "Bob"}],
  "channels": [{"id": 1, "name": "general", "description": "All"}],
  "subscriptions": [{"user_id": 1, "channel_id": 1}, {"user_id": 2, "channel_id": 1}],
  "messages": [{"id": 1, "sender_id": 2, "channel_id": 1, "topic": "hi", "content": "from the fixture",
                "timestamp": 1767225600, "flags": {"1": [], "2": ["read"]}}]}`

func writeFixture(t *testing.T, doc string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "realm.json")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func fetchDump(t *testing.T, base string) []byte {
	t.Helper()
	resp, err := http.Get(base + "/minizulip/dump")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("dump: %d %s", resp.StatusCode, body)
	}
	return body
}

// TestFixtureFlag serves a fixture's realm: its users log in with its
// keys, its messages are there, and its dump loads again to the same
// document.
func TestFixtureFlag(t *testing.T) {
	base, stop, out := mainStart(t, "-fixture", writeFixture(t, testFixture))
	defer stop()
	if !strings.Contains(out.String(), "username=ada@example.com") {
		t.Fatalf("the banner does not offer the fixture's owner:\n%s", out)
	}
	req, _ := http.NewRequest("GET", base+`/api/v1/messages?anchor=newest&num_before=5&num_after=0&apply_markdown=false`, nil)
	req.SetBasicAuth("ada@example.com", "abcdefghijklmnopqrstuvwxyz012345")
	status, body := mainGetJSON(t, req)
	msgs, _ := body["messages"].([]any)
	if status != 200 || len(msgs) != 1 || msgs[0].(map[string]any)["content"] != "from the fixture" {
		t.Fatalf("messages: %d %v", status, body)
	}
	dump := fetchDump(t, base)
	stop()

	// The dump, served again, dumps the same.
	base2, stop2, _ := mainStart(t, "-fixture", writeFixture(t, string(dump)))
	defer stop2()
	if again := fetchDump(t, base2); !bytes.Equal(dump, again) {
		t.Fatalf("dump of the reloaded dump differs:\n%s\n---\n%s", dump, again)
	}
}

func TestFixtureFlagErrors(t *testing.T) {
	bad := writeFixture(t, strings.Replace(testFixture, `"sender_id": 2`, `"sender_id": 99`, 1))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-fixture", bad}, "-fixture " + bad + ": fixture: messages[0].sender_id: no user 99"},
		{[]string{"-fixture", writeFixture(t, `{"users": [`)}, "fixture: not a valid fixture document: unexpected EOF"},
		{[]string{"-fixture", filepath.Join(t.TempDir(), "missing.json")}, "-fixture: open "},
		{[]string{"-fixture", bad, "-seed", "empty"}, "-fixture and -seed exclude each other"},
	} {
		err := run(context.Background(), append([]string{"-addr", "127.0.0.1:0"}, c.args...), io.Discard,
			func(string) { t.Errorf("%v: served", c.args) })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}
