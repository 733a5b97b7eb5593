package markdown

import "testing"

// The expected HTML is Zulip's, from zerver/tests/test_markdown_thumbnail.py
// (placeholder and thumbnail forms), api_docs/message-formatting.md (which
// attributes came at which feature level) and real messages of
// chat.zulip.org quoted in zulip-flutter's test/model/content_test.dart
// (attribute order: data-animated, data-original-content-type,
// data-original-dimensions, src).

func thumbsFor(images map[string]UploadImage) *Thumbnails {
	return &Thumbnails{Image: func(p string) (UploadImage, bool) { img, ok := images[p]; return img, ok }}
}

func TestUploadImagePreviews(t *testing.T) {
	const path = "2/ab/xyz/img.png"
	ready := UploadImage{Width: 128, Height: 128, ContentType: "image/png", Src: "/user_uploads/thumbnail/" + path + "/840x560.png"}
	pending := UploadImage{Width: 128, Height: 64, ContentType: "image/png"}
	anim := UploadImage{Width: 64, Height: 64, ContentType: "image/gif", Animated: true, Src: "/user_uploads/thumbnail/2/9f/t/a.gif/840x560-anim.gif"}
	r := New(WithRealmURL("http://zulip.testserver"))
	cases := []struct {
		name    string
		images  map[string]UploadImage
		flags   Thumbnails
		content string
		want    string
	}{
		{"thumbnailed, level 275", map[string]UploadImage{path: ready}, Thumbnails{},
			"[image](/user_uploads/" + path + ")",
			`<p><a href="/user_uploads/` + path + `">image</a></p>` + "\n" +
				`<div class="message_inline_image"><a href="/user_uploads/` + path + `" title="image"><img src="/user_uploads/thumbnail/` + path + `/840x560.png"></a></div>`},
		{"thumbnailed, level 276", map[string]UploadImage{path: ready}, Thumbnails{Dimensions: true},
			"[image](/user_uploads/" + path + ")",
			`<p><a href="/user_uploads/` + path + `">image</a></p>` + "\n" +
				`<div class="message_inline_image"><a href="/user_uploads/` + path + `" title="image"><img data-original-dimensions="128x128" src="/user_uploads/thumbnail/` + path + `/840x560.png"></a></div>`},
		{"thumbnailed, level 336", map[string]UploadImage{path: ready}, Thumbnails{Dimensions: true, PlaceholderDimensions: true, ContentType: true},
			// An absolute link to the realm's upload becomes relative
			// without its leading slash, and Zulip then takes it for an
			// image on its own site, not for an upload.
			"[image](http://zulip.testserver/user_uploads/" + path + ")",
			`<p><a href="user_uploads/` + path + `">image</a></p>` + "\n" +
				`<div class="message_inline_image"><a href="user_uploads/` + path + `" title="image"><img src="user_uploads/` + path + `"></a></div>`},
		{"animated, level 336", map[string]UploadImage{"2/9f/t/a.gif": anim}, Thumbnails{Dimensions: true, PlaceholderDimensions: true, ContentType: true},
			"[a.gif](/user_uploads/2/9f/t/a.gif)",
			`<p><a href="/user_uploads/2/9f/t/a.gif">a.gif</a></p>` + "\n" +
				`<div class="message_inline_image"><a href="/user_uploads/2/9f/t/a.gif" title="a.gif"><img data-animated="true" data-original-content-type="image/gif" data-original-dimensions="64x64" src="/user_uploads/thumbnail/2/9f/t/a.gif/840x560-anim.gif"></a></div>`},
		{"placeholder, level 276", map[string]UploadImage{path: pending}, Thumbnails{Dimensions: true},
			"[image](/user_uploads/" + path + ")",
			`<p><a href="/user_uploads/` + path + `">image</a></p>` + "\n" +
				`<div class="message_inline_image"><a href="/user_uploads/` + path + `" title="image"><img class="image-loading-placeholder" src="/static/images/loading/loader-black.svg"></a></div>`},
		{"placeholder, level 336", map[string]UploadImage{path: pending}, Thumbnails{Dimensions: true, PlaceholderDimensions: true, ContentType: true},
			"[/user_uploads/" + path + "](/user_uploads/" + path + ")",
			`<div class="message_inline_image"><a href="/user_uploads/` + path + `"><img class="image-loading-placeholder" data-original-content-type="image/png" data-original-dimensions="128x64" src="/static/images/loading/loader-black.svg"></a></div>`},
		{"an upload that is no image", nil, Thumbnails{Dimensions: true},
			"[notes.png](/user_uploads/2/ab/xyz/notes.png)",
			`<p><a href="/user_uploads/2/ab/xyz/notes.png">notes.png</a></p>`},
		{"external image", nil, Thumbnails{Dimensions: true},
			"https://example.com/cat.png",
			`<div class="message_inline_image"><a href="https://example.com/cat.png"><img src="https://example.com/cat.png"></a></div>`},
	}
	for _, c := range cases {
		th := c.flags
		th.Image = thumbsFor(c.images).Image
		got := r.RenderFor(c.content, Context{Thumbnails: &th})
		if got.HTML != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got.HTML, c.want)
		}
	}
	// Below the thumbnailing levels the older form stays.
	old := r.RenderFor("https://example.com/cat.png", Context{}).HTML
	if old != `<div class="message_inline_image"><a href="https://example.com/cat.png"><img data-src-fullsize="/thumbnail?url=https%3A%2F%2Fexample.com%2Fcat.png&amp;size=full" src="/thumbnail?url=https%3A%2F%2Fexample.com%2Fcat.png&amp;size=thumbnail"></a></div>` {
		t.Errorf("old form: %s", old)
	}
	// External images go through Camo when it is set, as Zulip's
	// InlineImageProcessor does.
	camo := New(WithCamo("https://camo.example/", "dummy"))
	got := camo.RenderFor("https://example.com/cat.png", Context{Thumbnails: thumbsFor(nil)}).HTML
	if want := `<div class="message_inline_image"><a href="https://example.com/cat.png"><img src="https://camo.example/`; len(got) < len(want) || got[:len(want)] != want {
		t.Errorf("camo: %s", got)
	}
	res := r.RenderFor("[x](/user_uploads/"+path+")", Context{Thumbnails: thumbsFor(map[string]UploadImage{path: pending})})
	if !res.HasImage || len(res.UploadPaths) != 1 {
		t.Errorf("has_image %v, uploads %v", res.HasImage, res.UploadPaths)
	}
}

