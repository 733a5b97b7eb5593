package upload

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/gif"
	_ "image/jpeg" // decoder
	_ "image/png"  // decoder

	_ "golang.org/x/image/tiff" // decoder
	_ "golang.org/x/image/webp" // decoder
)

// Uploaded images, as Zulip 9.0+ records them (its ImageAttachment row):
// an upload whose declared type is an image type Zulip thumbnails and
// whose header decodes gets its dimensions and frame count; only such an
// upload gets an image preview in messages and thumbnails.

// MaxImagePixels is Zulip's IMAGE_BOMB_TOTAL_PIXELS: a still image with
// more pixels is not treated as an image at all.
const MaxImagePixels = 90_000_000

// MaxAnimatedPixels is Zulip's IMAGE_MAX_ANIMATED_PIXELS: an animated
// image whose first three frames hold more pixels is refused, and an
// animated thumbnail keeps only the frames that fit in it.
const MaxAnimatedPixels = MaxImagePixels / 3

// ErrNotImage: the bytes are not an image this package decodes, or are
// corrupt.
var ErrNotImage = errors.New("upload: could not decode image")

// ErrImageTooLarge: the image has more pixels than MaxImagePixels (or,
// animated, MaxAnimatedPixels).
var ErrImageTooLarge = errors.New("upload: image size exceeds limit")

// ImageInfo is what is known of an uploaded image once its header is
// read: its size as shown (after any EXIF rotation), its frame count and
// its declared content type.
type ImageInfo struct {
	Width, Height int
	Frames        int
	ContentType   string
	// orientation is the JPEG EXIF orientation (1-8; 0 when absent).
	orientation int
}

// Animated reports an image of more than one frame.
func (i ImageInfo) Animated() bool { return i.Frames > 1 }

// thumbnailedTypes are the declared types Zulip thumbnails
// (THUMBNAIL_ACCEPT_IMAGE_TYPES) that Go's standard library and
// golang.org/x/image decode. Zulip also takes image/avif, image/heic and
// image/svg+xml, which no well-kept Go decoder reads.
var thumbnailedTypes = map[string]bool{
	"image/gif": true, "image/jpeg": true, "image/png": true, "image/tiff": true, "image/webp": true,
}

// IsThumbnailedType reports a declared content type whose files are
// looked at as images.
func IsThumbnailedType(contentType string) bool { return thumbnailedTypes[contentType] }

// ProbeImage reads an upload's header as Zulip does before accepting it
// as an image: only declared image types it thumbnails are looked at,
// the bytes must decode as an image (of whatever real format), and the
// pixel limits hold. Nothing but the header (and a GIF's frame list) is
// decoded.
func ProbeImage(data []byte, contentType string) (ImageInfo, error) {
	if !thumbnailedTypes[contentType] {
		return ImageInfo{}, ErrNotImage
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return ImageInfo{}, ErrNotImage
	}
	info := ImageInfo{Width: cfg.Width, Height: cfg.Height, Frames: 1, ContentType: contentType}
	switch format {
	case "gif":
		n, _, ok := gifFrames(data, 0)
		if !ok {
			return ImageInfo{}, ErrNotImage
		}
		info.Frames = max(n, 1)
	case "jpeg":
		info.orientation = jpegOrientation(data)
		if info.orientation >= 5 {
			info.Width, info.Height = info.Height, info.Width
		}
	}
	if err := checkPixels(info); err != nil {
		return ImageInfo{}, err
	}
	return info, nil
}

// checkPixels applies Zulip's limits for thumbnailed uploads: a still
// image's pixels, or an animated one's first three frames'.
func checkPixels(info ImageInfo) error {
	px := int64(info.Width) * int64(info.Height)
	if info.Frames <= 1 {
		if px > MaxImagePixels {
			return ErrImageTooLarge
		}
		return nil
	}
	if px*int64(min(3, info.Frames)) > MaxAnimatedPixels {
		return ErrImageTooLarge
	}
	return nil
}

// gifFrames counts a GIF's image descriptors by walking its blocks,
// without decompressing any frame. With stop > 0 it stops after that many
// frames and also reports where the stop-th frame's data ends.
func gifFrames(b []byte, stop int) (frames, end int, ok bool) {
	if len(b) < 13 {
		return 0, 0, false
	}
	i := 13
	if b[10]&0x80 != 0 { // global color table
		i += 3 << (int(b[10]&7) + 1)
	}
	skipSubBlocks := func() bool {
		for {
			if i >= len(b) {
				return false
			}
			n := int(b[i])
			i++
			if n == 0 {
				return true
			}
			i += n
		}
	}
	for i < len(b) {
		switch b[i] {
		case 0x3B: // trailer
			return frames, i, true
		case 0x21: // extension
			i += 2
			if !skipSubBlocks() {
				return frames, len(b), frames > 0
			}
		case 0x2C: // image descriptor
			if i+10 > len(b) {
				return frames, len(b), frames > 0
			}
			flags := b[i+9]
			i += 10
			if flags&0x80 != 0 {
				i += 3 << (int(flags&7) + 1)
			}
			i++ // LZW minimum code size
			frames++
			if !skipSubBlocks() {
				return frames, len(b), true
			}
			if frames == stop {
				return frames, i, true
			}
		default:
			return frames, len(b), frames > 0
		}
	}
	return frames, len(b), frames > 0
}

// decodeGIF decodes a GIF's first n frames only: the bytes are cut after
// the n-th frame, so that the frames past it are never decompressed.
func decodeGIF(data []byte, n int) (*gif.GIF, error) {
	if _, end, ok := gifFrames(data, n); ok && end < len(data) {
		data = append(data[:end:end], 0x3B)
	}
	return gif.DecodeAll(bytes.NewReader(data))
}

// jpegOrientation reads the EXIF orientation tag (0x0112) of a JPEG's
// APP1 segment; 0 when there is none.
func jpegOrientation(b []byte) int {
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xD8 {
		return 0
	}
	i := 2
	for i+4 <= len(b) && b[i] == 0xFF {
		marker := b[i+1]
		n := int(binary.BigEndian.Uint16(b[i+2:]))
		if marker == 0xDA || n < 2 || i+2+n > len(b) { // start of scan: no more headers
			return 0
		}
		seg := b[i+4 : i+2+n]
		if marker == 0xE1 && len(seg) > 14 && string(seg[:6]) == "Exif\x00\x00" {
			return tiffOrientation(seg[6:])
		}
		i += 2 + n
	}
	return 0
}

// tiffOrientation finds the orientation tag in a TIFF header's first IFD.
func tiffOrientation(t []byte) int {
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0
	}
	off := int(bo.Uint32(t[4:8]))
	if off < 8 || off+2 > len(t) {
		return 0
	}
	count := int(bo.Uint16(t[off:]))
	for k := range count {
		e := off + 2 + 12*k
		if e+12 > len(t) {
			return 0
		}
		if bo.Uint16(t[e:]) == 0x0112 {
			if v := int(bo.Uint16(t[e+8:])); v >= 1 && v <= 8 {
				return v
			}
			return 0
		}
	}
	return 0
}
