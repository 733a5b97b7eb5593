package realm

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"
)

// Levels from Zulip's api_docs/message-formatting.md, "Changes to image
// formatting": placeholders got data-original-dimensions in 9.2 (278-279)
// and in 10.0 from 287, not at the 10.0 development levels between.
func TestPlaceholderDimensionLevels(t *testing.T) {
	for level, want := range map[int]bool{275: false, 277: false, 278: true, 279: true, 280: false, 286: false, 287: true, 420: true} {
		r, _ := newTestRealm(t, WithFeatureLevel(level, "9.2"))
		if got := r.placeholderDimensions(); got != want {
			t.Errorf("level %d: %v", level, got)
		}
	}
}

func testImage(t *testing.T, w, h int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A fixture's messages are loaded before its files: once the files are
// there, the messages linking an image are previewed as when sent.
func TestLoadedImagesArePreviewed(t *testing.T) {
	r, _ := newTestRealm(t)
	up, err := r.As(idHamlet).Upload(bg, UploadRequest{Name: "pic.png", ContentType: "image/png", Body: bytes.NewReader(testImage(t, 900, 300))})
	if err != nil {
		t.Fatal(err)
	}
	sent, err := r.As(idHamlet).SendMessage(bg, SendRequest{Type: "stream", To: toChannel("Denmark"), Topic: str("t"),
		Content: "[pic.png](/user_uploads/" + up.PathID + ")"})
	if err != nil {
		t.Fatal(err)
	}
	before, _, err := r.As(idHamlet).Message(bg, sent.ID, ViewOptions{ApplyMarkdown: true})
	want := `<img data-original-content-type="image/png" data-original-dimensions="900x300" src="/user_uploads/thumbnail/` + up.PathID + `/840x560.png">`
	if err != nil || !strings.Contains(before.Content, want) {
		t.Fatalf("sent: %s %v", before.Content, err)
	}
	doc, err := r.Dump()
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(doc)
	if err != nil {
		t.Fatal(err)
	}
	after, _, err := loaded.As(idHamlet).Message(bg, sent.ID, ViewOptions{ApplyMarkdown: true})
	if err != nil || after.Content != before.Content {
		t.Fatalf("loaded: %s %v\nwant %s", after.Content, err, before.Content)
	}
	if f, err := loaded.As(idHamlet).OpenThumbnail(bg, up.PathID, "840x560.jpg"); err != nil || f.ContentType != "image/jpeg" {
		t.Fatalf("loaded thumbnail: %v", err)
	}
}
