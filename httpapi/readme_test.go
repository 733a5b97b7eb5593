package httpapi

import (
	"os"
	"strings"
	"testing"
)

// endpointTable renders the server's routes as README's table.
func endpointTable(eps []Endpoint) string {
	var b strings.Builder
	b.WriteString("| method | path | also under /json |\n|---|---|---|\n")
	for _, ep := range eps {
		json := "yes"
		if ep.APIOnly {
			json = "no"
		}
		b.WriteString("| " + ep.Method + " | `/api/v1" + strings.ReplaceAll(ep.Path, "|", "\\|") + "` | " + json + " |\n")
	}
	return b.String()
}

// README's table of endpoints is the route table: a route added or removed
// without the README fails here, with the table to paste. Run with
// UPDATE_README=1 to rewrite the table in place.
func TestReadmeListsEveryEndpoint(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const start, end = "<!-- endpoints: generated from the route table; TestReadmeListsEveryEndpoint checks it -->\n", "<!-- end of endpoints -->"
	text := string(readme)
	i, j := strings.Index(text, start), strings.Index(text, end)
	want := endpointTable(New(nil).Endpoints())
	if i < 0 || j < i {
		t.Fatalf("README.md has no endpoint table between the markers; add:\n%s%s%s", start, want, end)
	}
	if got := text[i+len(start) : j]; got != want && os.Getenv("UPDATE_README") != "" {
		text = text[:i+len(start)] + want + text[j:]
		if err := os.WriteFile("../README.md", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := text[i+len(start) : j]; got != want {
		t.Fatalf("README.md's endpoint table drifted from the route table; it should read:\n%s", want)
	}
}
