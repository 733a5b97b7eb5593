package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// version and commit, when set with -ldflags "-X main.version=…
// -X main.commit=…", replace what the build info says: a build from a
// tree without its .git (such as the Containerfile's) has neither.
var version, commit string

// versionLine is what -version prints: the module version and the VCS
// commit, from the build info unless the linker set them, "(devel)" and
// "unknown" when nothing says, then the toolchain and platform.
func versionLine(bi *debug.BuildInfo, ok bool) string {
	v, rev, when, modified := "", "", "", false
	if ok {
		v = bi.Main.Version
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if version != "" {
		v = version
	}
	if v == "" {
		v = "(devel)"
	}
	if commit != "" {
		rev, when, modified = commit, "", false
	}
	if rev == "" {
		rev = "unknown"
	}
	var notes []string
	if when != "" {
		notes = append(notes, when)
	}
	if modified {
		notes = append(notes, "modified")
	}
	if len(notes) > 0 {
		rev += " (" + strings.Join(notes, ", ") + ")"
	}
	return fmt.Sprintf("minizulip %s, commit %s, %s %s/%s", v, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