func TestReplaceUploadPlaceholder(t *testing.T) {
	const a, b = "2/aa/x/a.png", "2/bb/y/b.png"
	th := &Thumbnails{Dimensions: true, PlaceholderDimensions: true}
	pending := map[string]UploadImage{a: {Width: 10, Height: 20}, b: {Width: 30, Height: 40}}
	th.Image = thumbsFor(pending).Image
	html := New().RenderFor("[first](/user_uploads/"+a+")\n[second](/user_uploads/"+b+")", Context{Thumbnails: th}).HTML
	readyB := UploadImage{Width: 30, Height: 40, Src: "/user_uploads/thumbnail/" + b + "/840x560.png"}
	got, changed := th.ReplaceUploadPlaceholder(html, b, &readyB)
	want := `<p><a href="/user_uploads/` + a + `">first</a><br>` + "\n" + `<a href="/user_uploads/` + b + `">second</a></p>` + "\n" +
		`<div class="message_inline_image"><a href="/user_uploads/` + a + `" title="first"><img class="image-loading-placeholder" data-original-dimensions="10x20" src="/static/images/loading/loader-black.svg"></a></div>` +
		`<div class="message_inline_image"><a href="/user_uploads/` + b + `" title="second"><img data-original-dimensions="30x40" src="/user_uploads/thumbnail/` + b + `/840x560.png"></a></div>`
	if !changed || got != want {
		t.Fatalf("replace b:\n got %s\nwant %s", got, want)
	}
	if again, changed := th.ReplaceUploadPlaceholder(got, b, &readyB); changed || again != got {
		t.Fatalf("second replace changed %v", changed)
	}
	removed, changed := th.ReplaceUploadPlaceholder(got, a, nil)
	wantRemoved := `<p><a href="/user_uploads/` + a + `">first</a><br>` + "\n" + `<a href="/user_uploads/` + b + `">second</a></p>` + "\n" +
		`<div class="message_inline_image"><a href="/user_uploads/` + b + `" title="second"><img data-original-dimensions="30x40" src="/user_uploads/thumbnail/` + b + `/840x560.png"></a></div>`
	if !changed || removed != wantRemoved {
		t.Fatalf("remove a:\n got %s\nwant %s", removed, wantRemoved)
	}
}
