package main

import (
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The -upload-dir and -calls flags: files land in the directory, and the
// fake Zoom answers calls for every user.
func TestRunUploadDirAndCalls(t *testing.T) {
	dir := t.TempDir()
	base, _, _ := mainStart(t, "-upload-dir", dir, "-calls", "zoom=https://zoom.example/j/")
	req, _ := http.NewRequest("POST", base+"/api/v1/dev_fetch_api_key?username=hamlet@zulip.com", nil)
	_, login := mainGetJSON(t, req)
	key := login["api_key"].(string)

	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	fw, _ := w.CreateFormFile("filename", "notes.txt")
	_, _ = io.WriteString(fw, "on disk")
	_ = w.Close()
	req, _ = http.NewRequest("POST", base+"/api/v1/user_uploads", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.SetBasicAuth("hamlet@zulip.com", key)
	status, up := mainGetJSON(t, req)
	if status != 200 {
		t.Fatalf("upload: %d %v", status, up)
	}
	pathID := strings.TrimPrefix(up["url"].(string), "/user_uploads/")
	got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(pathID)))
	if err != nil || string(got) != "on disk" {
		t.Fatalf("file in -upload-dir: %q, %v", got, err)
	}

	req, _ = http.NewRequest("POST", base+"/api/v1/calls/zoom/create", nil)
	req.SetBasicAuth("hamlet@zulip.com", key)
	if status, call := mainGetJSON(t, req); status != 200 || !strings.HasPrefix(call["url"].(string), "https://zoom.example/j/") {
		t.Fatalf("zoom call: %d %v", status, call)
	}
}

func TestRunCallsFlagErrors(t *testing.T) {
	for _, v := range []string{"skype=https://x/", "zoom", "zoom=not a url", "zoom=/relative"} {
		if err := run(context.Background(), []string{"-calls", v}, io.Discard, func(string) { t.Errorf("%s: served", v) }); err == nil {
			t.Errorf("-calls %s: no error", v)
		}
	}
}
