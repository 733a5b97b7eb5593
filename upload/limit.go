package upload

import (
	"errors"
	"io"
)

// ErrTooLarge is returned by a LimitedReader whose source holds more than
// its limit.
var ErrTooLarge = errors.New("upload: file larger than the limit")

// MiB is a mebibyte, the unit of max_file_upload_size_mib.
const MiB = 1 << 20

// LimitedReader reads from R and fails with ErrTooLarge as soon as more
// than N bytes have come: the bytes past the limit are never passed on,
// so a too large body is refused while it streams, not after.
type LimitedReader struct {
	R io.Reader
	N int64 // bytes still allowed
}

func (l *LimitedReader) Read(p []byte) (int, error) {
	if l.N < 0 {
		return 0, ErrTooLarge
	}
	if int64(len(p)) > l.N+1 {
		p = p[:l.N+1] // one byte more than allowed tells a too large source
	}
	n, err := l.R.Read(p)
	if int64(n) > l.N {
		n = int(l.N)
		l.N = -1
		return n, ErrTooLarge
	}
	l.N -= int64(n)
	return n, err
}
