package httpapi

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// benchSendBody is the form of a 100-character channel message.
var benchSendBody = url.Values{
	"type": {"stream"}, "to": {"Verona"}, "topic": {"bench"},
	"content": {strings.Repeat("hello world ", 7) + "plain text here!"},
}.Encode()

// benchPost sends POST /api/v1/messages over one keep-alive client until
// the benchmark ends, and reports requests per second.
func benchPost(b *testing.B, srvURL, email, key string) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for b.Loop() {
		if msg := postMessage(client, srvURL, email, key); msg != "" {
			b.Fatal(msg)
		}
	}
	// CPU per request (client and server, both in this process) tells
	// more than requests per second on a machine other work shares.
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// processCPU is the CPU time this process has used, user and system, in
// nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkHTTPSendBaseline is a handler that only decodes the same form,
// checks Basic auth against a map and writes the same JSON answer.
func BenchmarkHTTPSendBaseline(b *testing.B) {
	withoutContract(b)
	keys := map[string]string{"iago@zulip.com": "abcdefghijklmnopqrstuvwxyz012345"}
	var next atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			http.Error(w, "bad form", http.StatusBadRequest)
			return
		}
		email, key, ok := r.BasicAuth()
		if !ok || keys[email] != key || r.PostForm.Get("content") == "" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, "{\"result\":\"success\",\"msg\":\"\",\"id\":%d}\n", next.Add(1))
	}))
	defer srv.Close()
	benchPost(b, srv.URL, "iago@zulip.com", keys["iago@zulip.com"])
}

// BenchmarkHTTPSend sends the same message through the real adapter and
// realm (authentication, decoding, rendering, storage, delivery).
func BenchmarkHTTPSend(b *testing.B) {
	withoutContract(b)
	r := realm.New()
	srv := httptest.NewServer(New(r))
	defer srv.Close()
	_, key, _ := r.APIKey("iago@zulip.com")
	benchPost(b, srv.URL, "iago@zulip.com", key)
}
