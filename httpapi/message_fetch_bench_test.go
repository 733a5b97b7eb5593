package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/realm/realmtest"
)

// BenchmarkHTTPFetchNewestInTopic fetches the newest 100 messages of one
// topic over HTTP (GET /messages, keep-alive) in realms of 10,000 and
// 1,000,000 messages, loaded through the send path: the cost must not
// grow with the realm (at most 1.5x). Besides the steady state (ns/op) it
// reports the first 100 fetches right after the load
// (after-load-ns/fetch), when the heap has just grown.
func BenchmarkHTTPFetchNewestInTopic(b *testing.B) {
	withoutContract(b)
	content := "hello world hello world hello world hello world hello world hello world hello world plain text here!"
	for _, size := range []int{10_000, 1_000_000} {
		b.Run(fmt.Sprintf("messages=%d", size), func(b *testing.B) {
			r := realm.New()
			iago := r.As(realmtest.UserID(b, r, "iago@zulip.com"))
			for i := range size {
				if _, err := iago.SendChannelMessage(bg(), "Denmark", fmt.Sprintf("topic %d", i%100), content); err != nil {
					b.Fatal(err)
				}
			}
			srv := httptest.NewServer(New(r))
			defer srv.Close()
			_, key, _ := r.APIKey("iago@zulip.com")
			query := url.Values{
				"anchor": {"newest"}, "num_before": {"100"}, "num_after": {"0"},
				"narrow": {`[{"operator":"channel","operand":"Denmark"},{"operator":"topic","operand":"topic 7"}]`},
			}.Encode()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2}}
			fetch := func() {
				req, _ := http.NewRequest("GET", srv.URL+"/api/v1/messages?"+query, nil)
				req.SetBasicAuth("iago@zulip.com", key)
				resp, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				var out struct {
					Messages []json.RawMessage `json:"messages"`
				}
				err = json.NewDecoder(resp.Body).Decode(&out)
				resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusOK || len(out.Messages) != 100 {
					b.Fatalf("status %d, %v, %d messages", resp.StatusCode, err, len(out.Messages))
				}
			}
			const afterLoad = 100
			start := time.Now()
			for range afterLoad {
				fetch()
			}
			firstFetches := time.Since(start)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				fetch()
			}
			b.ReportMetric(float64(firstFetches.Nanoseconds())/afterLoad, "after-load-ns/fetch")
		})
	}
}
