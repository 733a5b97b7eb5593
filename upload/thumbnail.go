package upload

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"
	"regexp"
	"strconv"

	"golang.org/x/image/draw"
)

// ThumbnailFormat is one size and file format thumbnails are made in,
// named as Zulip names them ("840x560.png", "840x560-anim.gif"): a
// thumbnail fits in MaxWidth × MaxHeight keeping the aspect ratio, and is
// never larger than the original.
type ThumbnailFormat struct {
	MaxWidth, MaxHeight int
	// Animated formats keep an animated image's frames; they are made
	// only for animated images.
	Animated  bool
	Extension string
}

// Name is the format's last path component in a thumbnail URL.
func (f ThumbnailFormat) Name() string {
	anim := ""
	if f.Animated {
		anim = "-anim"
	}
	return fmt.Sprintf("%dx%d%s.%s", f.MaxWidth, f.MaxHeight, anim, f.Extension)
}

// ContentType is the type a thumbnail of this format is served with.
func (f ThumbnailFormat) ContentType() string {
	switch f.Extension {
	case "png":
		return "image/png"
	case "jpg", "jpeg":
		return "image/jpeg"
	case "gif":
		return "image/gif"
	}
	return "application/octet-stream"
}

// ThumbnailFormats are the formats the server makes, in Zulip's order of
// preference: the first animated and the first still one are the
// defaults written into messages. Zulip makes WebP ("840x560.webp",
// "840x560-anim.webp"); Go has no well-kept WebP encoder (the standard
// library and golang.org/x/image only decode it), so the same sizes are
// made in the formats the standard library encodes well: animated GIF,
// PNG (keeps transparency) and JPEG (smaller for photographs).
var ThumbnailFormats = []ThumbnailFormat{
	{MaxWidth: 840, MaxHeight: 560, Animated: true, Extension: "gif"},
	{MaxWidth: 840, MaxHeight: 560, Animated: false, Extension: "png"},
	{MaxWidth: 840, MaxHeight: 560, Animated: false, Extension: "jpg"},
}

// DefaultThumbnailFormat is the format a message shows an image in: the
// first of ThumbnailFormats that is animated as the image is.
func DefaultThumbnailFormat(animated bool) ThumbnailFormat {
	for _, f := range ThumbnailFormats {
		if f.Animated == animated {
			return f
		}
	}
	return ThumbnailFormats[0]
}

var formatName = regexp.MustCompile(`^(\d{1,5})x(\d{1,5})(-anim)?\.(\w+)$`)

// ParseThumbnailFormat reads a format name ("840x560.png"); the format
// need not be one the server makes.
func ParseThumbnailFormat(name string) (ThumbnailFormat, bool) {
	m := formatName.FindStringSubmatch(name)
	if m == nil {
		return ThumbnailFormat{}, false
	}
	w, _ := strconv.Atoi(m[1])
	h, _ := strconv.Atoi(m[2])
	return ThumbnailFormat{MaxWidth: w, MaxHeight: h, Animated: m[3] != "", Extension: m[4]}, true
}

// ServedThumbnailFormat is the format served for a request of f for an
// image: f itself when the server makes it for that image, else the
// nearest one it makes (a still image has no animated formats), as Zulip
// answers clients whose list of formats is out of date: same
// animatedness first, then same file extension, then the default.
func ServedThumbnailFormat(f ThumbnailFormat, info ImageInfo) ThumbnailFormat {
	animated := f.Animated && info.Animated()
	var sameAnim []ThumbnailFormat
	for _, c := range ThumbnailFormats {
		if c.Animated && !info.Animated() {
			continue
		}
		if c == f {
			return c
		}
		if c.Animated == animated {
			sameAnim = append(sameAnim, c)
		}
	}
	for _, c := range sameAnim {
		if c.Extension == f.Extension {
			return c
		}
	}
	return DefaultThumbnailFormat(animated)
}

// Thumbnail is one made thumbnail.
type Thumbnail struct {
	Data          []byte
	ContentType   string
	Width, Height int
}

// MakeThumbnail scales an image down to fit format f, never up, and
// encodes it. The pixel limits are checked again from the header before
// anything is decoded; bytes that do not decode give ErrNotImage. An
// animated format keeps as many frames as fit in MaxAnimatedPixels, as
// Zulip's thumbnailer does; a still format takes the first frame.
func MakeThumbnail(data []byte, contentType string, f ThumbnailFormat) (Thumbnail, error) {
	info, err := ProbeImage(data, contentType)
	if err != nil {
		return Thumbnail{}, err
	}
	w, h := fit(info.Width, info.Height, f.MaxWidth, f.MaxHeight)
	if info.Animated() {
		keep := 1
		if f.Animated && f.Extension == "gif" {
			keep = animatedFrames(info)
		}
		g, err := decodeGIF(data, keep)
		if err != nil || len(g.Image) == 0 {
			return Thumbnail{}, ErrNotImage
		}
		if keep > 1 {
			return animatedGIF(g, w, h)
		}
		return encodeStill(firstFrame(g), f, w, h)
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return Thumbnail{}, ErrNotImage
	}
	return encodeStill(orient(src, info.orientation), f, w, h)
}

