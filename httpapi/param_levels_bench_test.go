package httpapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// BenchmarkHTTPSendGatedParameter is BenchmarkHTTPSend's request with
// read_by_sender added, to a realm at level 235, which does not know it:
// the cost of the parameter gate's drop path (compare BenchmarkHTTPSend,
// where the gate costs one comparison).
func BenchmarkHTTPSendGatedParameter(b *testing.B) {
	withoutContract(b)
	r := realm.New(realm.WithFeatureLevel(235, ""))
	srv := httptest.NewServer(New(r))
	defer srv.Close()
	_, key, _ := r.APIKey("iago@zulip.com")
	body := benchSendBody + "&read_by_sender=true"
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	b.ReportAllocs()
	for b.Loop() {
		req, _ := http.NewRequest("POST", srv.URL+"/api/v1/messages", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth("iago@zulip.com", key)
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(out), `"ignored_parameters_unsupported":["read_by_sender"]`) {
			b.Fatalf("%d %s", resp.StatusCode, out)
		}
	}
}
