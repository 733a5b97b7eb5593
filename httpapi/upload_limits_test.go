package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"strconv"
	"testing"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/upload"
)

// tusSend sends one tus request to ts as creds and returns the status,
// the Location header and the decoded {"message": …} body.
func tusSend(t testing.TB, ts *TestServer, creds Credentials, method, path string, headers map[string]string, body []byte) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest(method, ts.URL+path, bytes.NewReader(body))
	req.Header.Set("Tus-Resumable", "1.0.0")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	req.SetBasicAuth(creds.Email, creds.APIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var answer struct{ Message string }
	raw, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(raw, &answer)
	return resp.StatusCode, resp.Header.Get("Location"), answer.Message
}

// TestTusFloodStaysBounded replays the probe's flood: as a member, 2,000
// resumable uploads declared 20 MiB, each sent 1 MiB and left
// unfinished. The first 20 are kept; every other creation is refused
// with 429 and keeps nothing, and the heap stays within a few tens of MiB
// of the idle server's, measured just before.
func TestTusFloodStaysBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 2,000 uploads")
	}
	ts := RunT(t)
	creds := ts.Creds("hamlet@zulip.com")
	mebibyte := make([]byte, upload.MiB)
	create := map[string]string{"Upload-Length": strconv.Itoa(20 * upload.MiB)}
	idleRSS, idleHeap := memoryInUse()
	peak := startHeapPeak()
	kept := 0
	for i := range 2000 {
		status, location, msg := tusSend(t, ts, creds, "POST", "/api/v1/tus/", create, nil)
		if status == http.StatusTooManyRequests {
			if want := "Too many unfinished uploads (limit: 20): finish or terminate one first"; msg != want {
				t.Fatalf("upload %d refused with %q, want %q", i, msg, want)
			}
			continue
		}
		if status != http.StatusCreated {
			t.Fatalf("upload %d: %d %q", i, status, msg)
		}
		kept++
		if status, _, msg := tusSend(t, ts, creds, "PATCH", location, chunk(0), mebibyte); status != http.StatusNoContent {
			t.Fatalf("PATCH %d: %d %q", i, status, msg)
		}
	}
	peak.sample()
	close(peak.stop)
	peak.wg.Wait()
	rss, heap := memoryInUse()
	if kept != realm.DefaultMaxUnfinishedUploads {
		t.Fatalf("%d uploads kept, want %d", kept, realm.DefaultMaxUnfinishedUploads)
	}
	held, promised := ts.Realm.UploadStore().(*upload.MemoryStore).Used()
	if held != int64(kept)*upload.MiB || promised != int64(kept)*19*upload.MiB {
		t.Fatalf("store holds %d bytes and promised %d", held, promised)
	}
	t.Logf("tus flood, %d of 2000 kept: heap idle %.1f MiB, after %.1f MiB (peak growth %.1f MiB); RSS idle %.1f MiB, after %.1f MiB; store holds %.0f MiB, promised %.0f MiB",
		kept, mib(idleHeap), mib(heap), mib(int64(peak.maxGrown)), mib(idleRSS), mib(rss), mib(held), mib(promised))
	if grown := heap - idleHeap; grown > 40<<20 {
		t.Fatalf("heap grew by %.1f MiB", mib(grown))
	}
}

// TestUploadQuotaOverHTTP: past the memory limit POST /user_uploads gets
// Zulip's REALM_UPLOAD_QUOTA error and tus creation its tusd answer, 413
// with the same message; the refused files leave nothing behind.
func TestUploadQuotaOverHTTP(t *testing.T) {
	ts := RunT(t, realm.WithUploadMemoryLimit(upload.MiB))
	creds := ts.Creds("hamlet@zulip.com")
	const quotaMsg = "Upload would exceed your organization's upload quota."
	status, _, msg := tusSend(t, ts, creds, "POST", "/api/v1/tus/", map[string]string{"Upload-Length": strconv.Itoa(2 * upload.MiB)}, nil)
	if status != http.StatusRequestEntityTooLarge || msg != quotaMsg {
		t.Fatalf("tus creation over the limit: %d %q", status, msg)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("file", "big.bin")
	_, _ = part.Write(make([]byte, upload.MiB+1))
	_ = mw.Close()
	req, _ := http.NewRequest("POST", ts.URL+"/api/v1/user_uploads", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.SetBasicAuth(creds.Email, creds.APIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var answer map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&answer)
	if resp.StatusCode != 400 || answer["code"] != "REALM_UPLOAD_QUOTA" || answer["msg"] != quotaMsg {
		t.Fatalf("POST /user_uploads over the limit: %d %v", resp.StatusCode, answer)
	}
	store := ts.Realm.UploadStore().(*upload.MemoryStore)
	if held, promised := store.Used(); held != 0 || promised != 0 || store.Len() != 0 {
		t.Fatalf("refused uploads left %d bytes, %d promised, %d blobs", held, promised, store.Len())
	}
}
