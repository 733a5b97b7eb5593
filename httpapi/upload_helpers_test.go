package httpapi

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"

	"github.com/minizulip/minizulip/upload"
)

// filePart is one part of a multipart upload body: a file when name is
// set, else a plain field.
type filePart struct {
	field, name, contentType string
	data                     []byte
}

// multipartBody writes parts as a multipart form.
func multipartBody(parts ...filePart) (*bytes.Buffer, string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		disp := `form-data; name="` + p.field + `"`
		if p.name != "" || p.contentType != "" {
			disp += `; filename="` + p.name + `"`
		}
		h.Set("Content-Disposition", disp)
		if p.contentType != "" {
			h.Set("Content-Type", p.contentType)
		}
		pw, _ := w.CreatePart(h)
		_, _ = pw.Write(p.data)
	}
	_ = w.Close()
	return &buf, w.FormDataContentType()
}

// upload posts parts to /api/v1/user_uploads as email.
func (e *apiEnv) upload(email string, parts ...filePart) (int, map[string]any) {
	e.t.Helper()
	body, ct := multipartBody(parts...)
	return e.raw(email, "POST", APIPrefix+"/user_uploads", ct, body)
}

// uploadOK uploads one file and returns its path_id.
func (e *apiEnv) uploadOK(email, name, contentType string, data []byte) string {
	e.t.Helper()
	st, body := e.upload(email, filePart{field: "file", name: name, contentType: contentType, data: data})
	e.ok(st, body)
	u, _ := body["url"].(string)
	if !strings.HasPrefix(u, "/user_uploads/") {
		e.t.Fatalf("upload answer %v", body)
	}
	return strings.TrimPrefix(u, "/user_uploads/")
}

// raw sends a body with a content type to a full path and decodes JSON.
func (e *apiEnv) raw(email, method, path, contentType string, body io.Reader) (int, map[string]any) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	e.auth(req, email)
	return e.doJSON(req)
}

// fetchFile GETs a site-root path as email and returns status, headers
// and body.
func (e *apiEnv) fetchFile(email, path string) (int, http.Header, string) {
	e.t.Helper()
	req, _ := http.NewRequest("GET", e.srv.URL+path, nil)
	e.auth(req, email)
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// wantFile asserts that email reads pathID's bytes.
func (e *apiEnv) wantFile(email, pathID, want string) {
	e.t.Helper()
	st, _, body := e.fetchFile(email, upload.URL(pathID))
	if st != http.StatusOK || body != want {
		e.t.Fatalf("%s reading %s: %d %q; want the file", email, pathID, st, body)
	}
}

// wantNoFile asserts that email gets status and Zulip's page for it.
func (e *apiEnv) wantNoFile(email, pathID string, status int) {
	e.t.Helper()
	st, h, body := e.fetchFile(email, upload.URL(pathID))
	page := map[int]string{
		http.StatusNotFound:  "<p>This file does not exist or has been deleted.</p>\n",
		http.StatusForbidden: "<p>You are not authorized to view this file.</p>\n",
	}[status]
	if st != status || body != page || !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
		e.t.Fatalf("%s reading %s: %d %q; want %d %q", email, pathID, st, body, status, page)
	}
}

// sendDM sends a direct message to the listed emails.
func (e *apiEnv) sendDM(email, to, content string) int64 {
	e.t.Helper()
	st, body := e.do(email, "POST", "/messages", url.Values{"type": {"direct"}, "to": {to}, "content": {content}})
	e.ok(st, body)
	return int64(body["id"].(float64))
}

// attachments lists email's attachments.
func (e *apiEnv) attachments(email string) ([]any, float64) {
	e.t.Helper()
	st, body := e.do(email, "GET", "/attachments", nil)
	e.ok(st, body)
	return body["attachments"].([]any), body["upload_space_used"].(float64)
}

// link is Markdown linking a file.
func link(pathID string) string { return "[file](/user_uploads/" + pathID + ")" }
