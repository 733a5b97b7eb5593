package httpapi

import (
	"io/fs"
	"os"
	"path/filepath"
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

// README's layout table names each path once, every path it names
// exists, and every directory of Go code is covered by a row (its own or
// an ancestor's).
func TestReadmeLayoutTable(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	i := strings.Index(text, "\n## Layout\n")
	if i < 0 {
		t.Fatal(`README.md has no "## Layout" section`)
	}
	text = text[i+len("\n## Layout\n"):]
	if j := strings.Index(text, "\n## "); j >= 0 {
		text = text[:j]
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first := strings.Split(line, "|")[1]
		for _, part := range strings.Split(first, ",") {
			path := strings.Trim(strings.TrimSpace(part), "`")
			if listed[path] {
				t.Errorf("the layout table lists %s twice", path)
			}
			listed[path] = true
			if _, err := os.Stat(filepath.Join("..", path)); err != nil {
				t.Errorf("the layout table lists %s, which does not exist", path)
			}
		}
	}
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != ".." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") || filepath.Dir(path) == ".." {
			return nil
		}
		dir, _ := filepath.Rel("..", filepath.Dir(path))
		for p := filepath.ToSlash(dir); p != "."; p = filepath.ToSlash(filepath.Dir(p)) {
			if listed[p] {
				return nil
			}
		}
		t.Errorf("the layout table has no row for %s (nor for a directory above it)", filepath.ToSlash(dir))
		return fs.SkipDir
	})
	if err != nil {
		t.Fatal(err)
	}
}
