package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
)

// pacedServer serves a dev realm through NewHTTPServer with the body
// pace shortened to idle and slowAfter, and returns its address.
func pacedServer(t *testing.T, idle, slowAfter time.Duration) (*Server, string) {
	t.Helper()
	api := New(realm.New())
	api.bodyIdle, api.bodySlowAfter = idle, slowAfter
	srv, cancel := NewHTTPServer(api)
	if srv.ReadTimeout != idle {
		t.Fatalf("ReadTimeout %v, want the idle timeout %v", srv.ReadTimeout, idle)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { cancel(); srv.Close() })
	return api, ln.Addr().String()
}

// pacedReply is an answer to pacedRequest and when it came.
type pacedReply struct {
	status int
	header http.Header
	body   map[string]any
	at     time.Time
}

// pacedRequest writes a request's head to conn, then the body pieces,
// one per tick of every (none when every is 0), and returns the answer
// read meanwhile.
func pacedRequest(t *testing.T, conn net.Conn, head string, pieces [][]byte, every time.Duration) pacedReply {
	t.Helper()
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		io.WriteString(conn, head)
		var tick <-chan time.Time
		if every > 0 {
			ticker := time.NewTicker(every)
			defer ticker.Stop()
			tick = ticker.C
		}
		for _, p := range pieces {
			if tick != nil {
				select {
				case <-tick:
				case <-stop:
					return
				}
			}
			if _, err := conn.Write(p); err != nil {
				return
			}
		}
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Fatalf("answer %d %q is not JSON", resp.StatusCode, raw)
		}
	}
	return pacedReply{resp.StatusCode, resp.Header, body, time.Now()}
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func basicAuth(r *realm.Realm, email string) string {
	_, key, _ := r.APIKey(email)
	req := http.Request{Header: http.Header{}}
	req.SetBasicAuth(email, key)
	return req.Header.Get("Authorization")
}

// A body that stops sending is cut off with a 408 once it has sent
// nothing for the idle timeout, for the API and the control API alike,
// and the refused request changes nothing.
func TestStalledBodiesAreCutOffWhenIdle(t *testing.T) {
	const idle = 500 * time.Millisecond
	api, addr := pacedServer(t, idle, time.Minute)
	before, _ := api.Realm().Dump()
	for _, c := range []struct{ path, auth, body string }{
		{"/api/v1/messages", basicAuth(api.Realm(), "hamlet@zulip.com"), "type=stream&to=Denmark&topic=t&content=stalled"},
		{"/minizulip/clock", "", "advance=60"},
	} {
		head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n", c.path, len(c.body)+100)
		if c.auth != "" {
			head += "Authorization: " + c.auth + "\r\n"
		}
		start := time.Now()
		r := pacedRequest(t, dial(t, addr), head+"\r\n", [][]byte{[]byte(c.body)}, 0)
		if r.status != http.StatusRequestTimeout || r.body["code"] != "BAD_REQUEST" ||
			r.body["msg"] != "Request body timed out: nothing arrived for 500ms" {
			t.Fatalf("%s: %d %v", c.path, r.status, r.body)
		}
		if waited := r.at.Sub(start); waited < idle || waited > 10*idle {
			t.Fatalf("%s: cut off after %v, idle timeout %v", c.path, waited, idle)
		}
	}
	if after, _ := api.Realm().Dump(); !bytes.Equal(before, after) {
		t.Fatal("a stalled request changed the realm")
	}
}

