package httpapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// BenchmarkHTTPSendContention sends the 100-character channel message of
// BenchmarkHTTPSend through the real adapter and realm from one sender
// (the baseline) and from four concurrent senders, each a different user
// on its own keep-alive connection, all to the same channel and topic.
// Issue 15's target: four senders together send at least as many
// messages per second as one alone.
func BenchmarkHTTPSendContention(b *testing.B) {
	b.Run("alone", func(b *testing.B) { benchHTTPContendedSend(b, 1) })
	b.Run("senders=4", func(b *testing.B) { benchHTTPContendedSend(b, 4) })
}

// benchHTTPContendedSend sends b.N messages over HTTP from senders
// goroutines and reports messages per second and CPU per message.
func benchHTTPContendedSend(b *testing.B, senders int) {
	withoutContract(b)
	r := realm.New()
	srv := httptest.NewServer(New(r))
	defer srv.Close()
	emails := []string{"iago@zulip.com", "hamlet@zulip.com", "othello@zulip.com", "cordelia@zulip.com"}
	keys := make([]string, len(emails))
	for i, email := range emails {
		_, key, ok := r.APIKey(email)
		if !ok {
			b.Fatalf("no API key for %s", email)
		}
		keys[i] = key
	}
	var left atomic.Int64
	left.Store(int64(b.N))
	var failure atomic.Pointer[string]
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	var done sync.WaitGroup
	for i := 0; i < senders; i++ {
		done.Add(1)
		go func() {
			defer done.Done()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
			for left.Add(-1) >= 0 {
				if msg := postMessage(client, srv.URL, emails[i], keys[i]); msg != "" {
					failure.CompareAndSwap(nil, &msg)
					return
				}
			}
		}()
	}
	done.Wait()
	b.StopTimer()
	if msg := failure.Load(); msg != nil {
		b.Fatal(*msg)
	}
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// postMessage posts benchSendBody as email and returns what went wrong,
// or "" when the message was sent.
func postMessage(client *http.Client, srvURL, email, key string) string {
	req, _ := http.NewRequest("POST", srvURL+"/api/v1/messages", strings.NewReader(benchSendBody))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(email, key)
	resp, err := client.Do(req)
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return email + ": status " + resp.Status
	}
	return ""
}
