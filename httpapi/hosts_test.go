package httpapi

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
)

// rawRequest sends one request written by hand to addr and returns the
// answer's status and body.
func rawRequest(t *testing.T, addr, request string) (int, string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// An absolute URL in the request line does not get past the loopback
// Host check: Go's server would take the URL's host and drop the Host
// header, the name a DNS-rebinding page controls.
func TestHostCheckSeesThroughAbsoluteRequestLines(t *testing.T) {
	srv := httptest.NewServer(New(realm.New(), WithAllowedHosts(LoopbackHosts...)))
	t.Cleanup(srv.Close)
	addr := strings.TrimPrefix(srv.URL, "http://")
	for _, c := range []struct {
		target, host string
		want         int
	}{
		{"/minizulip/dump", "127.0.0.1", 200},
		{"/api/v1/server_settings", "localhost", 200},
		{"/minizulip/dump", "evil.com", 400},
		{"http://127.0.0.1/minizulip/dump", "evil.com", 400},
		{"http://" + addr + "/api/v1/server_settings", "evil.com", 400},
		{"http://evil.com/minizulip/dump", "127.0.0.1", 400},
		// The server cannot tell this one from the first absolute one.
		{"http://127.0.0.1/minizulip/dump", "127.0.0.1", 400},
	} {
		status, body := rawRequest(t, addr, fmt.Sprintf("GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", c.target, c.host))
		if status != c.want || c.want == 400 && !strings.Contains(body, `"msg":"Invalid HTTP Host header"`) {
			t.Errorf("GET %s with Host %s: %d %.100s, want %d", c.target, c.host, status, body, c.want)
		}
	}
}
