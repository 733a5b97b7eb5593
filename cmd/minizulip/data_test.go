package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// dataServer is a child minizulip -data process.
type dataServer struct {
	cmd    *exec.Cmd
	url    string
	done   chan error
	stdout *bytes.Buffer
}

// startDataServer starts minizulip -data dir on addr and waits until it
// answers.
func startDataServer(t *testing.T, dir, addr string, extra ...string) *dataServer {
	t.Helper()
	ready := filepath.Join(t.TempDir(), "ready.json")
	args := append([]string{"-addr", addr, "-data", dir, "-ready-file", ready, "-messages", "10", "-banner", "json"}, extra...)
	cmd := mainCommand(t, args...)
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &dataServer{cmd: cmd, done: make(chan error, 1)}
	go func() { s.done <- cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if data, err := os.ReadFile(ready); err == nil && len(data) > 0 {
			var info readyInfo
			if json.Unmarshal(data, &info) == nil {
				s.url = info.URL
				return s
			}
		}
		select {
		case err := <-s.done:
			t.Fatalf("minizulip %v exited: %v\n%s", args, err, out.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("minizulip %v not ready after 30 s\n%s", args, out.String())
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a child's two output streams.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// kill ends the server with sig and waits for it.
func (s *dataServer) kill(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := s.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		t.Fatal("minizulip still running 30 s after", sig)
	}
}

// apiKey logs in as email through the dev endpoint.
func (s *dataServer) apiKey(t testing.TB, email string) string {
	t.Helper()
	resp, err := http.PostForm(s.url+"/api/v1/dev_fetch_api_key", url.Values{"username": {email}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		APIKey string `json:"api_key"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.APIKey == "" {
		t.Fatalf("dev_fetch_api_key %s: %v", email, err)
	}
	return out.APIKey
}

// call makes an API call as email; a transport error (the server killed)
// is returned as such.
func call(client *http.Client, method, u, email, key string, form url.Values) (int, map[string]any, error) {
	req, _ := http.NewRequest(method, u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(email, key)
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, err
	}
	var out map[string]any
	_ = json.Unmarshal(body, &out)
	return resp.StatusCode, out, nil
}

// acked is what the server acknowledged of one message: its content, and
// an edit whose answer never came (it may or may not have landed).
type acked struct {
	content, pending string
}

// Kill -9 at random moments under 4 concurrent writers: every send and
// edit the server answered is there after the restart, byte for byte;
// then a clean restart serves the same GET /minizulip/dump.
// MINIZULIP_CRASH_ROUNDS sets how many kills (5; 3 with -short).
func TestDataDirSurvivesKillUnderConcurrentWriters(t *testing.T) {
	rounds := 5
	if testing.Short() {
		rounds = 3
	}
	if n, err := strconv.Atoi(os.Getenv("MINIZULIP_CRASH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	dir, addr := filepath.Join(t.TempDir(), "data"), freeAddr(t)
	senders := []string{"iago@zulip.com", "hamlet@zulip.com", "othello@zulip.com", "cordelia@zulip.com"}
	var mu sync.Mutex
	messages := map[int64]*acked{}
	var channels []string // channels created and acknowledged (tables records)
	var deleted []int64   // messages of topics whose deletion was acknowledged
	total := 0
	for round := range rounds {
		s := startDataServer(t, dir, addr)
		keys := make([]string, len(senders))
		for i, e := range senders {
			keys[i] = s.apiKey(t, e)
		}
		client := &http.Client{Timeout: 10 * time.Second}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for w, email := range senders {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					content := fmt.Sprintf("round %d writer %d message %d: %s", round, w, i, strings.Repeat("é", 40+rand.IntN(40)))
					status, out, err := call(client, "POST", s.url+"/api/v1/messages", email, keys[w],
						url.Values{"type": {"stream"}, "to": {"Verona"}, "topic": {fmt.Sprint("writer ", w)}, "content": {content}})
					if err != nil {
						return // killed
					}
					if status != 200 {
						t.Errorf("send: %d %v", status, out)
						return
					}
					id := int64(out["id"].(float64))
					mu.Lock()
					messages[id] = &acked{content: content}
					total++
					mu.Unlock()
					if i%3 == 2 {
						edited := content + " (edited)"
						mu.Lock()
						messages[id].pending = edited
						mu.Unlock()
						status, out, err := call(client, "PATCH", fmt.Sprintf("%s/api/v1/messages/%d", s.url, id), email, keys[w], url.Values{"content": {edited}})
						if err != nil {
							return
						}
						if status != 200 {
							t.Errorf("edit: %d %v", status, out)
							return
						}
						mu.Lock()
						messages[id].content, messages[id].pending = edited, ""
						mu.Unlock()
					}
				}
			}()
		}
		wg.Add(1)
		go func() { // a fifth writer creates channels, a change journaled as a tables record
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				name := fmt.Sprintf("round %d channel %d", round, i)
				status, out, err := call(client, "POST", s.url+"/api/v1/users/me/subscriptions", senders[0], keys[0],
					url.Values{"subscriptions": {fmt.Sprintf(`[{"name":%q}]`, name)}})
				if err != nil {
					return // killed
				}
				if status != 200 {
					t.Errorf("create channel: %d %v", status, out)
					return
				}
				mu.Lock()
				channels = append(channels, name)
				mu.Unlock()
			}
		}()
		wg.Add(1)
		go func() { // a sixth writer sends to topics and deletes them (tables records that remove messages)
			defer wg.Done()
			status, out, err := call(client, "GET", s.url+"/api/v1/get_stream_id?stream=Verona", senders[0], keys[0], nil)
			if err != nil || status != 200 {
				return // killed
			}
			verona := int(out["stream_id"].(float64))
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				topic := fmt.Sprintf("round %d doomed %d", round, i)
				var ids []int64
				for range 2 {
					status, out, err := call(client, "POST", s.url+"/api/v1/messages", senders[0], keys[0],
						url.Values{"type": {"stream"}, "to": {"Verona"}, "topic": {topic}, "content": {"soon gone"}})
					if err != nil {
						return // killed
					}
					if status != 200 {
						t.Errorf("send: %d %v", status, out)
						return
					}
					ids = append(ids, int64(out["id"].(float64)))
				}
				status, out, err := call(client, "POST", fmt.Sprintf("%s/api/v1/streams/%d/delete_topic", s.url, verona), senders[0], keys[0],
					url.Values{"topic_name": {topic}})
				if err != nil {
					return // killed: the topic may or may not be gone
				}
				if status != 200 || out["complete"] != true {
					t.Errorf("delete_topic: %d %v", status, out)
					return
				}
				mu.Lock()
				deleted = append(deleted, ids...)
				mu.Unlock()
			}
		}()
		time.Sleep(time.Duration(150+rand.IntN(350)) * time.Millisecond) // a random moment to crash at
		s.kill(t, syscall.SIGKILL)
		close(stop)
		wg.Wait()
		if t.Failed() {
			return
		}
	}
	if total == 0 {
		t.Fatal("no send was acknowledged")
	}
	s := startDataServer(t, dir, addr)
	key := s.apiKey(t, "iago@zulip.com")
	client := &http.Client{Timeout: 10 * time.Second}
	for id, m := range messages {
		status, out, err := call(client, "GET", fmt.Sprintf("%s/api/v1/messages/%d?apply_markdown=false", s.url, id), "iago@zulip.com", key, nil)
		if err != nil || status != 200 {
			t.Errorf("acknowledged message %d: %d %v %v", id, status, out, err)
			continue
		}
		got := out["message"].(map[string]any)["content"].(string)
		if got != m.content && (m.pending == "" || got != m.pending) {
			t.Errorf("message %d is %q, want %q as acknowledged", id, got, m.content)
		}
	}
	for _, name := range channels {
		status, out, err := call(client, "GET", s.url+"/api/v1/get_stream_id?stream="+url.QueryEscape(name), "iago@zulip.com", key, nil)
		if err != nil || status != 200 {
			t.Errorf("acknowledged channel %q: %d %v %v", name, status, out, err)
		}
	}
	for _, id := range deleted {
		status, _, err := call(client, "GET", fmt.Sprintf("%s/api/v1/messages/%d", s.url, id), "iago@zulip.com", key, nil)
		if err != nil || status != 400 {
			t.Errorf("message %d of a deleted topic: %d %v, want it gone (400)", id, status, err)
		}
	}
	before := getDump(t, client, s.url)
	s.kill(t, syscall.SIGTERM)
	s = startDataServer(t, dir, addr)
	defer s.kill(t, syscall.SIGTERM)
	if after := getDump(t, client, s.url); after != before {
		t.Errorf("a clean restart changed GET /minizulip/dump (%d bytes before, %d after)", len(before), len(after))
	}
	t.Logf("%d rounds, %d acknowledged sends, %d acknowledged channels, %d messages of acknowledged topic deletions", rounds, total, len(channels), len(deleted))
}

// getDump fetches GET /minizulip/dump.
func getDump(t *testing.T, client *http.Client, base string) string {
	t.Helper()
	resp, err := client.Get(base + "/minizulip/dump")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("dump: %d %s", resp.StatusCode, b)
	}
	return string(b)
}

// A second server on the same directory refuses to start, naming the
// lock; the first goes on.
func TestDataDirSecondServerRefuses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	s := startDataServer(t, dir, "127.0.0.1:0")
	defer s.kill(t, syscall.SIGTERM)
	status, _, stderr := mainExit(t, "-addr", "127.0.0.1:0", "-data", dir)
	if status != 1 || !strings.Contains(stderr, "in use by another process") {
		t.Fatalf("second server: exit %d, stderr %q", status, stderr)
	}
	if !answers(t, s.url) {
		t.Fatal("the first server stopped answering")
	}
}

func TestDataFlagsRefuseABadFsyncPolicy(t *testing.T) {
	status, _, stderr := mainExit(t, "-fsync", "sometimes")
	if status != 2 || !strings.Contains(stderr, "-fsync") {
		t.Fatalf("exit %d, stderr %q", status, stderr)
	}
}
