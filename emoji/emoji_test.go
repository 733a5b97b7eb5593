package emoji

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"testing"
)

func TestUnicodeLookupsUseTheRenderersTable(t *testing.T) {
	if code, ok := UnicodeCode("thumbs_up"); !ok || code != "1f44d" {
		t.Fatalf("alias thumbs_up: %q %v", code, ok)
	}
	if code, ok := UnicodeCode("+1"); !ok || code != "1f44d" {
		t.Fatalf("+1: %q %v", code, ok)
	}
	if _, ok := UnicodeCode("no_such_emoji"); ok {
		t.Fatal("unknown name found")
	}
	if !IsUnicodeCode("1f44d") || IsUnicodeCode("1f44d-1f44d") || IsUnicodeCode("zulip") || IsUnicodeCode("") {
		t.Fatal("IsUnicodeCode accepts only the table's codes")
	}
	// A code the table spells with fe0f is valid only spelled so.
	if !IsUnicodeCode("1f3cb-fe0f-200d-2640-fe0f") || IsUnicodeCode("1f3cb-200d-2640") {
		t.Fatal("codes with variation selectors must match exactly")
	}
}

func TestCanonicalTypeReadsTheLegacySpelling(t *testing.T) {
	for in, want := range map[string]string{LegacyServiceExtra: ServiceExtra, ServiceExtra: ServiceExtra,
		Unicode: Unicode, Realm: Realm, "other": "other"} {
		if got := CanonicalType(in); got != want {
			t.Errorf("CanonicalType(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCustomNames(t *testing.T) {
	if got := NormalizeCustomName("  party parrot "); got != "party_parrot" {
		t.Fatalf("normalized %q", got)
	}
	for name, want := range map[string]string{
		"green_tick": "", "a-1": "", "9": "",
		"":      "Emoji name is missing",
		"tick_": "Emoji names must end with either a letter or digit.",
		"tick-": "Emoji names must end with either a letter or digit.",
		"Tick":  "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.",
		"a.b":   "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.",
		"é":     "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.",
	} {
		if got := CheckCustomName(name); got != want {
			t.Errorf("CheckCustomName(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestReadImage(t *testing.T) {
	frame := image.NewPaletted(image.Rect(0, 0, 2, 2), color.Palette{color.Black, color.White})
	var still, anim, pngData bytes.Buffer
	_ = gif.EncodeAll(&still, &gif.GIF{Image: []*image.Paletted{frame}, Delay: []int{0}})
	_ = gif.EncodeAll(&anim, &gif.GIF{Image: []*image.Paletted{frame, frame}, Delay: []int{1, 1}})
	_ = png.Encode(&pngData, frame)

	if im, why := ReadImage(pngData.Bytes()); why != "" || im.ContentType != "image/png" || im.Animated() {
		t.Fatalf("png: %+v %q", im, why)
	}
	if im, why := ReadImage(still.Bytes()); why != "" || im.ContentType != "image/gif" || im.Animated() {
		t.Fatalf("one-frame gif: %q", why)
	}
	im, why := ReadImage(anim.Bytes())
	if why != "" || !im.Animated() {
		t.Fatalf("animated gif: %q", why)
	}
	if first, err := png.Decode(bytes.NewReader(im.Still)); err != nil || first.Bounds().Dx() != 2 {
		t.Fatalf("still frame: %v", err)
	}
	if im, why := ReadImage([]byte("RIFF\x00\x00\x00\x00WEBPVP8 ")); why != "" || im.ContentType != "image/webp" {
		t.Fatal("webp refused")
	}
	for name, data := range map[string][]byte{"text": []byte("not an image"), "empty": nil,
		"truncated gif": anim.Bytes()[:20], "gif with a bad block": append(append([]byte{}, still.Bytes()[:len(still.Bytes())-1]...), 0x99)} {
		if _, why := ReadImage(data); why != ErrUndecodable {
			t.Errorf("%s: %q", name, why)
		}
	}
	// A huge canvas is refused before anything is decoded.
	bomb := append([]byte{}, anim.Bytes()...)
	copy(bomb[6:10], []byte{0xff, 0xff, 0xff, 0xff}) // logical screen: 65535 x 65535
	if _, why := ReadImage(bomb); why != ErrTooLarge {
		t.Fatalf("decompression bomb: %q", why)
	}
}
