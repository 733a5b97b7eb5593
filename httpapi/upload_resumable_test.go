package httpapi

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/upload"
)

// tusReply is one answer of the tus endpoint.
type tusReply struct {
	status int
	header http.Header
	body   map[string]any
}

// tus sends a tus request as email (empty: no credentials) with the
// protocol's version header and the given headers.
func (e *apiEnv) tus(email, method, path string, headers map[string]string, body []byte) tusReply {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, _ := http.NewRequest(method, e.srv.URL+path, rd)
	req.Header.Set("Tus-Resumable", "1.0.0")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	e.auth(req, email)
	return e.tusDo(e.srv.Client(), req)
}

func (e *apiEnv) tusDo(client *http.Client, req *http.Request) tusReply {
	e.t.Helper()
	resp, err := client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	out := tusReply{status: resp.StatusCode, header: resp.Header}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &out.body); err != nil {
			e.t.Fatalf("%s %s: body %q is not JSON", req.Method, req.URL.Path, raw)
		}
	}
	return out
}

// tusMeta encodes Upload-Metadata.
func tusMeta(kv ...string) string {
	var pairs []string
	for i := 0; i+1 < len(kv); i += 2 {
		pairs = append(pairs, kv[i]+" "+base64.StdEncoding.EncodeToString([]byte(kv[i+1])))
	}
	return strings.Join(pairs, ",")
}

// tusCreate starts an upload of length bytes and returns its Location.
func (e *apiEnv) tusCreate(email string, length int, name string) string {
	e.t.Helper()
	r := e.tus(email, "POST", "/api/v1/tus/", map[string]string{"Upload-Length": strconv.Itoa(length),
		"Upload-Metadata": tusMeta("filename", name, "filetype", "text/plain")}, nil)
	if r.status != http.StatusCreated || r.header.Get("Upload-Offset") != "0" || !strings.HasPrefix(r.header.Get("Location"), "/api/v1/tus/2/") {
		e.t.Fatalf("creation: %d %v %v", r.status, r.header, r.body)
	}
	return r.header.Get("Location")
}

func chunk(offset int) map[string]string {
	return map[string]string{"Upload-Offset": strconv.Itoa(offset), "Content-Type": "application/offset+octet-stream"}
}

