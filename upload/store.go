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

// chunkSize is the block size of the memory store: a file grows by whole
// blocks, never by copying what it holds.
const chunkSize = 64 << 10

// MemoryStore is a Store in memory, the default.
type MemoryStore struct {
	mu    sync.RWMutex
	blobs map[string]*memBlob
}

// memBlob is a file as fixed-size blocks; only the last may be short.
type memBlob struct {
	chunks [][]byte
	size   int64
}

// NewMemoryStore returns an empty in-memory store.
func NewMemoryStore() *MemoryStore { return &MemoryStore{blobs: map[string]*memBlob{}} }

// Append implements Store. The reading happens outside the store's lock,
// into blocks of the blob's own.
func (s *MemoryStore) Append(pathID string, r io.Reader) (int64, error) {
	if !ValidPathID(pathID) {
		return 0, ErrBadPathID
	}
	s.mu.Lock()
	b := s.blobs[pathID]
	if b == nil {
		b = &memBlob{}
		s.blobs[pathID] = b
	}
	s.mu.Unlock()
	var written int64
	for {
		var chunk []byte
		s.mu.RLock()
		if n := len(b.chunks); n > 0 && len(b.chunks[n-1]) < chunkSize {
			chunk = b.chunks[n-1]
		}
		s.mu.RUnlock()
		fresh := chunk == nil
		if fresh {
			chunk = make([]byte, 0, chunkSize)
		}
		n, err := io.ReadFull(r, chunk[len(chunk):chunkSize])
		if n > 0 {
			s.mu.Lock()
			if fresh {
				b.chunks = append(b.chunks, chunk[:n])
			} else {
				b.chunks[len(b.chunks)-1] = chunk[:len(chunk)+n]
			}
			b.size += int64(n)
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
	delete(s.blobs, pathID)
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