// A body that never stalls but trickles a byte now and then is cut off
// once it has taken longer than the slow-after time below MinBodyRate.
func TestTricklingBodiesAreCutOff(t *testing.T) {
	const idle, slowAfter = time.Second, 1500 * time.Millisecond
	api, addr := pacedServer(t, idle, slowAfter)
	body := "type=stream&to=Denmark&topic=t&content=" + strings.Repeat("x", 200)
	head := fmt.Sprintf("POST /api/v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\nAuthorization: %s\r\n\r\n",
		len(body), basicAuth(api.Realm(), "hamlet@zulip.com"))
	var bytesOf [][]byte
	for i := range body {
		bytesOf = append(bytesOf, []byte{body[i]})
	}
	start := time.Now()
	r := pacedRequest(t, dial(t, addr), head, bytesOf, 100*time.Millisecond)
	if msg, _ := r.body["msg"].(string); r.status != http.StatusRequestTimeout || !strings.HasPrefix(msg, "Request body too slow: still arriving after 1.5s") {
		t.Fatalf("trickle: %d %v", r.status, r.body)
	}
	if waited := r.at.Sub(start); waited < slowAfter {
		t.Fatalf("cut off after %v, before the slow-after time %v", waited, slowAfter)
	}
	if api.Realm().MessageCount() != 0 {
		t.Fatal("a cut-off send stored a message")
	}
}

// A large upload that keeps sending goes on past both timeouts.
func TestUploadsThatKeepSendingGoOn(t *testing.T) {
	const idle, slowAfter = 300 * time.Millisecond, 600 * time.Millisecond
	api, addr := pacedServer(t, idle, slowAfter)
	auth := basicAuth(api.Realm(), "hamlet@zulip.com")
	const pieces, size = 24, 64 << 10 // 1.5 MiB over about 1.2 s
	head := fmt.Sprintf("POST /api/v1/tus/ HTTP/1.1\r\nHost: 127.0.0.1\r\nTus-Resumable: 1.0.0\r\nUpload-Length: %d\r\nContent-Type: application/offset+octet-stream\r\nContent-Length: %d\r\nAuthorization: %s\r\n\r\n",
		pieces*size, pieces*size, auth)
	var body [][]byte
	for range pieces {
		body = append(body, bytes.Repeat([]byte("z"), size))
	}
	start := time.Now()
	r := pacedRequest(t, dial(t, addr), head, body, 50*time.Millisecond)
	if url, _ := r.body["url"].(string); r.status != http.StatusOK || !strings.HasPrefix(url, "/user_uploads/2/") {
		t.Fatalf("upload: %d %v", r.status, r.body)
	}
	if took := r.at.Sub(start); took < 2*slowAfter {
		t.Fatalf("the upload took %v, not past the timeouts it should outlast", took)
	}
}

// A stalled upload keeps what arrived, so the client can resume.
func TestStalledTusPatchKeepsWhatArrived(t *testing.T) {
	api, addr := pacedServer(t, 300*time.Millisecond, time.Minute)
	auth := basicAuth(api.Realm(), "hamlet@zulip.com")
	create := fmt.Sprintf("POST /api/v1/tus/ HTTP/1.1\r\nHost: 127.0.0.1\r\nTus-Resumable: 1.0.0\r\nUpload-Length: 1000\r\nContent-Length: 0\r\nAuthorization: %s\r\n\r\n", auth)
	created := pacedRequest(t, dial(t, addr), create, nil, 0)
	location := created.header.Get("Location")
	if created.status != http.StatusCreated || location == "" {
		t.Fatalf("creation: %d %v", created.status, created.header)
	}
	patch := fmt.Sprintf("PATCH %s HTTP/1.1\r\nHost: 127.0.0.1\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\nContent-Type: application/offset+octet-stream\r\nContent-Length: 1000\r\nAuthorization: %s\r\n\r\n", location, auth)
	r := pacedRequest(t, dial(t, addr), patch, [][]byte{bytes.Repeat([]byte("a"), 400)}, 0)
	if msg, _ := r.body["message"].(string); r.status != http.StatusRequestTimeout || !strings.HasPrefix(msg, "Request body timed out") {
		t.Fatalf("stalled PATCH: %d %v", r.status, r.body)
	}
	hamlet, _ := api.Realm().UserIDByEmail("hamlet@zulip.com")
	pathID := strings.TrimPrefix(location, "/api/v1/tus/")
	prog, err := api.Realm().As(hamlet).ResumableUploadOffset(context.Background(), pathID)
	if err != nil || prog.Offset != 400 {
		t.Fatalf("after the stall: %+v %v", prog, err)
	}
}
