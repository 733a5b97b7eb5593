package upload

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"
	"sync"
	"sync/atomic"
	"testing"
)

// The numbers and names here are Zulip's (zerver/lib/thumbnail.py:
// IMAGE_BOMB_TOTAL_PIXELS, IMAGE_MAX_ANIMATED_PIXELS, BaseThumbnailFormat's
// "{w}x{h}[-anim].{ext}" names, scaling down only, within the box).

func testPNG(t testing.TB, w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(x), uint8(y), 100, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func testJPEG(t testing.TB, w, h int) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h)), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func testGIF(t testing.TB, w, h, frames int) []byte {
	g := &gif.GIF{}
	for i := range frames {
		p := image.NewPaletted(image.Rect(0, 0, w, h), palette.Plan9)
		for x := range w {
			p.SetColorIndex(x, i%h, uint8(i*10))
		}
		g.Image = append(g.Image, p)
		g.Delay = append(g.Delay, 10)
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngHeader is a PNG signature and an IHDR claiming w×h, nothing more.
func pngHeader(w, h uint32) []byte {
	ihdr := make([]byte, 17)
	copy(ihdr, "IHDR")
	binary.BigEndian.PutUint32(ihdr[4:], w)
	binary.BigEndian.PutUint32(ihdr[8:], h)
	ihdr[12], ihdr[13] = 8, 6 // 8-bit RGBA
	b := []byte("\x89PNG\r\n\x1a\n")
	b = binary.BigEndian.AppendUint32(b, 13)
	b = append(b, ihdr...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(ihdr))
}

// gifHeader is a GIF claiming w×h with frames image descriptors whose
// data is empty.
func gifHeader(w, h uint16, frames int) []byte {
	b := []byte("GIF89a")
	b = binary.LittleEndian.AppendUint16(b, w)
	b = binary.LittleEndian.AppendUint16(b, h)
	b = append(b, 0, 0, 0)
	for range frames {
		b = append(b, 0x2C, 0, 0, 0, 0)
		b = binary.LittleEndian.AppendUint16(b, w)
		b = binary.LittleEndian.AppendUint16(b, h)
		b = append(b, 0, 2, 1, 0, 0)
	}
	return append(b, 0x3B)
}

// withOrientation inserts an EXIF APP1 segment with the orientation tag
// after a JPEG's SOI.
func withOrientation(j []byte, o uint16) []byte {
	tiff := []byte("MM\x00\x2a\x00\x00\x00\x08")
	tiff = binary.BigEndian.AppendUint16(tiff, 1)
	tiff = binary.BigEndian.AppendUint16(tiff, 0x0112)
	tiff = binary.BigEndian.AppendUint16(tiff, 3) // SHORT
	tiff = binary.BigEndian.AppendUint32(tiff, 1)
	tiff = binary.BigEndian.AppendUint16(tiff, o)
	tiff = append(tiff, 0, 0, 0, 0, 0, 0)
	seg := append([]byte("Exif\x00\x00"), tiff...)
	app1 := []byte{0xFF, 0xE1}
	app1 = binary.BigEndian.AppendUint16(app1, uint16(len(seg)+2))
	app1 = append(app1, seg...)
	return append(append(append([]byte{}, j[:2]...), app1...), j[2:]...)
}

func TestProbeImage(t *testing.T) {
	cases := []struct {
		name, ct string
		data     []byte
		want     ImageInfo
		err      error
	}{
		{"png", "image/png", testPNG(t, 128, 64), ImageInfo{Width: 128, Height: 64, Frames: 1, ContentType: "image/png"}, nil},
		{"jpeg", "image/jpeg", testJPEG(t, 30, 20), ImageInfo{Width: 30, Height: 20, Frames: 1, ContentType: "image/jpeg"}, nil},
		{"animated gif", "image/gif", testGIF(t, 16, 8, 5), ImageInfo{Width: 16, Height: 8, Frames: 5, ContentType: "image/gif"}, nil},
		{"still gif", "image/gif", testGIF(t, 16, 8, 1), ImageInfo{Width: 16, Height: 8, Frames: 1, ContentType: "image/gif"}, nil},
		// Zulip trusts no declared type but parses only declared images.
		{"png declared as text", "text/plain", testPNG(t, 4, 4), ImageInfo{}, ErrNotImage},
		{"png declared as jpeg", "image/jpeg", testPNG(t, 4, 4), ImageInfo{Width: 4, Height: 4, Frames: 1, ContentType: "image/jpeg"}, nil},
		{"corrupt", "image/png", []byte("\x89PNG\r\n\x1a\nnot really"), ImageInfo{}, ErrNotImage},
		{"empty", "image/png", nil, ImageInfo{}, ErrNotImage},
		{"huge dimensions", "image/png", pngHeader(100000, 100000), ImageInfo{}, ErrImageTooLarge},
		{"just over the still limit", "image/png", pngHeader(9001, 10000), ImageInfo{}, ErrImageTooLarge},
		{"at the still limit", "image/png", pngHeader(9000, 10000), ImageInfo{Width: 9000, Height: 10000, Frames: 1, ContentType: "image/png"}, nil},
	}
	for _, c := range cases {
		got, err := ProbeImage(c.data, c.ct)
		got.orientation = 0
		if !errors.Is(err, c.err) || got != c.want {
			t.Errorf("%s: got %+v, %v; want %+v, %v", c.name, got, err, c.want, c.err)
		}
	}
}

func TestProbeImageAnimatedLimit(t *testing.T) {
	// A 4000×4000 animation: one frame would pass the still limit, but
	// three frames of it are past IMAGE_MAX_ANIMATED_PIXELS. The frames
	// are listed in the header walk without being decoded.
	if _, err := ProbeImage(gifHeader(4000, 4000, 3), "image/gif"); !errors.Is(err, ErrImageTooLarge) {
		t.Fatalf("3 frames of 4000x4000: %v", err)
	}
	if info, err := ProbeImage(gifHeader(3000, 3000, 3), "image/gif"); err != nil || info.Frames != 3 {
		t.Fatalf("3 frames of 3000x3000: %+v %v", info, err)
	}
	// Such a header's frames hold no pixels: thumbnailing fails cleanly.
	if _, err := MakeThumbnail(gifHeader(3000, 3000, 3), "image/gif", ThumbnailFormats[0]); err == nil {
		t.Fatal("thumbnail of empty frames")
	}
}

func TestProbeImageOrientation(t *testing.T) {
	j := testJPEG(t, 40, 10)
	for o, want := range map[uint16][2]int{1: {40, 10}, 3: {40, 10}, 6: {10, 40}, 8: {10, 40}} {
		info, err := ProbeImage(withOrientation(j, o), "image/jpeg")
		if err != nil || info.Width != want[0] || info.Height != want[1] {
			t.Errorf("orientation %d: %+v %v, want %v", o, info, err, want)
		}
		th, err := MakeThumbnail(withOrientation(j, o), "image/jpeg", ThumbnailFormats[1])
		if err != nil || th.Width != want[0] || th.Height != want[1] {
			t.Errorf("orientation %d thumbnail: %dx%d %v", o, th.Width, th.Height, err)
		}
		if img, _ := png.Decode(bytes.NewReader(th.Data)); img == nil || img.Bounds().Dx() != want[0] {
			t.Errorf("orientation %d: thumbnail bytes are not %v", o, want)
		}
	}
}

func TestThumbnailFormatNames(t *testing.T) {
	for _, f := range ThumbnailFormats {
		got, ok := ParseThumbnailFormat(f.Name())
		if !ok || got != f {
			t.Errorf("%s: parsed %+v %v", f.Name(), got, ok)
		}
	}
	if ThumbnailFormats[0].Name() != "840x560-anim.gif" || ThumbnailFormats[1].Name() != "840x560.png" {
		t.Errorf("names: %s %s", ThumbnailFormats[0].Name(), ThumbnailFormats[1].Name())
	}
	for _, bad := range []string{"", "840x560", "x560.png", "840x560.png/", "../840x560.png", "840x560-anim.", "99999999x1.png"} {
		if _, ok := ParseThumbnailFormat(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
	still := ImageInfo{Width: 10, Height: 10, Frames: 1}
	anim := ImageInfo{Width: 10, Height: 10, Frames: 3}
	for _, c := range []struct {
		req  string
		info ImageInfo
		want string
	}{
		{"840x560.png", still, "840x560.png"},
		{"840x560.jpg", still, "840x560.jpg"},
		{"840x560-anim.gif", still, "840x560.png"}, // no animated thumbnails of a still image
		{"840x560-anim.gif", anim, "840x560-anim.gif"},
		{"840x560.webp", still, "840x560.png"}, // Zulip's own name: the default
		{"840x560-anim.webp", anim, "840x560-anim.gif"},
		{"100x75.jpg", still, "840x560.jpg"},
		{"840x560.png", anim, "840x560.png"},
	} {
		f, _ := ParseThumbnailFormat(c.req)
		if got := ServedThumbnailFormat(f, c.info).Name(); got != c.want {
			t.Errorf("%s for %d frames: %s, want %s", c.req, c.info.Frames, got, c.want)
		}
	}
}

func TestMakeThumbnail(t *testing.T) {
	cases := []struct {
		name, ct string
		data     []byte
		w, h     int // thumbnail size in every still format
	}{
		{"wide png", "image/png", testPNG(t, 1000, 600), 840, 504},
		{"small png kept", "image/png", testPNG(t, 100, 50), 100, 50},
		{"tall jpeg", "image/jpeg", testJPEG(t, 150, 600), 140, 560},
		{"very wide", "image/png", testPNG(t, 2000, 10), 840, 4},
		{"gif first frame", "image/gif", testGIF(t, 1000, 100, 3), 840, 84},
	}
	for _, c := range cases {
		for _, f := range ThumbnailFormats {
			th, err := MakeThumbnail(c.data, c.ct, f)
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, f.Name(), err)
			}
			if th.ContentType != f.ContentType() {
				t.Errorf("%s %s: type %s", c.name, f.Name(), th.ContentType)
			}
			cfg, format, err := image.DecodeConfig(bytes.NewReader(th.Data))
			if err != nil || cfg.Width != c.w || cfg.Height != c.h || th.Width != c.w || th.Height != c.h {
				t.Errorf("%s %s: %dx%d (%s, %v), want %dx%d", c.name, f.Name(), cfg.Width, cfg.Height, format, err, c.w, c.h)
			}
			want := map[string]string{"png": "png", "jpg": "jpeg", "gif": "gif"}[f.Extension]
			if format != want {
				t.Errorf("%s %s: encoded as %s", c.name, f.Name(), format)
			}
		}
	}
}

func TestMakeAnimatedThumbnail(t *testing.T) {
	th, err := MakeThumbnail(testGIF(t, 900, 300, 4), "image/gif", ThumbnailFormats[0])
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(th.Data))
	if err != nil || len(g.Image) != 4 || g.Config.Width != 840 || g.Config.Height != 280 || th.ContentType != "image/gif" {
		t.Fatalf("animated thumbnail: %v frames %d %dx%d", err, len(g.Image), g.Config.Width, g.Config.Height)
	}
	// Past IMAGE_MAX_ANIMATED_PIXELS only the frames that fit are kept.
	if n := animatedFrames(ImageInfo{Width: 5000, Height: 2000, Frames: 50}); n != 3 {
		t.Errorf("frames kept of 50 5000x2000: %d", n)
	}
}

func TestMakeThumbnailBadInput(t *testing.T) {
	good := testPNG(t, 64, 64)
	truncated := good[:len(good)/2]
	for name, data := range map[string][]byte{
		"truncated png":   truncated,
		"huge header":     pngHeader(1<<30, 1<<30),
		"header only":     pngHeader(100, 100),
		"garbage":         []byte("GIF89a\x10\x00\x10\x00\x80\x00\x00garbage"),
		"truncated gif":   testGIF(t, 20, 20, 3)[:60],
		"truncated jpeg":  testJPEG(t, 64, 64)[:100],
		"bad exif offset": append([]byte{0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x10}, []byte("Exif\x00\x00MM\x00\x2a\xff\xff\xff\xff")...),
	} {
		for _, f := range ThumbnailFormats {
			if _, err := MakeThumbnail(data, "image/png", f); err == nil {
				t.Errorf("%s %s: made a thumbnail", name, f.Name())
			}
		}
	}
}

func TestThumbnailCacheBound(t *testing.T) {
	c := NewThumbnailCache(100)
	var made atomic.Int32
	get := func(path string, size int) Thumbnail {
		th, err := c.Get(path, ThumbnailFormats[1], func() (Thumbnail, error) {
			made.Add(1)
			return Thumbnail{Data: make([]byte, size)}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return th
	}
	get("a", 40)
	get("b", 40)
	get("a", 40) // a is now the most recent
	if made.Load() != 2 || c.Used() != 80 {
		t.Fatalf("made %d, used %d", made.Load(), c.Used())
	}
	get("c", 40) // evicts b
	if c.Used() != 80 {
		t.Fatalf("used %d after eviction", c.Used())
	}
	get("a", 40)
	if made.Load() != 3 {
		t.Fatalf("a was evicted: made %d", made.Load())
	}
	get("b", 40)
	if made.Load() != 4 {
		t.Fatalf("b was kept: made %d", made.Load())
	}
	get("huge", 1000) // served, never kept
	if c.Used() > c.Limit() {
		t.Fatalf("used %d over %d", c.Used(), c.Limit())
	}
	c.Forget("b")
	get("b", 40)
	if made.Load() != 6 {
		t.Fatalf("forgotten b not made again: %d", made.Load())
	}
	if _, err := c.Get("bad", ThumbnailFormats[1], func() (Thumbnail, error) { return Thumbnail{}, ErrNotImage }); err != ErrNotImage {
		t.Fatalf("error not passed: %v", err)
	}
}

func TestThumbnailCacheMakesOnce(t *testing.T) {
	c := NewThumbnailCache(0)
	var made atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			_, _ = c.Get("p", ThumbnailFormats[1], func() (Thumbnail, error) {
				made.Add(1)
				<-release
				return Thumbnail{Data: []byte("x")}, nil
			})
		})
	}
	close(release)
	wg.Wait()
	if made.Load() != 1 {
		t.Fatalf("made %d", made.Load())
	}
}
