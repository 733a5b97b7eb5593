package architecture

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/minizulip/minizulip"

// deps lists the packages pkg imports, directly or not, without its tests.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", module+"/"+pkg).Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	return strings.Fields(string(out))
}

func TestDomainPackagesDoNotImportEngineOrAdapter(t *testing.T) {
	for _, pkg := range []string{"message", "message/markdown", "topic", "user", "group", "linkifier", "emoji", "upload"} {
		for _, forbidden := range []string{module + "/realm", module + "/httpapi"} {
			if slices.Contains(deps(t, pkg), forbidden) {
				t.Errorf("%s imports %s", pkg, forbidden)
			}
		}
	}
}

func TestEngineSpeaksNoHTTP(t *testing.T) {
	if slices.Contains(deps(t, "realm"), "net/http") {
		t.Error("realm imports net/http: HTTP belongs to httpapi")
	}
}

func TestAdapterDoesNotLinkTesting(t *testing.T) {
	for _, pkg := range []string{"httpapi", "cmd/minizulip", "realm"} {
		if slices.Contains(deps(t, pkg), "testing") {
			t.Errorf("%s links the testing package", pkg)
		}
	}
}

// TestRealmLocksInOnePlace keeps the lock discipline: only the four
// helpers of realm/actor.go touch the realm's mutex.
func TestRealmLocksInOnePlace(t *testing.T) {
	files, err := filepath.Glob("../../realm/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no realm sources: %v", err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || filepath.Base(f) == "actor.go" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			code, _, _ := strings.Cut(line, "//")
			if strings.Contains(code, "r.mu.") {
				t.Errorf("%s:%d takes the realm's lock by hand: %s", filepath.Base(f), i+1, strings.TrimSpace(line))
			}
		}
	}
}
