package realm

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"sync"
)

// greenTickPNG is the dev realm's green_tick image: a 64×64 PNG of a
// green tick, drawn here (Zulip's dev server serves its own picture at
// the same URL; clients only need an image there).
var greenTickPNG = sync.OnceValue(func() []byte {
	const size = 64
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	green := color.NRGBA{R: 0x2e, G: 0xa0, B: 0x43, A: 0xff}
	// The tick: a short stroke down to (24,48), a long one up to (56,14).
	stroke := func(x0, y0, x1, y1 float64) {
		for i := 0; i <= 400; i++ {
			t := float64(i) / 400
			cx, cy := x0+(x1-x0)*t, y0+(y1-y0)*t
			for dy := -4; dy <= 4; dy++ {
				for dx := -4; dx <= 4; dx++ {
					if dx*dx+dy*dy <= 16 {
						img.SetNRGBA(int(cx)+dx, int(cy)+dy, green)
					}
				}
			}
		}
	}
	stroke(10, 32, 24, 48)
	stroke(24, 48, 56, 14)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err) // encoding an in-memory image cannot fail
	}
	return buf.Bytes()
})
