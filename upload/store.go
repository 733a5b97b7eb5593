package upload

import (
	"errors"
	"io"
	"sync"
)

// ErrNotFound is returned by a Store for a blob it does not hold.
var ErrNotFound = errors.New("upload: no such blob")

// Store keeps the bytes of uploaded files by path_id. Implementations are
// safe for concurrent use; callers serialize writes to one blob.
type Store interface {
	// Append writes r's bytes at the end of the blob pathID, creating it
	// when absent, and reports how many it wrote. On error the bytes
	// written before it are kept (a resumable upload goes on from there).
	Append(pathID string, r io.Reader) (int64, error)
	// Open returns the blob for reading.
	Open(pathID string) (Blob, error)
	// Delete removes the blob; deleting an absent blob is not an error.
	Delete(pathID string) error
}

// Blob is one stored file being read.
type Blob interface {
	io.ReadSeekCloser
	// Size is the blob's length in bytes.
	Size() int64
}

// ErrFull is returned by a MemoryStore with a limit that holding more
// bytes would pass.
var ErrFull = errors.New("upload: the store's byte limit is reached")

// A Reserver is a Store that bounds the bytes it holds and can promise a
// blob room for bytes still to come, such as the rest of a resumable
// upload of declared length, so that the upload cannot run out of room
// halfway. A MemoryStore is one; a DirStore (the disk is the bound) is
// not.
type Reserver interface {
	Store
	// Reserve promises the blob pathID, created empty when absent, n more
	// bytes: the blob's next n bytes are stored whatever else fills the
	// store meanwhile. It fails with ErrFull, promising nothing, when the
	// store cannot hold them; deleting the blob gives back what it holds
	// and what it was promised.
	Reserve(pathID string, n int64) error
}

// chunkSize is the block size of the memory store: a file grows by whole
// blocks, never by copying what it holds; once a write ends, a short last
// block is cut to its length, so that a small file holds what it is.
const chunkSize = 64 << 10

// MemoryStore is a Store in memory, the default. With a limit
// (NewLimitedMemoryStore) it holds at most that many bytes of files,
// counting what it promised through Reserve, and refuses more with
// ErrFull; deleting a blob gives its bytes back.
type MemoryStore struct {
	mu    sync.RWMutex
	blobs map[string]*memBlob
	limit int64 // 0: none
	// used is the bytes the blobs hold; reserved what they were promised
	// and have not received.
	used, reserved int64
}

// memBlob is a file as fixed-size blocks; only the last may be short.
type memBlob struct {
	chunks   [][]byte
	size     int64
	reserved int64 // promised bytes not yet written
}

// NewMemoryStore returns an empty in-memory store without a limit.
func NewMemoryStore() *MemoryStore { return &MemoryStore{blobs: map[string]*memBlob{}} }

// NewLimitedMemoryStore returns an empty in-memory store that holds at
// most limit bytes of files (no limit when limit <= 0).
func NewLimitedMemoryStore(limit int64) *MemoryStore {
	s := NewMemoryStore()
	s.limit = max(limit, 0)
	return s
}

// Limit is the most bytes the store holds; 0 means no limit.
func (s *MemoryStore) Limit() int64 { return s.limit }

// Used is how many bytes the store's files hold, and how many more it
// promised to blobs through Reserve.
func (s *MemoryStore) Used() (held, promised int64) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.used, s.reserved
}

// blob returns pathID's blob, created empty when absent. The caller
// holds the write lock.
func (s *MemoryStore) blob(pathID string) *memBlob {
	b := s.blobs[pathID]
	if b == nil {
		b = &memBlob{}
		s.blobs[pathID] = b
	}
	return b
}

