package httpapi

import (
	"bytes"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/upload"
)

var pathIDShape = regexp.MustCompile(`^2/[0-9a-f]{1,2}/[A-Za-z0-9_-]{24}/`)

func TestHTTPUploadAnswerAndServing(t *testing.T) {
	e := newMsgEnv(t)
	st, body := e.upload("hamlet@zulip.com", filePart{field: "filename", name: "zulip%20notes.txt", contentType: "text/plain", data: []byte("hello")})
	e.ok(st, body)
	u := body["url"].(string)
	if body["uri"] != u || body["filename"] != "zulip notes.txt" || !pathIDShape.MatchString(strings.TrimPrefix(u, "/user_uploads/")) ||
		!strings.HasSuffix(u, "/zulip-notes.txt") {
		t.Fatalf("upload answer %v", body)
	}
	pathID := strings.TrimPrefix(u, "/user_uploads/")

	st, h, got := e.fetchFile("hamlet@zulip.com", u)
	if st != 200 || got != "hello" || h.Get("Content-Type") != "text/plain" ||
		h.Get("Content-Disposition") != `attachment; filename="zulip notes.txt"` || h.Get("Cache-Control") != "private, immutable" {
		t.Fatalf("serving: %d %q %v", st, got, h)
	}
	// The legacy api_key parameter is a credential too; a bad one is 401.
	_, key, _ := e.realm.APIKey("hamlet@zulip.com")
	if st, _, got := e.fetchFile("", u+"?api_key="+key); st != 200 || got != "hello" {
		t.Fatalf("api_key credential: %d %q", st, got)
	}
	if st, _, got := e.fetchFile("", u+"?api_key=0123456789abcdef0123456789abcdef"); st != 401 || !strings.Contains(got, `"code":"INVALID_API_KEY"`) {
		t.Fatalf("bad api_key: %d %q", st, got)
	}
	// Safe image types are shown inline, except through /download/.
	png := e.uploadOK("hamlet@zulip.com", "pic.png", "image/png", []byte("\x89PNG"))
	if _, h, _ := e.fetchFile("hamlet@zulip.com", upload.URL(png)); h.Get("Content-Disposition") != "inline; filename=pic.png" || h.Get("Content-Type") != "image/png" {
		t.Fatalf("png headers %v", h)
	}
	if _, h, _ := e.fetchFile("hamlet@zulip.com", "/user_uploads/download/"+png); h.Get("Content-Disposition") != "attachment; filename=pic.png" {
		t.Fatalf("download headers %v", h)
	}
	// A type not declared is guessed from the name.
	pdf := e.uploadOK("hamlet@zulip.com", "r.pdf", "", []byte("%PDF"))
	if _, h, _ := e.fetchFile("hamlet@zulip.com", upload.URL(pdf)); h.Get("Content-Type") != "application/pdf" {
		t.Fatalf("guessed type %v", h)
	}

	// Fresh files are the uploader's alone.
	e.wantNoFile("othello@zulip.com", pathID, 403)
	e.wantNoFile("", pathID, 403)
	e.wantNoFile("hamlet@zulip.com", "2/ab/AAAAAAAAAAAAAAAAAAAAAAAA/nothing.txt", 404)
	e.wantNoFile("hamlet@zulip.com", "2/ab/..%2F..%2Fetc/passwd", 404)
	st, _, got = e.fetchFile("", u)
	req, _ := http.NewRequest("GET", e.srv.URL+u, nil)
	req.SetBasicAuth("hamlet@zulip.com", "wrongwrongwrongwrongwrongwrong12")
	resp, _ := e.srv.Client().Do(req)
	resp.Body.Close()
	if resp.StatusCode != 401 || st != 403 || got == "hello" {
		t.Fatalf("bad Basic credentials: %d", resp.StatusCode)
	}
}

