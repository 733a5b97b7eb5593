package httpapi

import (
	"bytes"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/upload"
)

// benchFileSize is the file the upload benchmarks send.
const benchFileSize = 10 << 20

var benchFile = func() []byte {
	b := make([]byte, benchFileSize)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}()

// heapPeak samples the heap while uploads run and reports the most it
// grew during one upload above where that upload started (after a GC),
// in MiB: the memory an upload costs, garbage included.
type heapPeak struct {
	mu       sync.Mutex
	base     uint64
	maxGrown uint64
	stop     chan struct{}
	wg       sync.WaitGroup
}

func startHeapPeak() *heapPeak {
	h := &heapPeak{stop: make(chan struct{})}
	h.reset()
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			h.sample()
			select {
			case <-h.stop:
				return
			case <-t.C:
			}
		}
	}()
	return h
}

// reset starts a new upload's measure from a collected heap.
func (h *heapPeak) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	h.base = ms.HeapAlloc
}

func (h *heapPeak) sample() {
	h.mu.Lock()
	defer h.mu.Unlock()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > h.base && ms.HeapAlloc-h.base > h.maxGrown {
		h.maxGrown = ms.HeapAlloc - h.base
	}
}

// report stops sampling and reports the peak growth.
func (h *heapPeak) report(b *testing.B) {
	h.sample()
	close(h.stop)
	h.wg.Wait()
	b.ReportMetric(float64(h.maxGrown)/(1<<20), "peak-heap-MiB")
}

// benchUploadTo posts the benchmark file as a streamed multipart body to
// target once per iteration, then lets after clean up.
func benchUploadTo(b *testing.B, target, email, key string, after func(*http.Response)) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2}}
	b.SetBytes(benchFileSize)
	b.ReportAllocs()
	peak := startHeapPeak()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		peak.sample()
		peak.reset()
		b.StartTimer()
		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		go func() {
			fw, _ := mw.CreateFormFile("filename", "bench.bin")
			_, _ = io.Copy(fw, bytes.NewReader(benchFile))
			pw.CloseWithError(mw.Close())
		}()
		req, _ := http.NewRequest("POST", target, pr)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		if email != "" {
			req.SetBasicAuth(email, key)
		}
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			body, _ := io.ReadAll(resp.Body)
			b.Fatalf("status %d %s", resp.StatusCode, body)
		}
		after(resp)
		resp.Body.Close()
	}
	b.StopTimer()
	peak.report(b)
}

// BenchmarkUploadBaseline is the baseline: the same multipart body
// io.Copy'd to nowhere by a bare handler.
func BenchmarkUploadBaseline(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		_, _ = io.Copy(io.Discard, req.Body)
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	benchUploadTo(b, srv.URL, "", "", func(*http.Response) {})
}

// BenchmarkUploadDirStore is POST /user_uploads into a directory store:
// the file streams to disk; the heap stays flat.
func BenchmarkUploadDirStore(b *testing.B) {
	store, err := upload.NewDirStore(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	benchUpload(b, realm.WithUploadStore(store))
}

// BenchmarkUploadMemoryStore is POST /user_uploads into the default
// memory store, which holds the file itself (10 MiB) until it is deleted.
func BenchmarkUploadMemoryStore(b *testing.B) { benchUpload(b) }

func benchUpload(b *testing.B, opts ...realm.Option) {
	withoutContract(b)
	r := realm.New(opts...)
	srv := httptest.NewServer(New(r))
	defer srv.Close()
	id, key, _ := r.APIKey("hamlet@zulip.com")
	a := r.As(id)
	benchUploadTo(b, srv.URL+APIPrefix+"/user_uploads", "hamlet@zulip.com", key, func(*http.Response) {
		list, err := a.Attachments(b.Context())
		if err != nil || len(list.Attachments) != 1 || list.Attachments[0].Size != benchFileSize {
			b.Fatalf("attachments %+v %v", list, err)
		}
		if err := a.DeleteAttachment(b.Context(), list.Attachments[0].ID); err != nil {
			b.Fatal(err)
		}
	})
}