// Reserve implements Reserver.
func (s *MemoryStore) Reserve(pathID string, n int64) error {
	if !ValidPathID(pathID) {
		return ErrBadPathID
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if n < 0 || s.limit > 0 && s.used+s.reserved+n > s.limit {
		return ErrFull
	}
	b := s.blob(pathID)
	b.reserved += n
	s.reserved += n
	return nil
}

// charge accounts n more bytes of b, first from what b was promised,
// and reports false, accounting nothing, when the rest would pass the
// limit. The caller holds the write lock.
func (s *MemoryStore) charge(b *memBlob, n int64) bool {
	promised := min(n, b.reserved)
	if s.limit > 0 && s.used+s.reserved+n-promised > s.limit {
		return false
	}
	b.reserved -= promised
	s.reserved -= promised
	s.used += n
	b.size += n
	return true
}

// Append implements Store. The reading happens outside the store's lock,
// into blocks of the blob's own. Bytes that would pass the store's limit
// are not kept: the append stops with ErrFull.
func (s *MemoryStore) Append(pathID string, r io.Reader) (int64, error) {
	if !ValidPathID(pathID) {
		return 0, ErrBadPathID
	}
	s.mu.Lock()
	b := s.blob(pathID)
	s.mu.Unlock()
	defer s.trim(b)
	var written int64
	for {
		// The block to fill: the last one when it is short, in a block
		// of full capacity (a cut one is copied into a new block).
		var last, chunk []byte
		s.mu.RLock()
		if n := len(b.chunks); n > 0 && len(b.chunks[n-1]) < chunkSize {
			last = b.chunks[n-1]
		}
		s.mu.RUnlock()
		switch {
		case last != nil && cap(last) == chunkSize:
			chunk = last
		default:
			chunk = append(make([]byte, 0, chunkSize), last...)
		}
		n, err := io.ReadFull(r, chunk[len(chunk):chunkSize])
		if n > 0 {
			s.mu.Lock()
			if !s.charge(b, int64(n)) {
				s.mu.Unlock()
				return written, ErrFull
			}
			if last == nil {
				b.chunks = append(b.chunks, chunk[:n])
			} else {
				b.chunks[len(b.chunks)-1] = chunk[:len(chunk)+n]
			}
			s.mu.Unlock()
			written += int64(n)
		}
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return written, nil
		case err != nil:
			return written, err
		}
	}
}

// trim cuts b's short last block to its length, so that a file holds
// what it is and not a whole block.
func (s *MemoryStore) trim(b *memBlob) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(b.chunks); n > 0 {
		if last := b.chunks[n-1]; cap(last) > len(last) {
			cut := make([]byte, len(last))
			copy(cut, last)
			b.chunks[n-1] = cut
		}
	}
}

// Open implements Store: the reader sees the blob as it is now.
func (s *MemoryStore) Open(pathID string) (Blob, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	b := s.blobs[pathID]
	if b == nil {
		return nil, ErrNotFound
	}
	chunks := make([][]byte, len(b.chunks))
	copy(chunks, b.chunks)
	return &memReader{chunks: chunks, size: b.size}, nil
}

// Delete implements Store.
func (s *MemoryStore) Delete(pathID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b := s.blobs[pathID]; b != nil {
		s.used -= b.size
		s.reserved -= b.reserved
		delete(s.blobs, pathID)
	}
	return nil
}

// Len is the number of blobs held, for tests that check nothing is left.
func (s *MemoryStore) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.blobs)
}

// memReader reads a snapshot of a memory blob's blocks.
type memReader struct {
	chunks [][]byte
	size   int64
	off    int64
}

func (m *memReader) Size() int64  { return m.size }
func (m *memReader) Close() error { return nil }

func (m *memReader) Read(p []byte) (int, error) {
	if m.off >= m.size {
		return 0, io.EOF
	}
	i, within := int(m.off/chunkSize), int(m.off%chunkSize)
	n := copy(p, m.chunks[i][within:])
	m.off += int64(n)
	return n, nil
}

func (m *memReader) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += m.off
	case io.SeekEnd:
		offset += m.size
	default:
		return 0, errors.New("upload: bad whence")
	}
	if offset < 0 {
		return 0, errors.New("upload: negative position")
	}
	m.off = offset
	return offset, nil
}
