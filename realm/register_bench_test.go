package realm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// encodeRegister encodes res.Wire() as httpapi's register and writeSuccess do (an Encoder
// that leaves HTML characters alone).
func encodeRegister(b *testing.B, buf *bytes.Buffer, res RegisterResult) {
	buf.Reset()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res.Wire()); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRegister opens a queue with every state section and encodes
// the answer, at the default level and at an older one whose answer
// leaves out the fields newer than it; the queue is deleted again so the
// realm does not grow. BenchmarkRegisterEncode is the encoding alone.
func BenchmarkRegister(b *testing.B) {
	for _, level := range []int{DefaultFeatureLevel, 300} {
		b.Run(fmt.Sprintf("level=%d", level), func(b *testing.B) {
			r, _ := newTestRealm(b, WithFeatureLevel(level, ""))
			a := r.As(idIago)
			var buf bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				res, err := a.Register(bg, RegisterRequest{})
				if err != nil {
					b.Fatal(err)
				}
				encodeRegister(b, &buf, res)
				if err := a.DeleteQueue(bg, res.QueueID); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(buf.Len()))
		})
	}
}

func BenchmarkRegisterEncode(b *testing.B) {
	for _, level := range []int{DefaultFeatureLevel, 300} {
		b.Run(fmt.Sprintf("level=%d", level), func(b *testing.B) {
			r, _ := newTestRealm(b, WithFeatureLevel(level, ""))
			res, err := r.As(idIago).Register(bg, RegisterRequest{})
			if err != nil {
				b.Fatal(err)
			}
			var buf bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				encodeRegister(b, &buf, res)
			}
			b.SetBytes(int64(buf.Len()))
		})
	}
}
