package httpapi

import (
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// thousandRealms is how many servers BenchmarkThousandRealms keeps at once.
const thousandRealms = 1000

// BenchmarkThousandRealms starts 1,000 test servers in one process, each
// a dev-seeded realm behind its own HTTP listener (Run) with one event
// queue registered over HTTP, and keeps them all up. Start is Run up to
// the first answered request; the queue is registered after. It reports
// the median and p99 start, the process's RSS and live heap with all of
// them up, beside the same for 1,000 bare net/http servers (listener,
// server, first answer) started first in the same run: the baseline.
func BenchmarkThousandRealms(b *testing.B) {
	withoutContract(b)
	for b.Loop() {
		client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		rss0, heap0 := memoryInUse()
		bare := startBareServers(b, client)
		rssBare, heapBare := memoryInUse()
		for _, s := range bare.servers {
			s.Close()
		}
		runtime.GC()
		rss1, heap1 := memoryInUse()

		starts := make([]time.Duration, 0, thousandRealms)
		servers := make([]*TestServer, 0, thousandRealms)
		for i := 0; i < thousandRealms; i++ {
			t0 := time.Now()
			ts, err := Run()
			if err != nil {
				b.Fatal(err)
			}
			get(b, client, ts.URL+"/api/v1/server_settings")
			starts = append(starts, time.Since(t0))
			servers = append(servers, ts)
			registerQueue(b, client, ts)
		}
		rssRealms, heapRealms := memoryInUse()
		for _, ts := range servers {
			ts.Close()
		}
		b.ReportMetric(percentile(bare.starts, 50), "bare-median-ms")
		b.ReportMetric(percentile(bare.starts, 99), "bare-p99-ms")
		b.ReportMetric(mib(rssBare-rss0), "bare-RSS-MiB")
		b.ReportMetric(mib(heapBare-heap0), "bare-heap-MiB")
		b.ReportMetric(percentile(starts, 50), "median-ms")
		b.ReportMetric(percentile(starts, 99), "p99-ms")
		b.ReportMetric(mib(rssRealms-rss1), "RSS-MiB")
		b.ReportMetric(mib(heapRealms-heap1), "heap-MiB")
		b.ReportMetric(mib(rssRealms), "process-RSS-MiB")
	}
}

// bareServers are the baseline's servers and their start times.
type bareServers struct {
	servers []*http.Server
	starts  []time.Duration
}

// startBareServers starts thousandRealms bare net/http servers, each
// answering its first request.
func startBareServers(b *testing.B, client *http.Client) bareServers {
	var out bareServers
	for i := 0; i < thousandRealms; i++ {
		t0 := time.Now()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"result":"success","msg":""}`))
		})}
		go func() { _ = srv.Serve(ln) }()
		get(b, client, "http://"+ln.Addr().String()+"/")
		out.starts = append(out.starts, time.Since(t0))
		out.servers = append(out.servers, srv)
	}
	return out
}

// get requests u and checks for a 200.
func get(b *testing.B, client *http.Client, u string) {
	resp, err := client.Get(u)
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %d", u, resp.StatusCode)
	}
}

// registerQueue registers an event queue for message events as hamlet.
func registerQueue(b *testing.B, client *http.Client, ts *TestServer) {
	creds := ts.Creds("hamlet@zulip.com")
	form := url.Values{"event_types": {`["message"]`}, "fetch_event_types": {`["message"]`}}
	req, _ := http.NewRequest("POST", ts.URL+"/api/v1/register", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(creds.Email, creds.APIKey)
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("register: %d", resp.StatusCode)
	}
}

// memoryInUse is the process's resident set and, after a collection, its
// live heap, in bytes.
func memoryInUse() (rss, heap int64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return residentSet(), int64(ms.HeapAlloc)
}

// residentSet is VmRSS from /proc/self/status (Linux), 0 elsewhere.
func residentSet() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

// percentile is the p-th percentile of ds in milliseconds.
func percentile(ds []time.Duration, p int) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := min(len(s)-1, (len(s)*p+99)/100-1)
	return float64(s[max(i, 0)]) / float64(time.Millisecond)
}
