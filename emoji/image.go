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

// ErrUndecodable is the reason an upload is not an image.
const ErrUndecodable = "Could not decode image; did you upload an image file?"

// isWebP reports a WebP file: a RIFF container of type WEBP.
func isWebP(data []byte) bool {
	return len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP"
}

// ReadImage checks that data is an image a custom emoji may use (PNG,
// GIF, JPEG or WebP) and describes it; ok is false for anything else.
func ReadImage(data []byte) (im Image, ok bool) {
	if isWebP(data) {
		return Image{Data: data, ContentType: "image/webp"}, true
	}
	_, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Image{}, false
	}
	im = Image{Data: data, ContentType: "image/" + format}
	if format != "gif" {
		return im, true
	}
	all, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil || len(all.Image) == 0 {
		return Image{}, false
	}
	if len(all.Image) > 1 {
		var still bytes.Buffer
		if png.Encode(&still, all.Image[0]) != nil {
			return Image{}, false
		}
		im.Still = still.Bytes()
	}
	return im, true
}
