package realm_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/realm/fixture"
)

// README's fixture example loads, and its numbers mean what README's
// table says.
func TestReadmeFixtureExampleLoads(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	i := strings.Index(text, "\n## Fixture reference\n")
	if i < 0 {
		t.Fatal(`README.md has no "## Fixture reference" section`)
	}
	text = text[i:]
	const open = "\n```json\n"
	j := strings.Index(text, open)
	k := strings.Index(text[j+len(open):], "\n```\n")
	if j < 0 || k < 0 {
		t.Fatal("the fixture reference has no JSON block")
	}
	doc := []byte(text[j+len(open) : j+len(open)+k])
	r, err := realm.Load(doc)
	if err != nil {
		t.Fatalf("README's fixture does not load: %v", err)
	}
	id, key, ok := r.APIKey("olivia@example.com")
	if !ok || id != 1 || key != "0livia0key0123456789abcdef012345" {
		t.Fatalf("olivia: %d %q %v", id, key, ok)
	}
	m, ok := r.LastMessage(context.Background(), 1)
	if !ok || m.ID != 1 || m.Content != "It **computes**." || m.SenderFullName != "Ada" {
		t.Fatalf("the fixture's message, as olivia sees it: %+v", m)
	}
	dumped, err := r.Dump()
	if err != nil {
		t.Fatal(err)
	}
	var back fixture.Document
	if err := json.Unmarshal(dumped, &back); err != nil {
		t.Fatal(err)
	}
	roles := map[string]int{}
	for _, u := range back.Users {
		roles[u.Email] = u.Role
	}
	// 100 owner, 600 guest; absent is 400, member (the bot too).
	for email, want := range map[string]int{"olivia@example.com": 100, "ada@example.com": 400, "gus@example.com": 600, "helper-bot@example.com": 400} {
		if roles[email] != want {
			t.Errorf("%s: role %d in the dump, want %d", email, roles[email], want)
		}
	}
}
