package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// BenchmarkDataSendHTTP sends 100-character messages over HTTP from 4
// concurrent clients to the server run() starts: in memory (the
// baseline, same run) and with -data under each -fsync policy. The
// targets: always at least 0.5× the baseline's throughput, everysec 0.9×.
func BenchmarkDataSendHTTP(b *testing.B) {
	content := strings.Repeat("hello world ", 7) + "plain text here!"
	for _, mode := range []string{"memory", "always", "everysec"} {
		b.Run(mode, func(b *testing.B) {
			args := []string{"-addr", "127.0.0.1:0", "-messages", "0", "-api-key-seed", "bench"}
			if mode != "memory" {
				args = append(args, "-data", filepath.Join(b.TempDir(), "data"), "-fsync", mode)
			}
			ctx, cancel := context.WithCancel(context.Background())
			urls := make(chan string, 1)
			done := make(chan error, 1)
			go func() { done <- run(ctx, args, io.Discard, func(u string) { urls <- u }) }()
			var base string
			select {
			case base = <-urls:
			case err := <-done:
				b.Fatal(err)
			}
			defer func() {
				cancel()
				<-done // (a shutdown cut short by open keep-alive connections is no matter here)
			}()
			senders := []string{"iago@zulip.com", "hamlet@zulip.com", "othello@zulip.com", "cordelia@zulip.com"}
			keys := make([]string, len(senders))
			s := &dataServer{url: base}
			for i, e := range senders {
				keys[i] = s.apiKey(b, e)
			}
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
			b.ResetTimer()
			var wg sync.WaitGroup
			for w, email := range senders {
				n := b.N / len(senders)
				if w < b.N%len(senders) {
					n++
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					form := url.Values{"type": {"stream"}, "to": {"Verona"}, "topic": {fmt.Sprint("bench ", w)}, "content": {content}}
					for range n {
						status, out, err := call(client, "POST", base+"/api/v1/messages", email, keys[w], form)
						if err != nil || status != 200 {
							b.Errorf("send: %d %v %v", status, out, err)
							return
						}
					}
				}()
			}
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "sends/s")
		})
	}
}