func TestHTTPUploadSharingByMessages(t *testing.T) {
	e := newMsgEnv(t)
	// A public channel's message opens the file to every member but guests.
	pub := e.uploadOK("hamlet@zulip.com", "pub.txt", "text/plain", []byte("pub"))
	e.sendTo("hamlet@zulip.com", "Denmark", "files", "see "+link(pub))
	e.wantFile("othello@zulip.com", pub, "pub")
	e.wantFile("cordelia@zulip.com", pub, "pub") // not subscribed: public is enough
	e.wantNoFile("polonius@zulip.com", pub, 403)
	e.wantNoFile("", pub, 403) // Denmark is not web-public

	// A direct message opens it to its recipients only.
	dm := e.uploadOK("hamlet@zulip.com", "dm.txt", "text/plain", []byte("dm"))
	e.sendDM("hamlet@zulip.com", `["polonius@zulip.com"]`, link(dm))
	e.wantFile("polonius@zulip.com", dm, "dm")
	e.wantNoFile("othello@zulip.com", dm, 403)

	// A private channel without shared history: those who received it.
	priv := e.uploadOK("hamlet@zulip.com", "priv.txt", "text/plain", []byte("priv"))
	e.sendTo("hamlet@zulip.com", "core team", "files", link(priv))
	e.wantFile("iago@zulip.com", priv, "priv")
	e.wantNoFile("othello@zulip.com", priv, 403)
	st, body := e.do("iago@zulip.com", "POST", "/users/me/subscriptions", url.Values{
		"subscriptions": {`[{"name":"core team"}]`}, "principals": {`["othello@zulip.com"]`}})
	e.success(st, body)
	e.wantNoFile("othello@zulip.com", priv, 403) // joined later, history protected

	// A private channel with shared history: anyone subscribed, even later.
	st, body = e.do("hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{
		"subscriptions": {`[{"name":"secret club"}]`}, "invite_only": {"true"}, "history_public_to_subscribers": {"true"}})
	e.success(st, body)
	shared := e.uploadOK("hamlet@zulip.com", "shared.txt", "text/plain", []byte("shared"))
	e.sendTo("hamlet@zulip.com", "secret club", "files", link(shared))
	e.wantNoFile("othello@zulip.com", shared, 403)
	st, body = e.do("hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{
		"subscriptions": {`[{"name":"secret club"}]`}, "principals": {`["othello@zulip.com"]`}})
	e.success(st, body)
	e.wantFile("othello@zulip.com", shared, "shared")

	// Linking a file one may not read claims nothing: othello's message
	// does not open hamlet's private file to Denmark.
	mine := e.uploadOK("hamlet@zulip.com", "mine.txt", "text/plain", []byte("mine"))
	e.sendTo("othello@zulip.com", "Denmark", "files", link(mine))
	e.wantNoFile("cordelia@zulip.com", mine, 403)
	list, _ := e.attachments("hamlet@zulip.com")
	for _, a := range list {
		if a := a.(map[string]any); a["path_id"] == mine && len(a["message_ids"].([]any)) != 0 {
			t.Fatalf("a link by someone who may not read the file claimed it: %v", a)
		}
	}

	// Web-public channels open files to visitors when spectators are allowed.
	e.realm.UpdateSettings(func(s *realm.Settings) { s.EnableSpectatorAccess = true })
	web := e.uploadOK("zoe@zulip.com", "web.txt", "text/plain", []byte("web"))
	e.sendTo("zoe@zulip.com", "Rome", "files", link(web))
	e.wantFile("", web, "web")
}

