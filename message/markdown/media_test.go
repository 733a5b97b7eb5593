package markdown

import (
	"strings"
	"testing"
)

// Shapes from Zulip's api_docs/message-formatting.md ("Images",
// "Image-loading placeholders", "Audio Players"); attributes sorted by
// name, as the renderer's serializer writes every tag.

func TestImageSyntaxPlaceholderAndThumbnail(t *testing.T) {
	const path = "2/ab/xyz/img.png"
	pending := UploadImage{Width: 1050, Height: 700, ContentType: "image/png"}
	thumbs := &Thumbnails{Image: func(p string) (UploadImage, bool) { return pending, p == path },
		Dimensions: true, PlaceholderDimensions: true, ContentType: true}
	html := New().RenderFor("> ![example image](/user_uploads/"+path+")", Context{Thumbnails: thumbs}).HTML
	want := `<img alt="example image" class="inline-image image-loading-placeholder" data-original-content-type="image/png" data-original-dimensions="1050x700" data-original-src="/user_uploads/` + path + `" src="` + placeholderSrc + `">`
	if !strings.Contains(html, "<blockquote>") || !strings.Contains(html, want) {
		t.Fatalf("placeholder: %s\nwant %s", html, want)
	}
	ready := pending
	ready.Src = "/user_uploads/thumbnail/" + path + "/840x560.webp"
	out, changed := thumbs.ReplaceUploadPlaceholder(html, path, &ready)
	want = `<img alt="example image" class="inline-image" data-original-content-type="image/png" data-original-dimensions="1050x700" data-original-src="/user_uploads/` + path + `" src="/user_uploads/thumbnail/` + path + `/840x560.webp">`
	if !changed || !strings.Contains(out, want) {
		t.Fatalf("thumbnailed: %s\nwant %s", out, want)
	}
	if gone, changed := thumbs.ReplaceUploadPlaceholder(html, path, nil); !changed || strings.Contains(gone, "<img") {
		t.Fatalf("failed thumbnail left %s", gone)
	}
	// Below feature level 437: "!" and a link, previewed.
	old := New(WithoutImageSyntax()).RenderFor("![example image](/user_uploads/"+path+")", Context{Thumbnails: thumbs}).HTML
	if strings.Contains(old, "inline-image") || !strings.HasPrefix(old, `<p>!<a href="/user_uploads/`+path+`">example image</a></p>`) {
		t.Fatalf("below 437: %s", old)
	}
}

func TestAudioPlayers(t *testing.T) {
	types := map[string]string{"1/a/file.mp3": "audio/mpeg", "1/b/file.wav": "audio/x-wav", "1/c/file.ogg": "audio/ogg"}
	ctx := Context{UploadContentType: func(p string) string { return types[p] }}
	html := New().RenderFor("![file.mp3](/user_uploads/1/a/file.mp3) ![w](/user_uploads/1/b/file.wav) ![o](/user_uploads/1/c/file.ogg)", ctx).HTML
	for _, want := range []string{
		`<audio controls preload="metadata" src="/user_uploads/1/a/file.mp3" title="file.mp3"></audio>`,
		`<audio controls preload="metadata" src="/user_uploads/1/b/file.wav" title="w"></audio>`,
		`!<a href="/user_uploads/1/c/file.ogg">o</a>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("%s\nwant %s", html, want)
		}
	}
	old := New(WithoutAudioPlayers()).RenderFor("![file.mp3](/user_uploads/1/a/file.mp3)", ctx).HTML
	if old != `<p>!<a href="/user_uploads/1/a/file.mp3">file.mp3</a></p>` {
		t.Errorf("below 405: %s", old)
	}
}
