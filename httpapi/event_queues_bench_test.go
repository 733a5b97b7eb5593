package httpapi

import (
	"encoding/json"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
)

// BenchmarkLongPollLatency measures the time from SendMessage returning to
// a GET /events long poll, blocked over loopback, receiving the event.
// It reports the median as median-µs.
func BenchmarkLongPollLatency(b *testing.B) {
	withoutContract(b)
	ts, err := Run(realm.WithHeartbeat(time.Minute))
	if err != nil {
		b.Fatal(err)
	}
	defer ts.Close()
	reg, err := ts.Realm.As(11).Register(bg(), realm.RegisterRequest{Queue: realm.QueueOptions{EventTypes: []string{"message"}}})
	if err != nil {
		b.Fatal(err)
	}
	qid := reg.QueueID
	sender := ts.Realm.As(10)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2}}
	received := make(chan time.Time)
	var latencies []time.Duration
	last := -1
	b.ResetTimer()
	for b.Loop() {
		go func(last int) {
			req := ts.NewRequest("iago@zulip.com", "GET", "/events", url.Values{"queue_id": {qid}, "last_event_id": {strconv.Itoa(last)}})
			resp, err := client.Do(req)
			if err != nil {
				panic(err)
			}
			var out struct {
				Events []json.RawMessage `json:"events"`
			}
			_ = json.NewDecoder(resp.Body).Decode(&out)
			resp.Body.Close()
			received <- time.Now()
		}(last)
		for !ts.Realm.IsPolling(qid) {
			runtime.Gosched()
		}
		if _, err := sender.SendChannelMessage(bg(), "Denmark", "latency", "ping"); err != nil {
			b.Fatal(err)
		}
		sent := time.Now()
		latencies = append(latencies, (<-received).Sub(sent))
		last++
	}
	slices.Sort(latencies)
	b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds()), "median-µs")
}
