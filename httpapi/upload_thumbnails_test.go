package httpapi

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/png"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
)

// Image thumbnails as Zulip 9.0+ serves them. Sources: Zulip's
// api_docs/message-formatting.md ("Images", "Changes to image
// formatting": thumbnails at feature level 275, data-original-dimensions
// at 276, on placeholders at 278-279 and 287+, data-original-content-type
// at 336), zerver/tests/test_markdown_thumbnail.py (the HTML),
// zerver/lib/thumbnail.py and zerver/worker/thumbnail.py (limits, the
// rendering_only update), the OpenAPI's server_thumbnail_formats (new at
// 273) and zerver/views/upload.py (a thumbnail is served only to those who
// may read the file).

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func gifOf(t *testing.T, w, h, frames int) []byte {
	t.Helper()
	g := &gif.GIF{}
	for i := range frames {
		p := image.NewPaletted(image.Rect(0, 0, w, h), palette.Plan9)
		p.Set(i%w, 0, color.White)
		g.Image, g.Delay = append(g.Image, p), append(g.Delay, 5)
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// renderAs is POST /messages/render's HTML.
func (e *apiEnv) renderAs(email, content string) string {
	e.t.Helper()
	return e.ok(e.do(email, "POST", "/messages/render", url.Values{"content": {content}}))["rendered"].(string)
}

// imageAt GETs a thumbnail and decodes it.
func (e *apiEnv) imageAt(email, path string) (string, image.Config, string) {
	e.t.Helper()
	st, h, body := e.fetchFile(email, path)
	if st != http.StatusOK {
		e.t.Fatalf("GET %s: %d %s", path, st, body)
	}
	cfg, format, err := image.DecodeConfig(strings.NewReader(body))
	if err != nil {
		e.t.Fatalf("GET %s: not an image: %v", path, err)
	}
	return h.Get("Content-Type"), cfg, format
}

func TestHTTPThumbnailRenderingByLevel(t *testing.T) {
	for _, c := range []struct {
		level int
		want  func(path string) string // the preview <div>
	}{
		{274, func(p string) string {
			return `<img data-src-fullsize="/thumbnail?url=%2Fuser_uploads%2F` + strings.ReplaceAll(url.QueryEscape(p), "+", "%20") + `&amp;size=full"`
		}},
		{275, func(p string) string {
			return `<div class="message_inline_image"><a href="/user_uploads/` + p + `" title="pic.png"><img src="/user_uploads/thumbnail/` + p + `/840x560.png"></a></div>`
		}},
		{276, func(p string) string {
			return `<div class="message_inline_image"><a href="/user_uploads/` + p + `" title="pic.png"><img data-original-dimensions="1000x600" src="/user_uploads/thumbnail/` + p + `/840x560.png"></a></div>`
		}},
		{336, func(p string) string {
			return `<div class="message_inline_image"><a href="/user_uploads/` + p + `" title="pic.png"><img data-original-content-type="image/png" data-original-dimensions="1000x600" src="/user_uploads/thumbnail/` + p + `/840x560.png"></a></div>`
		}},
	} {
		e := newAPIEnv(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), realmFeatureLevel(c.level, "9.0"))
		p := e.uploadOK("hamlet@zulip.com", "pic.png", "image/png", pngOf(t, 1000, 600))
		html := e.renderAs("hamlet@zulip.com", "[pic.png](/user_uploads/"+p+")")
		if want := c.want(p); !strings.Contains(html, want) {
			t.Errorf("level %d:\n got %s\nwant %s", c.level, html, want)
		}
		st, _, _ := e.fetchFile("hamlet@zulip.com", "/user_uploads/thumbnail/"+p+"/840x560.png")
		if c.level < 275 && st != http.StatusNotFound || c.level >= 275 && st != http.StatusOK {
			t.Errorf("level %d: thumbnail answered %d", c.level, st)
		}
	}
}

func TestHTTPServerThumbnailFormats(t *testing.T) {
	old := newAPIEnv(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), realmFeatureLevel(272, "9.0"))
	if _, body := old.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["realm"]`}}); body["server_thumbnail_formats"] != nil {
		t.Fatalf("level 272 has server_thumbnail_formats: %v", body["server_thumbnail_formats"])
	}
	e := newAPIEnv(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), realmFeatureLevel(273, "9.0"))
	_, body := e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["realm"]`}})
	want := []any{
		map[string]any{"name": "840x560-anim.gif", "max_width": 840.0, "max_height": 560.0, "format": "gif", "animated": true},
		map[string]any{"name": "840x560.png", "max_width": 840.0, "max_height": 560.0, "format": "png", "animated": false},
		map[string]any{"name": "840x560.jpg", "max_width": 840.0, "max_height": 560.0, "format": "jpg", "animated": false},
	}
	if got := body["server_thumbnail_formats"]; !reflect.DeepEqual(got, want) {
		t.Fatalf("server_thumbnail_formats: %v", got)
	}
}

