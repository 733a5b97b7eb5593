package main

import (
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionLine(t *testing.T) {
	platform := ", " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	stamped := &debug.BuildInfo{Main: debug.Module{Path: "github.com/minizulip/minizulip", Version: "v0.3.0"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}}
	for _, c := range []struct {
		name            string
		bi              *debug.BuildInfo
		ok              bool
		version, commit string
		want            string
	}{
		{"no build info", nil, false, "", "", "minizulip (devel), commit unknown"},
		{"no VCS", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "", "", "minizulip (devel), commit unknown"},
		{"VCS", stamped, true, "", "", "minizulip v0.3.0, commit 0123abcd (2026-01-02T03:04:05Z, modified)"},
		{"linker", nil, false, "v1.0.0", "fedc-dirty", "minizulip v1.0.0, commit fedc-dirty"},
		{"linker over VCS", stamped, true, "v1.0.0", "fedc", "minizulip v1.0.0, commit fedc"},
	} {
		version, commit = c.version, c.commit
		if got := versionLine(c.bi, c.ok); got != c.want+platform {
			t.Errorf("%s: %q, want %q", c.name, got, c.want+platform)
		}
	}
	version, commit = "", ""
}

// -version prints one line and exits 0, serving nothing.
func TestVersionFlag(t *testing.T) {
	status, stdout, stderr := mainExit(t, "-version", "-addr", "256.0.0.1:bad")
	if status != 0 || stderr != "" || !regexp.MustCompile(`^minizulip \S+, commit \S+.*, go\S+ \w+/\w+\n$`).MatchString(stdout) {
		t.Fatalf("-version: exit %d, stdout %q, stderr %q", status, stdout, stderr)
	}
	if !strings.HasPrefix(stdout, versionLine(debug.ReadBuildInfo())) {
		t.Fatalf("-version says %q, the build info %q", stdout, versionLine(debug.ReadBuildInfo()))
	}
}