// fit is the size of a w×h image scaled down to fit mw×mh.
func fit(w, h, mw, mh int) (int, int) {
	if w <= mw && h <= mh {
		return w, h
	}
	s := min(float64(mw)/float64(w), float64(mh)/float64(h))
	return max(1, int(float64(w)*s+0.5)), max(1, int(float64(h)*s+0.5))
}

// scale draws src into a new w×h image.
func scale(src image.Image, w, h int) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, w, h)) // draw's fast paths write RGBA
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	return dst
}

func encodeStill(src image.Image, f ThumbnailFormat, w, h int) (Thumbnail, error) {
	img := scale(src, w, h)
	var buf bytes.Buffer
	var err error
	switch f.Extension {
	case "jpg", "jpeg":
		// JPEG has no transparency: flatten onto white.
		flat := image.NewRGBA(img.Bounds())
		draw.Draw(flat, flat.Bounds(), image.White, image.Point{}, draw.Src)
		draw.Draw(flat, flat.Bounds(), img, image.Point{}, draw.Over)
		err = jpeg.Encode(&buf, flat, &jpeg.Options{Quality: 85})
	case "gif":
		err = gif.Encode(&buf, img, nil)
	default:
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
	}
	if err != nil {
		return Thumbnail{}, ErrNotImage
	}
	return Thumbnail{Data: buf.Bytes(), ContentType: f.ContentType(), Width: w, Height: h}, nil
}

// firstFrame is a GIF's first frame on its full canvas.
func firstFrame(g *gif.GIF) image.Image {
	canvas := image.NewRGBA(gifCanvas(g))
	draw.Draw(canvas, g.Image[0].Bounds(), g.Image[0], g.Image[0].Bounds().Min, draw.Over)
	return canvas
}

func gifCanvas(g *gif.GIF) image.Rectangle {
	r := image.Rect(0, 0, g.Config.Width, g.Config.Height)
	if r.Empty() {
		r = g.Image[0].Bounds()
	}
	return r
}

// animatedGIF composes each frame on the canvas (honouring the frames'
// disposal), scales it and re-encodes the animation, keeping the frames
// that fit in MaxAnimatedPixels.
func animatedGIF(g *gif.GIF, w, h int) (Thumbnail, error) {
	frames := len(g.Image)
	pal := make(color.Palette, len(palette.Plan9))
	copy(pal, palette.Plan9)
	pal[len(pal)-1] = color.Transparent
	canvas := image.NewRGBA(gifCanvas(g))
	out := &gif.GIF{LoopCount: g.LoopCount, Config: image.Config{Width: w, Height: h, ColorModel: pal}}
	for i := range frames {
		fr := g.Image[i]
		var saved *image.RGBA
		disposal := byte(0)
		if i < len(g.Disposal) {
			disposal = g.Disposal[i]
		}
		if disposal == gif.DisposalPrevious {
			saved = image.NewRGBA(canvas.Bounds())
			copy(saved.Pix, canvas.Pix)
		}
		draw.Draw(canvas, fr.Bounds(), fr, fr.Bounds().Min, draw.Over)
		small := scale(canvas, w, h)
		p := image.NewPaletted(small.Bounds(), pal)
		draw.FloydSteinberg.Draw(p, p.Bounds(), small, image.Point{})
		out.Image = append(out.Image, p)
		delay := 0
		if i < len(g.Delay) {
			delay = g.Delay[i]
		}
		out.Delay = append(out.Delay, delay)
		out.Disposal = append(out.Disposal, gif.DisposalBackground)
		switch disposal {
		case gif.DisposalBackground:
			draw.Draw(canvas, fr.Bounds(), image.Transparent, image.Point{}, draw.Src)
		case gif.DisposalPrevious:
			canvas = saved
		}
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, out); err != nil {
		return Thumbnail{}, ErrNotImage
	}
	return Thumbnail{Data: buf.Bytes(), ContentType: "image/gif", Width: w, Height: h}, nil
}

// animatedFrames is how many frames an animated thumbnail keeps: all of
// them while they fit in MaxAnimatedPixels, else as many as fit.
func animatedFrames(info ImageInfo) int {
	per := info.Width * info.Height
	if per*info.Frames < MaxAnimatedPixels {
		return info.Frames
	}
	return max(1, MaxAnimatedPixels/per)
}

// orient applies a JPEG's EXIF orientation (2-8), so that thumbnails show
// the image as its dimensions say.
func orient(src image.Image, o int) image.Image {
	if o < 2 || o > 8 {
		return src
	}
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	dst := image.NewNRGBA(image.Rect(0, 0, dw, dh))
	for y := range h {
		for x := range w {
			var dx, dy int
			switch o {
			case 2:
				dx, dy = w-1-x, y
			case 3:
				dx, dy = w-1-x, h-1-y
			case 4:
				dx, dy = x, h-1-y
			case 5:
				dx, dy = y, x
			case 6:
				dx, dy = h-1-y, x
			case 7:
				dx, dy = h-1-y, w-1-x
			case 8:
				dx, dy = y, w-1-x
			}
			dst.Set(dx, dy, src.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	return dst
}
