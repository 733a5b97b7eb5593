package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeInProcessExample is the Go program README.md shows under
// "## In-process use".
func readmeInProcessExample(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	i := strings.Index(text, "\n## In-process use\n")
	if i < 0 {
		t.Fatal(`README.md has no "## In-process use" section`)
	}
	text = text[i:]
	const open = "\n```go\n"
	j := strings.Index(text, open)
	if j < 0 {
		t.Fatal("the In-process use section has no Go block")
	}
	text = text[j+len(open):]
	k := strings.Index(text, "\n```\n")
	if k < 0 {
		t.Fatal("the In-process use section's Go block does not end")
	}
	return text[:k+1]
}

// README's in-process example compiles and runs as shown, and prints
// what its comment says.
func TestReadmeInProcessExampleRuns(t *testing.T) {
	src := readmeInProcessExample(t)
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go tool to build README's example with: %v", err)
	}
	// A directory of the module (so that it imports the module's
	// packages) whose name starts with "_", so that ./... never lists it.
	dir, err := os.MkdirTemp("../..", "_readme-example-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goTool, "run", "./"+filepath.Base(dir))
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("README's in-process example does not run: %v\n%s\n%s", err, out, src)
	}
	const want = "Iago <p>Something is <strong>rotten</strong>.</p>\n"
	if string(out) != want {
		t.Fatalf("README's in-process example printed %q, its comment says %q", out, want)
	}
}
