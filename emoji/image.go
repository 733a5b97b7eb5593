package emoji

import (
	"bytes"
	"image"
	"image/gif"
	_ "image/jpeg" // custom emoji may be JPEG images
	"image/png"
)

// MaxFileSizeMiB is Zulip's default limit on a custom emoji's image
// (MAX_EMOJI_FILE_SIZE_MIB).
const MaxFileSizeMiB = 5

// maxPixels is the largest image decoded, as Pillow's decompression-bomb
// limit has it.
const maxPixels = 89_478_485

// Image is a custom emoji's image as the realm keeps it: the bytes as
// uploaded, their content type, and for an animated image a still PNG of
// its first frame.
type Image struct {
	Data        []byte
	ContentType string
	Still       []byte // nil unless animated
}

// Animated reports whether the image has more than one frame.
func (im Image) Animated() bool { return im.Still != nil }

// Why ReadImage refuses an upload, in Zulip's words.
const (
	ErrUndecodable = "Could not decode image; did you upload an image file?"
	ErrTooLarge    = "Image size exceeds limit."
)

// isWebP reports a WebP file: a RIFF container of type WEBP.
func isWebP(data []byte) bool {
	return len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP"
}

// ReadImage checks that data is an image a custom emoji may use (PNG,
// GIF, JPEG or WebP) and describes it; otherwise it gives the reason.
// Only an animated GIF's first frame is decoded, for its still image.
func ReadImage(data []byte) (im Image, refusal string) {
	if isWebP(data) {
		return Image{Data: data, ContentType: "image/webp"}, ""
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Image{}, ErrUndecodable
	}
	if cfg.Width*cfg.Height > maxPixels {
		return Image{}, ErrTooLarge
	}
	im = Image{Data: data, ContentType: "image/" + format}
	if format != "gif" {
		return im, ""
	}
	frames, ok := gifFrames(data)
	if !ok {
		return Image{}, ErrUndecodable
	}
	if frames > 1 {
		first, err := gif.Decode(bytes.NewReader(data))
		var still bytes.Buffer
		if err != nil || png.Encode(&still, first) != nil {
			return Image{}, ErrUndecodable
		}
		im.Still = still.Bytes()
	}
	return im, ""
}

// gifFrames counts the frames of a GIF by walking its blocks, decoding
// none; ok is false for a malformed file.
func gifFrames(data []byte) (n int, ok bool) {
	const headerLen, screenLen = 6, 7
	if len(data) < headerLen+screenLen {
		return 0, false
	}
	p := headerLen + screenLen
	if flags := data[headerLen+4]; flags&0x80 != 0 {
		p += 3 << (flags&7 + 1) // global color table
	}
	// skipSubBlocks passes a chain of length-prefixed blocks.
	skipSubBlocks := func() bool {
		for p < len(data) {
			size := int(data[p])
			p++
			if size == 0 {
				return true
			}
			p += size
		}
		return false
	}
	for p < len(data) {
		switch data[p] {
		case 0x3B: // trailer
			return n, n > 0
		case 0x21: // extension: label, then sub-blocks
			p += 2
			if !skipSubBlocks() {
				return 0, false
			}
		case 0x2C: // image descriptor
			if p+10 > len(data) {
				return 0, false
			}
			flags := data[p+9]
			p += 10
			if flags&0x80 != 0 {
				p += 3 << (flags&7 + 1) // local color table
			}
			p++ // LZW minimum code size
			if !skipSubBlocks() {
				return 0, false
			}
			n++
		default:
			return 0, false
		}
	}
	// A file cut short after whole frames still shows them.
	return n, n > 0
}
