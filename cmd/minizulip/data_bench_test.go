package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkDataSendHTTP sends 100-character messages over HTTP from 4
// concurrent clients to three servers run() starts side by side: in
// memory (the baseline) and with -data under each -fsync policy. Each
// iteration is one round of sendsPerRound sends to each server in turn,
// so that the machine's load falls on all three alike; it reports each
// mode's median sends/s over the rounds, the ratios to the baseline (the
// targets: always at least 0.5×, everysec 0.9×), and the machine's load
// average during the run. Where /dev/shm is a writable directory it runs
// a fourth server, always with its data directory there (memory, not a
// disk: an fsync costs nothing), which tells the journal's own cost from
// the disk's. Run it with -benchtime 7x or so.
func BenchmarkDataSendHTTP(b *testing.B) {
	const sendsPerRound = 4000
	content := strings.Repeat("hello world ", 7) + "plain text here!"
	modes := []string{"memory", "always", "everysec"}
	shm := ""
	if dir, err := os.MkdirTemp("/dev/shm", "minizulip-bench"); err == nil {
		shm = dir
		b.Cleanup(func() { os.RemoveAll(dir) })
		modes = append(modes, "always-shm")
	}
	type server struct {
		base string
		keys []string
	}
	senders := []string{"iago@zulip.com", "hamlet@zulip.com", "othello@zulip.com", "cordelia@zulip.com"}
	servers := map[string]*server{}
	for _, mode := range modes {
		args := []string{"-addr", "127.0.0.1:0", "-messages", "0", "-api-key-seed", "bench"}
		switch mode {
		case "memory":
		case "always-shm":
			args = append(args, "-data", filepath.Join(shm, "data"), "-fsync", "always")
		default:
			args = append(args, "-data", filepath.Join(b.TempDir(), "data"), "-fsync", mode)
		}
		ctx, cancel := context.WithCancel(context.Background())
		urls := make(chan string, 1)
		done := make(chan error, 1)
		go func() { done <- run(ctx, args, io.Discard, func(u string) { urls <- u }) }()
		s := &server{}
		select {
		case s.base = <-urls:
		case err := <-done:
			b.Fatal(err)
		}
		b.Cleanup(func() {
			cancel()
			<-done // (a shutdown cut short by open keep-alive connections is no matter here)
		})
		ds := &dataServer{url: s.base}
		for _, e := range senders {
			s.keys = append(s.keys, ds.apiKey(b, e))
		}
		servers[mode] = s
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	round := func(s *server) float64 {
		start := time.Now()
		var wg sync.WaitGroup
		for w, email := range senders {
			wg.Add(1)
			go func() {
				defer wg.Done()
				form := url.Values{"type": {"stream"}, "to": {"Verona"}, "topic": {fmt.Sprint("bench ", w)}, "content": {content}}
				for range sendsPerRound / len(senders) {
					status, out, err := call(client, "POST", s.base+"/api/v1/messages", email, s.keys[w], form)
					if err != nil || status != 200 {
						b.Errorf("send: %d %v %v", status, out, err)
						return
					}
				}
			}()
		}
		wg.Wait()
		return sendsPerRound / time.Since(start).Seconds()
	}
	rates := map[string][]float64{}
	for _, s := range servers { // warm up
		round(s)
	}
	load := loadAverage()
	b.ResetTimer()
	for i := range b.N {
		for j := range modes {
			mode := modes[(i+j)%len(modes)] // each mode in each place of the round
			rates[mode] = append(rates[mode], round(servers[mode]))
		}
	}
	b.StopTimer()
	median := func(x []float64) float64 {
		x = slices.Clone(x)
		slices.Sort(x)
		return x[len(x)/2]
	}
	base := median(rates["memory"])
	for _, mode := range modes {
		m := median(rates[mode])
		b.ReportMetric(m, mode+"-sends/s")
		if mode != "memory" {
			b.ReportMetric(m/base, mode+"/memory")
		}
	}
	b.ReportMetric((load+loadAverage())/2, "load")

}

// loadAverage is the machine's 1-minute load average (0 where unknown).
func loadAverage() float64 {
	var l float64
	if data, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Sscan(string(data), &l)
	}
	return l
}