func TestHTTPThumbnailFormatsServed(t *testing.T) {
	e := newAPIEnv(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	still := e.uploadOK("hamlet@zulip.com", "wide.png", "image/png", pngOf(t, 1000, 600))
	small := e.uploadOK("hamlet@zulip.com", "small.png", "image/png", pngOf(t, 60, 40))
	anim := e.uploadOK("hamlet@zulip.com", "anim.gif", "image/gif", gifOf(t, 420, 140, 3))
	for _, c := range []struct {
		path, format, wantType, wantFormat string
		w, h                               int
	}{
		{still, "840x560.png", "image/png", "png", 840, 504},
		{still, "840x560.jpg", "image/jpeg", "jpeg", 840, 504},
		{still, "840x560-anim.gif", "image/png", "png", 840, 504}, // a still image has no animated thumbnail
		{still, "840x560.webp", "image/png", "png", 840, 504},     // Zulip's own name: the nearest made
		{small, "840x560.png", "image/png", "png", 60, 40},        // never scaled up
		{anim, "840x560-anim.gif", "image/gif", "gif", 420, 140},
		{anim, "840x560.png", "image/png", "png", 420, 140},
	} {
		ct, cfg, format := e.imageAt("hamlet@zulip.com", "/user_uploads/thumbnail/"+c.path+"/"+c.format)
		if ct != c.wantType || format != c.wantFormat || cfg.Width != c.w || cfg.Height != c.h {
			t.Errorf("%s of %s: %s %s %dx%d", c.format, c.path, ct, format, cfg.Width, cfg.Height)
		}
	}
	_, _, body := e.fetchFile("hamlet@zulip.com", "/user_uploads/thumbnail/"+anim+"/840x560-anim.gif")
	if g, err := gif.DecodeAll(strings.NewReader(body)); err != nil || len(g.Image) != 3 {
		t.Fatalf("animated thumbnail frames: %v", err)
	}
	html := e.renderAs("hamlet@zulip.com", "[anim.gif](/user_uploads/"+anim+")")
	if want := `<img data-animated="true" data-original-content-type="image/gif" data-original-dimensions="420x140" src="/user_uploads/thumbnail/` + anim + `/840x560-anim.gif">`; !strings.Contains(html, want) {
		t.Fatalf("animated preview: %s", html)
	}
}

func TestHTTPThumbnailAccessIsTheFilesAccess(t *testing.T) {
	e := newAPIEnv(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	p := e.uploadOK("hamlet@zulip.com", "secret.png", "image/png", pngOf(t, 30, 30))
	e.sendDM("hamlet@zulip.com", "othello@zulip.com", "[secret.png](/user_uploads/"+p+")")
	thumb := "/user_uploads/thumbnail/" + p + "/840x560.png"
	e.imageAt("othello@zulip.com", thumb)
	for _, who := range []string{"cordelia@zulip.com", ""} {
		fileSt, fileH, fileBody := e.fetchFile(who, "/user_uploads/"+p)
		st, h, body := e.fetchFile(who, thumb)
		if st == http.StatusOK || st != fileSt || body != fileBody || h.Get("Content-Type") != fileH.Get("Content-Type") {
			t.Errorf("%q: thumbnail %d %q, file %d %q", who, st, body, fileSt, fileBody)
		}
	}
	e.wantNoFile("cordelia@zulip.com", p, http.StatusForbidden)
	if st, _, body := e.fetchFile("hamlet@zulip.com", "/user_uploads/thumbnail/2/ab/nothere/x.png/840x560.png"); st != http.StatusNotFound ||
		body != "<p>This file does not exist or has been deleted.</p>\n" {
		t.Errorf("no such file: %d %q", st, body)
	}
}

func TestHTTPThumbnailBadImages(t *testing.T) {
	e := newAPIEnv(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	good := pngOf(t, 50, 50)
	// A PNG header claiming 100,000×100,000 pixels (past Zulip's
	// IMAGE_BOMB_TOTAL_PIXELS), a cut PNG, and bytes that are no image.
	huge := append([]byte{}, good[:33]...)
	copy(huge[16:], []byte{0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0})
	for name, data := range map[string][]byte{
		"huge.png": huge, "cut.png": good[:len(good)/2], "text.png": []byte("not an image"), "notes.txt": good,
	} {
		ct := "image/png"
		if strings.HasSuffix(name, ".txt") {
			ct = "text/plain"
		}
		p := e.uploadOK("hamlet@zulip.com", name, ct, data)
		html := e.renderAs("hamlet@zulip.com", "["+name+"](/user_uploads/"+p+")")
		if strings.Contains(html, "message_inline_image") {
			t.Errorf("%s previewed: %s", name, html)
		}
		for _, f := range []string{"840x560.png", "840x560-anim.gif", "garbage", "", "..", "99999999x1.png"} {
			st, _, _ := e.fetchFile("hamlet@zulip.com", "/user_uploads/thumbnail/"+p+"/"+f)
			if st != http.StatusNotFound {
				t.Errorf("%s %q: %d", name, f, st)
			}
		}
	}
	p := e.uploadOK("hamlet@zulip.com", "ok.png", "image/png", good)
	for _, f := range []string{"garbage", "840x560", "840x560.png/extra"} {
		if st, _, _ := e.fetchFile("hamlet@zulip.com", "/user_uploads/thumbnail/"+p+"/"+f); st != http.StatusNotFound {
			t.Errorf("format %q: %d", f, st)
		}
	}
}

func TestHTTPDelayedThumbnails(t *testing.T) {
	e := newAPIEnv(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), realm.WithThumbnailDelay(time.Minute))
	good := e.uploadOK("hamlet@zulip.com", "pic.png", "image/png", pngOf(t, 100, 80))
	// A header that decodes and pixels that do not: Zulip's worker then
	// removes the preview.
	full := pngOf(t, 100, 80)
	bad := e.uploadOK("hamlet@zulip.com", "bad.png", "image/png", full[:len(full)-40])
	qid, _ := e.register("othello@zulip.com", url.Values{"event_types": {`["update_message"]`}})
	content := "[pic.png](/user_uploads/" + good + ")\n[bad.png](/user_uploads/" + bad + ")"
	id := e.sendDM("hamlet@zulip.com", "othello@zulip.com", content)
	spinner := func(p, title, dims string) string {
		return `<div class="message_inline_image"><a href="/user_uploads/` + p + `" title="` + title + `"><img class="image-loading-placeholder" data-original-content-type="image/png" data-original-dimensions="` + dims + `" src="/static/images/loading/loader-black.svg"></a></div>`
	}
	head := `<p><a href="/user_uploads/` + good + `">pic.png</a><br>` + "\n" + `<a href="/user_uploads/` + bad + `">bad.png</a></p>` + "\n"
	if got := e.messageContent("othello@zulip.com", id); got != head+spinner(good, "pic.png", "100x80")+spinner(bad, "bad.png", "100x80") {
		t.Fatalf("before thumbnailing: %s", got)
	}
	e.clock.Advance(time.Minute)
	want := head + `<div class="message_inline_image"><a href="/user_uploads/` + good + `" title="pic.png"><img data-original-content-type="image/png" data-original-dimensions="100x80" src="/user_uploads/thumbnail/` + good + `/840x560.png"></a></div>`
	if got := e.messageContent("othello@zulip.com", id); got != want {
		t.Fatalf("after thumbnailing:\n got %s\nwant %s", got, want)
	}
	evs := e.eventsOfType("othello@zulip.com", qid, "update_message")
	if len(evs) != 2 {
		t.Fatalf("update_message events: %v", evs)
	}
	last := evs[1]
	if last["rendering_only"] != true || last["user_id"] != nil || last["rendered_content"] != want || last["content"] != content ||
		last["message_id"] != float64(id) || !reflect.DeepEqual(last["message_ids"], []any{float64(id)}) {
		b, _ := json.Marshal(last)
		t.Fatalf("rendering update: %s", b)
	}
	if _, has := last["user_id"]; !has {
		t.Fatal("user_id is absent, want null")
	}
}

// messageContent is GET /messages/{id}'s rendered content.
func (e *apiEnv) messageContent(email string, id int64) string {
	e.t.Helper()
	body := e.ok(e.do(email, "GET", "/messages/"+strconv.FormatInt(id, 10), nil))
	return body["message"].(map[string]any)["content"].(string)
}