func TestHTTPUploadBadInput(t *testing.T) {
	e := newAPIEnv(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), realm.WithLimits(func() realm.Limits {
		l := realm.DefaultLimits()
		l.MaxFileUploadSizeMiB = 1
		return l
	}()))
	store := e.realm.UploadStore().(*upload.MemoryStore)
	nothingKept := func(what string) {
		t.Helper()
		if store.Len() != 0 {
			t.Fatalf("%s: %d blobs kept", what, store.Len())
		}
		if list, used := e.attachments("hamlet@zulip.com"); len(list) != 0 || used != 0 {
			t.Fatalf("%s: attachments %v, %v bytes", what, list, used)
		}
	}
	st, body := e.upload("hamlet@zulip.com")
	e.fail(st, body, 400, "BAD_REQUEST", "You must specify a file to upload")
	st, body = e.upload("hamlet@zulip.com", filePart{field: "note", data: []byte("just a field")})
	e.fail(st, body, 400, "BAD_REQUEST", "You must specify a file to upload")
	st, body = e.raw("hamlet@zulip.com", "POST", APIPrefix+"/user_uploads", "application/x-www-form-urlencoded", strings.NewReader("file=abc"))
	e.fail(st, body, 400, "BAD_REQUEST", "You must specify a file to upload")
	st, body = e.raw("hamlet@zulip.com", "POST", APIPrefix+"/user_uploads", "multipart/form-data; boundary=xyz", strings.NewReader("--xyz\r\ngarbage"))
	e.fail(st, body, 400, "BAD_REQUEST", "Malformed multipart body")
	st, body = e.upload("hamlet@zulip.com", filePart{field: "a", name: "a.txt", data: []byte("a")}, filePart{field: "b", name: "b.txt", data: []byte("b")})
	e.fail(st, body, 400, "BAD_REQUEST", "You may only upload one file at a time")
	nothingKept("two files")
	big := bytes.Repeat([]byte("x"), upload.MiB+1)
	st, body = e.upload("hamlet@zulip.com", filePart{field: "file", name: "big.bin", data: big})
	e.fail(st, body, 400, "BAD_REQUEST", "Uploaded file is larger than the allowed limit of 1 MiB")
	nothingKept("too large")
	st, body = e.upload("", filePart{field: "file", name: "a.txt", data: []byte("a")})
	e.fail(st, body, 401, "UNAUTHORIZED", "Not logged in: API authentication or user session required")
	nothingKept("no credentials")

	// Exactly the limit is fine; a field next to the file is dropped.
	exact := e.uploadOK("hamlet@zulip.com", "exact.bin", "", big[:upload.MiB])
	st, body = e.upload("hamlet@zulip.com", filePart{field: "x", data: []byte("1")}, filePart{field: "f", name: "x.txt", data: []byte("x")}, filePart{field: "y", data: []byte("2")})
	e.ok(st, body)
	// A name with directories keeps its last part; path traversal cannot
	// come through the name.
	st, body = e.upload("hamlet@zulip.com", filePart{field: "file", name: "../../etc/passwd", data: []byte("p")})
	e.ok(st, body)
	if u := body["url"].(string); !pathIDShape.MatchString(strings.TrimPrefix(u, "/user_uploads/")) || !strings.HasSuffix(u, "/passwd") || body["filename"] != "passwd" {
		t.Fatalf("traversal name: %v", body)
	}
	st, body = e.upload("hamlet@zulip.com", filePart{field: "file", name: "..", data: []byte("p")})
	e.ok(st, body)
	if !strings.HasSuffix(body["url"].(string), "/uploaded-file") {
		t.Fatalf("dot-dot name: %v", body)
	}
	// An empty file is a file.
	empty := e.uploadOK("hamlet@zulip.com", "empty.txt", "text/plain", nil)
	e.wantFile("hamlet@zulip.com", empty, "")
	e.wantFile("hamlet@zulip.com", exact, string(big[:upload.MiB]))
}

func TestHTTPUploadAnswerFollowsFeatureLevel(t *testing.T) {
	e := newAPIEnv(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), realmFeatureLevel(270, "9.0"))
	st, body := e.upload("hamlet@zulip.com", filePart{field: "file", name: "a.txt", data: []byte("a")})
	e.ok(st, body)
	if _, has := body["url"]; has || body["filename"] != nil || !strings.HasPrefix(body["uri"].(string), "/user_uploads/2/") {
		t.Fatalf("FL 270 answer: %v", body)
	}
}

func TestHTTPTemporaryFileURL(t *testing.T) {
	e := newMsgEnv(t)
	pathID := e.uploadOK("hamlet@zulip.com", "t.txt", "text/plain", []byte("temp"))
	st, body := e.do("hamlet@zulip.com", "GET", "/user_uploads/"+pathID, nil)
	e.ok(st, body)
	tmp := body["url"].(string)
	if !regexp.MustCompile(`^/user_uploads/temporary/[A-Za-z0-9]+/t\.txt$`).MatchString(tmp) {
		t.Fatalf("temporary url %q", tmp)
	}
	st, _, got := e.fetchFile("", tmp)
	if st != 200 || got != "temp" {
		t.Fatalf("temporary URL without credentials: %d %q", st, got)
	}
	st, body = e.do("othello@zulip.com", "GET", "/user_uploads/"+pathID, nil)
	e.fail(st, body, 403, "BAD_REQUEST", "You are not authorized to view this file.")
	st, body = e.do("hamlet@zulip.com", "GET", "/user_uploads/2/xx/nothing", nil)
	e.fail(st, body, 404, "BAD_REQUEST", "This file does not exist or has been deleted.")
	e.clock.Advance(61 * time.Second)
	if st, _, got := e.fetchFile("", tmp); st != 400 || got != "<p>Invalid token</p>\n" {
		t.Fatalf("expired temporary URL: %d %q", st, got)
	}
}
