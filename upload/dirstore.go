package upload

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// DirStore is a Store keeping each blob as a file below a directory, at
// its path_id.
type DirStore struct {
	root string
}

// NewDirStore returns a store below dir, creating dir when needed.
func NewDirStore(dir string) (*DirStore, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	return &DirStore{root: abs}, nil
}

// Dir is the store's directory.
func (s *DirStore) Dir() string { return s.root }

// file is where pathID lives; ValidPathID keeps it below the root.
func (s *DirStore) file(pathID string) (string, error) {
	if !ValidPathID(pathID) {
		return "", ErrBadPathID
	}
	return filepath.Join(s.root, filepath.FromSlash(pathID)), nil
}

// Append implements Store.
func (s *DirStore) Append(pathID string, r io.Reader) (int64, error) {
	name, err := s.file(pathID)
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return 0, err
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return 0, err
	}
	n, err := copyInBlocks(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// copyBlockSize is how much a DirStore writes at once: sources such as a
// multipart part return a few KiB per read, and one write per read would
// cost a system call each.
const copyBlockSize = 256 << 10

var copyBlocks = sync.Pool{New: func() any { b := make([]byte, copyBlockSize); return &b }}

// copyInBlocks copies r to w in blocks of copyBlockSize, with a buffer
// shared between uploads.
func copyInBlocks(w io.Writer, r io.Reader) (int64, error) {
	bp := copyBlocks.Get().(*[]byte)
	defer copyBlocks.Put(bp)
	buf := *bp
	var total int64
	for {
		n, err := io.ReadFull(r, buf)
		if n > 0 {
			m, werr := w.Write(buf[:n])
			total += int64(m)
			if werr != nil {
				return total, werr
			}
		}
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return total, nil
		case err != nil:
			return total, err
		}
	}
}

// Open implements Store.
func (s *DirStore) Open(pathID string) (Blob, error) {
	name, err := s.file(pathID)
	if err != nil {
		return nil, ErrNotFound
	}
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, ErrNotFound
	}
	return &fileBlob{File: f, size: st.Size()}, nil
}

// Delete implements Store, and removes the directories the blob leaves
// empty.
func (s *DirStore) Delete(pathID string) error {
	name, err := s.file(pathID)
	if err != nil {
		return nil
	}
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for dir := filepath.Dir(name); dir != s.root && strings.HasPrefix(dir, s.root); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil { // not empty: others still live there
			break
		}
	}
	return nil
}

// fileBlob is a stored file open for reading.
type fileBlob struct {
	*os.File
	size int64
}

func (b *fileBlob) Size() int64 { return b.size }
