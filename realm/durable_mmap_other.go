//go:build !unix

package realm

import (
	"errors"
	"os"
)

// mapChunk cannot map here: the journal is written with pwrite.
func mapChunk(f *os.File, off int64, n int) ([]byte, error) {
	return nil, errors.New("no memory mapping")
}

func unmapChunk(m []byte) {}