func TestHTTPTusThreeChunkRoundTrip(t *testing.T) {
	e := newMsgEnv(t)
	opts := e.tus("", "OPTIONS", "/api/v1/tus", nil, nil)
	// As Zulip's tusd answers (zerver/management/commands/runtusd.py runs it
	// without -max-size; tus/tusd pkg/handler/unrouted_handler.go sets
	// Tus-Max-Size only when MaxSize > 0 and answers OPTIONS with 200).
	_, sized := opts.header["Tus-Max-Size"]
	if opts.status != 200 || opts.header.Get("Tus-Version") != "1.0.0" || opts.header.Get("Tus-Resumable") != "1.0.0" ||
		opts.header.Get("Tus-Extension") != "creation,creation-with-upload,termination" || sized {
		t.Fatalf("OPTIONS: %d %v", opts.status, opts.header)
	}
	q, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["attachment"]`}})
	data := []byte(strings.Repeat("tus-data-", 1000)) // 9000 bytes
	loc := e.tusCreate("hamlet@zulip.com", len(data), "big notes.txt")
	parts := [][]byte{data[:3000], data[3000:6000], data[6000:]}
	offset := 0
	for i, p := range parts[:2] {
		r := e.tus("hamlet@zulip.com", "PATCH", loc, chunk(offset), p)
		offset += len(p)
		if r.status != 204 || r.header.Get("Upload-Offset") != strconv.Itoa(offset) {
			t.Fatalf("chunk %d: %d %v %v", i, r.status, r.header, r.body)
		}
		h := e.tus("hamlet@zulip.com", "HEAD", loc, nil, nil)
		if h.status != 200 || h.header.Get("Upload-Offset") != strconv.Itoa(offset) || h.header.Get("Upload-Length") != "9000" ||
			h.header.Get("Cache-Control") != "no-store" {
			t.Fatalf("HEAD after chunk %d: %d %v", i, h.status, h.header)
		}
	}
	// A chunk at the wrong offset is 409 and changes nothing.
	r := e.tus("hamlet@zulip.com", "PATCH", loc, chunk(1000), parts[2])
	if r.status != 409 || r.body["message"] == nil {
		t.Fatalf("wrong offset: %d %v", r.status, r.body)
	}
	if h := e.tus("hamlet@zulip.com", "HEAD", loc, nil, nil); h.header.Get("Upload-Offset") != "6000" {
		t.Fatalf("offset after a refused chunk: %v", h.header)
	}
	// The last chunk finishes the upload: 200 with the file's URL.
	r = e.tus("hamlet@zulip.com", "PATCH", loc, chunk(offset), parts[2])
	pathID := strings.TrimPrefix(loc, "/api/v1/tus/")
	if r.status != 200 || r.body["url"] != "/user_uploads/"+mustUnescape(t, pathID) || r.body["filename"] != "big notes.txt" || len(r.body) != 2 {
		t.Fatalf("last chunk: %d %v", r.status, r.body)
	}
	pathID = mustUnescape(t, pathID)
	if !pathIDShape.MatchString(pathID) || !strings.HasSuffix(pathID, "/big-notes.txt") {
		t.Fatalf("path_id %q", pathID)
	}
	e.wantFile("hamlet@zulip.com", pathID, string(data))
	e.wantNoFile("othello@zulip.com", pathID, 403)
	if a := e.attachmentMap("hamlet@zulip.com", pathID); a["size"] != 9000.0 || a["name"] != "big notes.txt" {
		t.Fatalf("attachment %v", a)
	}
	if evs := attachmentEvents(e.events("hamlet@zulip.com", q, -1, false)); len(evs) != 1 || evs[0]["op"] != "add" {
		t.Fatalf("events %v", evs)
	}
	// A finished upload reports its whole length and cannot be terminated.
	if h := e.tus("hamlet@zulip.com", "HEAD", loc, nil, nil); h.status != 200 || h.header.Get("Upload-Offset") != "9000" {
		t.Fatalf("HEAD of a finished upload: %d %v", h.status, h.header)
	}
	if d := e.tus("hamlet@zulip.com", "DELETE", loc, nil, nil); d.status != 400 {
		t.Fatalf("terminating a finished upload: %d %v", d.status, d.body)
	}
	e.wantFile("hamlet@zulip.com", pathID, string(data))
	// Sharing it works as for any upload.
	e.sendTo("hamlet@zulip.com", "Denmark", "t", link(pathID))
	e.wantFile("othello@zulip.com", pathID, string(data))
}

func mustUnescape(t *testing.T, p string) string {
	t.Helper()
	u, err := url.PathUnescape(p)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestHTTPTusCreationWithUploadAndTermination(t *testing.T) {
	e := newMsgEnv(t)
	store := e.realm.UploadStore().(*upload.MemoryStore)
	r := e.tus("hamlet@zulip.com", "POST", "/api/v1/tus", map[string]string{"Upload-Length": "5",
		"Upload-Metadata": tusMeta("filename", "one.txt"), "Content-Type": "application/offset+octet-stream"}, []byte("hello"))
	if r.status != 200 || r.body["filename"] != "one.txt" || !strings.HasPrefix(r.header.Get("Location"), "/api/v1/tus/2/") {
		t.Fatalf("creation with upload: %d %v %v", r.status, r.header, r.body)
	}
	e.wantFile("hamlet@zulip.com", strings.TrimPrefix(r.body["url"].(string), "/user_uploads/"), "hello")
	// Part of the file with the creation request, the rest later.
	r = e.tus("hamlet@zulip.com", "POST", "/api/v1/tus/", map[string]string{"Upload-Length": "10",
		"Upload-Metadata": tusMeta("filename", "two.txt"), "Content-Type": "application/offset+octet-stream"}, []byte("abcd"))
	if r.status != 201 || r.header.Get("Upload-Offset") != "4" {
		t.Fatalf("partial creation with upload: %d %v", r.status, r.header)
	}
	loc := r.header.Get("Location")
	// Another user cannot see or touch it.
	if h := e.tus("othello@zulip.com", "HEAD", loc, nil, nil); h.status != 404 {
		t.Fatalf("othello HEAD: %d", h.status)
	}
	if p := e.tus("othello@zulip.com", "PATCH", loc, chunk(4), []byte("efghij")); p.status != 404 {
		t.Fatalf("othello PATCH: %d", p.status)
	}
	if d := e.tus("othello@zulip.com", "DELETE", loc, nil, nil); d.status != 404 {
		t.Fatalf("othello DELETE: %d", d.status)
	}
	before := store.Len()
	if d := e.tus("hamlet@zulip.com", "DELETE", loc, nil, nil); d.status != 204 {
		t.Fatalf("termination: %d %v", d.status, d.body)
	}
	if store.Len() != before-1 {
		t.Fatal("terminated upload's bytes kept")
	}
	if h := e.tus("hamlet@zulip.com", "HEAD", loc, nil, nil); h.status != 404 {
		t.Fatalf("HEAD after termination: %d", h.status)
	}
	if list, _ := e.attachments("hamlet@zulip.com"); len(list) != 1 {
		t.Fatalf("attachments %v", list)
	}
	// An empty file is finished by its creation.
	r = e.tus("hamlet@zulip.com", "POST", "/api/v1/tus", map[string]string{"Upload-Length": "0", "Upload-Metadata": tusMeta("filename", "e.txt")}, nil)
	if r.status != 200 || r.body["filename"] != "e.txt" {
		t.Fatalf("empty upload: %d %v", r.status, r.body)
	}
}

func TestHTTPTusRefusals(t *testing.T) {
	e := newAPIEnv(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), realm.WithLimits(func() realm.Limits {
		l := realm.DefaultLimits()
		l.MaxFileUploadSizeMiB = 1
		return l
	}()))
	store := e.realm.UploadStore().(*upload.MemoryStore)
	want := func(r tusReply, status int, msg string) {
		t.Helper()
		if r.status != status || (msg != "" && r.body["message"] != msg) {
			t.Fatalf("got %d %v; want %d %q", r.status, r.body, status, msg)
		}
	}
	want(e.tus("", "POST", "/api/v1/tus", map[string]string{"Upload-Length": "5"}, nil), 401, "Unauthenticated upload")
	bad := e.tus("", "POST", "/api/v1/tus", map[string]string{"Upload-Length": "5", "Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte("hamlet@zulip.com:nope"))}, nil)
	want(bad, 401, "Unauthenticated upload")
	want(e.tus("hamlet@zulip.com", "POST", "/api/v1/tus", map[string]string{"Upload-Defer-Length": "1"}, nil), 411, "SizeIsDeferred is not supported")
	want(e.tus("hamlet@zulip.com", "POST", "/api/v1/tus", map[string]string{"Upload-Length": strconv.Itoa(upload.MiB + 1)}, nil), 413,
		"Uploaded file is larger than the allowed limit of 1 MiB")
	want(e.tus("hamlet@zulip.com", "POST", "/api/v1/tus", map[string]string{"Upload-Length": "-1"}, nil), 400, "")
	want(e.tus("hamlet@zulip.com", "POST", "/api/v1/tus", map[string]string{"Upload-Length": "5", "Upload-Metadata": "filename !!!"}, nil), 400, "")
	want(e.tus("hamlet@zulip.com", "GET", "/api/v1/tus/2/a/b/c", nil, nil), 405, "")
	noVersion, _ := http.NewRequest("POST", e.srv.URL+"/api/v1/tus", nil)
	e.auth(noVersion, "hamlet@zulip.com")
	if r := e.tusDo(e.srv.Client(), noVersion); r.status != 412 || r.header.Get("Tus-Version") != "1.0.0" {
		t.Fatalf("no Tus-Resumable: %d %v", r.status, r.header)
	}
	if store.Len() != 0 {
		t.Fatalf("refused creations kept %d blobs", store.Len())
	}
	loc := e.tusCreate("hamlet@zulip.com", 10, "x.txt")
	want(e.tus("hamlet@zulip.com", "PATCH", loc, map[string]string{"Upload-Offset": "0", "Content-Type": "text/plain"}, []byte("x")), 415, "")
	want(e.tus("hamlet@zulip.com", "PATCH", loc, map[string]string{"Content-Type": "application/offset+octet-stream"}, []byte("x")), 400, "")
	want(e.tus("hamlet@zulip.com", "PATCH", "/api/v1/tus/2/0/AAAAAAAAAAAAAAAAAAAAAAAA/x.txt", chunk(0), []byte("x")), 404, "")
	want(e.tus("hamlet@zulip.com", "PATCH", "/api/v1/tus/2/../../etc/passwd", chunk(0), []byte("x")), 404, "")
	// More bytes than Upload-Length: 413, and the upload is gone.
	want(e.tus("hamlet@zulip.com", "PATCH", loc, chunk(0), []byte("0123456789X")), 413, "")
	want(e.tus("hamlet@zulip.com", "HEAD", loc, nil, nil), 404, "")
	if store.Len() != 0 {
		t.Fatalf("an oversize upload kept %d blobs", store.Len())
	}
	if list, _ := e.attachments("hamlet@zulip.com"); len(list) != 0 {
		t.Fatalf("attachments %v", list)
	}
}

func TestHTTPTusSessionCookie(t *testing.T) {
	ts := RunT(t)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	resp, err := client.PostForm(ts.URL+"/api/v1/dev_fetch_api_key", url.Values{"username": {"hamlet@zulip.com"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var csrf string
	for _, c := range resp.Cookies() {
		if c.Name == "csrftoken" {
			csrf = c.Value
		}
	}
	e := &apiEnv{t: t, realm: ts.Realm}
	post := func(token string) tusReply {
		req, _ := http.NewRequest("POST", ts.URL+"/api/v1/tus", bytes.NewReader([]byte("hi")))
		req.Header.Set("Tus-Resumable", "1.0.0")
		req.Header.Set("Upload-Length", "2")
		req.Header.Set("Content-Type", "application/offset+octet-stream")
		if token != "" {
			req.Header.Set("X-CSRFToken", token)
		}
		return e.tusDo(client, req)
	}
	if r := post(""); r.status != 403 {
		t.Fatalf("cookie without CSRF token: %d %v", r.status, r.body)
	}
	r := post(csrf)
	if r.status != 200 || r.body["filename"] != "uploaded-file" {
		t.Fatalf("cookie upload: %d %v", r.status, r.body)
	}
	// The session reads the file at the site root too.
	fr, err := client.Get(ts.URL + r.body["url"].(string))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(fr.Body)
	fr.Body.Close()
	if fr.StatusCode != 200 || string(got) != "hi" {
		t.Fatalf("reading with the session: %d %q", fr.StatusCode, got)
	}
}
