//go:build unix

// Named pipes and SIGTERM: Unix only.

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readReady reads and decodes a -ready-file document.
func readReady(t *testing.T, path string) readyInfo {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var info readyInfo
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&info); err != nil {
		t.Fatalf("%s: %v in %q", path, err, raw)
	}
	return info
}

// answers reports whether url serves the realm: its server_settings give
// url as realm_uri.
func answers(t *testing.T, url string) bool {
	t.Helper()
	req, _ := http.NewRequest("GET", url+"/api/v1/server_settings", nil)
	status, settings := mainGetJSON(t, req)
	return status == 200 && settings["realm_uri"] == url
}

// The ready file appears only once the server answers, in one piece: while
// the server is still starting (here, waiting for its fixture) the path
// is absent, even though an earlier run left a file there; then it holds
// the URL, with the port -addr :0 picked, and the process id; nothing
// else is left in its directory, and it is gone when the server stops.
func TestReadyFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ready.json")
	if err := os.WriteFile(path, []byte(`{"url":"http://stale.invalid","pid":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fixture.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	urls := make(chan string, 1)
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, []string{"-addr", "127.0.0.1:0", "-fixture", fifo, "-ready-file", path}, io.Discard, func(u string) { urls <- u })
	}()

	// Opening the pipe returns once the server opens it to read the
	// fixture: it is starting, not ready.
	opened := make(chan *os.File, 1)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
		}
		opened <- f
	}()
	var w *os.File
	select {
	case w = <-opened:
	case err := <-errc:
		t.Fatalf("run: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not open its fixture within 10 s")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("ready file present while the server starts: %v", err)
	}
	if _, err := io.WriteString(w, testFixture); err != nil {
		t.Fatal(err)
	}
	w.Close()

	var base string
	select {
	case base = <-urls:
	case err := <-errc:
		t.Fatalf("run: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("not ready within 10 s")
	}
	info := readReady(t, path)
	if info.URL != base || strings.HasSuffix(info.URL, ":0") || info.PID != os.Getpid() || !answers(t, info.URL) {
		t.Fatalf("ready file %+v; server at %s, pid %d", info, base, os.Getpid())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("left beside the ready file: %v", entries)
	}
	cancel()
	select {
	case err := <-errc:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return 10 s after cancel")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("ready file left after stop: %v", err)
	}
}

// In a process of its own, as a suite in another language starts it:
// -banner json's first stdout line is the ready file's object, with the
// server's pid and a URL that answers; SIGTERM stops it cleanly and
// removes the file.
func TestBannerJSONAndReadyFileInAProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ready.json")
	cmd := mainCommand(t, "-addr", ":0", "-banner", "json", "-ready-file", path, "-log", "json")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1)
	done := make(chan error, 1)
	defer func() {
		cmd.Process.Kill()
		<-done
	}()
	go func() {
		r := bufio.NewReader(stdout)
		l, _ := r.ReadString('\n')
		lines <- l
		io.Copy(io.Discard, r)
		done <- cmd.Wait()
	}()
	var line string
	select {
	case line = <-lines:
	case <-time.After(30 * time.Second):
		t.Fatal("no line on stdout after 30 s")
	}
	var banner map[string]any
	if err := json.Unmarshal([]byte(line), &banner); err != nil {
		t.Fatalf("first line %q: %v (stderr %s)", line, err, stderr.String())
	}
	info := readReady(t, path)
	if len(banner) != 2 || banner["url"] != info.URL || banner["pid"] != float64(cmd.Process.Pid) || info.PID != cmd.Process.Pid {
		t.Fatalf("banner %v, ready file %+v, pid %d", banner, info, cmd.Process.Pid)
	}
	if !strings.HasPrefix(info.URL, "http://localhost:") || strings.HasSuffix(info.URL, ":0") || !answers(t, info.URL) {
		t.Fatalf("URL %s", info.URL)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		done <- err
		if err != nil {
			t.Fatalf("after SIGTERM: %v, stderr %s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("still running 10 s after SIGTERM")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("ready file left after SIGTERM: %v", err)
	}
}

// -banner json's first line comes before anything else the server
// prints: the warning of a non-loopback address and the request log.
func TestBannerJSONFirst(t *testing.T) {
	base, stop, out := mainStart(t, "-addr", "0.0.0.0:0", "-banner", "json", "-log", "json")
	if !answers(t, base) {
		t.Fatalf("%s does not answer", base)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	var banner readyInfo
	if err := json.Unmarshal([]byte(lines[0]), &banner); err != nil || banner.URL != base || banner.PID != os.Getpid() {
		t.Fatalf("first line %q: %+v, %v", lines[0], banner, err)
	}
	if len(lines) < 3 || !strings.HasPrefix(lines[1], "WARNING: dev login is on") || !strings.Contains(lines[2], `"path":"/api/v1/server_settings"`) {
		t.Fatalf("output:\n%s", out)
	}
	if strings.Contains(out.String(), "curl") {
		t.Fatalf("-banner json printed the human banner:\n%s", out)
	}
}

// The text banner says what is served: the dev realm and its messages,
// an empty realm, or which fixture.
func TestBannerSaysWhatItServes(t *testing.T) {
	fixture := writeFixture(t, testFixture)
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "minizulip: serving the Zulip dev realm with 100 seeded messages at http://127.0.0.1:"},
		{[]string{"-messages", "0"}, "minizulip: serving the Zulip dev realm with 0 seeded messages at "},
		{[]string{"-seed", "empty"}, "minizulip: serving an empty realm (one owner, owner@zulip.com) at "},
		{[]string{"-fixture", fixture}, "minizulip: serving the realm of fixture " + fixture + " at "},
	} {
		_, stop, out := mainStart(t, c.args...)
		stop()
		if !strings.HasPrefix(out.String(), c.want) {
			t.Errorf("%v: banner\n%s\nwant it to begin %q", c.args, out, c.want)
		}
	}
}

// Bad -banner values and ready files that cannot be written are refused
// before anything is served, with a message that says why; a bad command
// line exits with 2, as the flag package's programs do, a ready file
// with 1.
func TestBannerAndReadyFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args   []string
		status int
		msg    string
	}{
		{[]string{"-banner", "xml"}, 2, `minizulip: -banner must be "text" or "json", not "xml"` + "\n"},
		{[]string{"-ready-file", filepath.Join(dir, "missing", "ready.json")}, 1,
			"minizulip: -ready-file " + filepath.Join(dir, "missing", "ready.json") + ": cannot write in " + filepath.Join(dir, "missing") + ": no such file or directory\n"},
		{[]string{"-ready-file", dir}, 1, "minizulip: -ready-file " + dir + " is a directory\n"},
		{[]string{"-seed", "lots"}, 2, `minizulip: -seed must be "dev" or "empty", not "lots"` + "\n"},
	} {
		status, stdout, stderr := mainExit(t, append([]string{"-addr", "127.0.0.1:0"}, c.args...)...)
		if status != c.status || stderr != c.msg || stdout != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want %d, %q", c.args, status, stderr, stdout, c.status, c.msg)
		}
	}
	if status, _, stderr := mainExit(t, "-no-such-flag"); status != 2 || !strings.Contains(stderr, "flag provided but not defined: -no-such-flag") {
		t.Errorf("-no-such-flag: exit %d, stderr %q", status, stderr)
	}
	if status, stdout, _ := mainExit(t, "-h"); status != 0 || !strings.Contains(stdout, "-ready-file") {
		t.Errorf("-h: exit %d, stdout %q", status, stdout)
	}
}

// With -data, the first start's banner says what it seeded; a later
// start's says the realm is the one kept in the directory, with its
// messages, whatever the seeding flags say now, and offers the key of a
// user the kept realm has.
func TestBannerSaysWhatItServesFromData(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	_, stop, out := mainStart(t, "-data", dir, "-messages", "10")
	stop()
	if want := "minizulip: serving the Zulip dev realm with 10 seeded messages at "; !strings.HasPrefix(out.String(), want) {
		t.Errorf("first start: banner\n%s\nwant it to begin %q", out, want)
	}
	_, stop, out = mainStart(t, "-data", dir, "-seed", "empty")
	stop()
	if want := "minizulip: serving the realm kept in " + dir + " (10 messages) at "; !strings.HasPrefix(out.String(), want) {
		t.Errorf("later start: banner\n%s\nwant it to begin %q", out, want)
	}
	if strings.Contains(out.String(), "owner@zulip.com") || !strings.Contains(out.String(), "curl -s -u ") {
		t.Errorf("later start: the banner offers no key of a user the kept realm has:\n%s", out)
	}
}
