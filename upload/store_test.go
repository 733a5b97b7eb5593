package upload

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// storeContract runs the same checks on every Store.
func storeContract(t *testing.T, s Store) {
	p := NewPathID(2, "data.bin")
	data := bytes.Repeat([]byte("0123456789abcdef"), 3*chunkSize/16+7) // over three blocks
	if n, err := s.Append(p, bytes.NewReader(data[:1000])); err != nil || n != 1000 {
		t.Fatalf("Append = %d, %v", n, err)
	}
	if n, err := s.Append(p, bytes.NewReader(data[1000:])); err != nil || n != int64(len(data)-1000) {
		t.Fatalf("second Append = %d, %v", n, err)
	}
	b, err := s.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(b)
	if b.Size() != int64(len(data)) || !bytes.Equal(got, data) {
		t.Fatalf("read back %d bytes (size %d), want %d", len(got), b.Size(), len(data))
	}
	if off, err := b.Seek(chunkSize+3, io.SeekStart); err != nil || off != chunkSize+3 {
		t.Fatalf("Seek = %d, %v", off, err)
	}
	part := make([]byte, 5)
	if _, err := io.ReadFull(b, part); err != nil || !bytes.Equal(part, data[chunkSize+3:chunkSize+8]) {
		t.Fatalf("read after seek %q, %v", part, err)
	}
	b.Close()

	// A failing source keeps what came before the failure.
	q := NewPathID(2, "partial.bin")
	boom := errors.New("boom")
	n, err := s.Append(q, io.MultiReader(strings.NewReader("abc"), errReader{boom}))
	if !errors.Is(err, boom) || n != 3 {
		t.Fatalf("failing Append = %d, %v", n, err)
	}
	if b, err := s.Open(q); err != nil || b.Size() != 3 {
		t.Fatalf("partial blob: %v", err)
	} else {
		b.Close()
	}

	for _, bad := range []string{"../../etc/passwd", "2/ab/../../x", "2/ab/tok/..", "/etc/passwd"} {
		if _, err := s.Append(bad, strings.NewReader("x")); !errors.Is(err, ErrBadPathID) {
			t.Fatalf("Append(%q) = %v, want ErrBadPathID", bad, err)
		}
		if _, err := s.Open(bad); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Open(%q) = %v, want ErrNotFound", bad, err)
		}
	}
	for _, id := range []string{p, q} {
		if err := s.Delete(id); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Open(id); !errors.Is(err, ErrNotFound) {
			t.Fatalf("deleted blob opens: %v", err)
		}
	}
	if err := s.Delete(p); err != nil {
		t.Fatalf("deleting twice: %v", err)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func TestMemoryStore(t *testing.T) {
	s := NewMemoryStore()
	storeContract(t, s)
	if s.Len() != 0 {
		t.Fatalf("%d blobs left", s.Len())
	}
}

func TestDirStore(t *testing.T) {
	dir := t.TempDir()
	s, err := NewDirStore(filepath.Join(dir, "uploads"))
	if err != nil {
		t.Fatal(err)
	}
	storeContract(t, s)
	entries, _ := os.ReadDir(s.Dir())
	if len(entries) != 0 {
		t.Fatalf("directories left behind: %v", entries)
	}
	// Nothing was written outside the store's directory.
	outside, _ := os.ReadDir(dir)
	if len(outside) != 1 {
		t.Fatalf("files outside the store: %v", outside)
	}
}

func TestLimitedReader(t *testing.T) {
	for _, c := range []struct {
		size, limit int
		tooLarge    bool
	}{{10, 10, false}, {11, 10, true}, {0, 0, false}, {1, 0, true}, {100000, 99999, true}} {
		l := &LimitedReader{R: bytes.NewReader(make([]byte, c.size)), N: int64(c.limit)}
		n, err := io.Copy(io.Discard, l)
		if c.tooLarge != errors.Is(err, ErrTooLarge) || n > int64(c.limit) {
			t.Errorf("size %d limit %d: copied %d, %v", c.size, c.limit, n, err)
		}
	}
}

func TestMemoryStoreLimit(t *testing.T) {
	s := NewLimitedMemoryStore(3 * chunkSize)
	a, b := NewPathID(2, "a.bin"), NewPathID(2, "b.bin")
	if n, err := s.Append(a, bytes.NewReader(make([]byte, 2*chunkSize))); err != nil || n != 2*chunkSize {
		t.Fatalf("Append within the limit = %d, %v", n, err)
	}
	// A file that would pass the limit stops there: the bytes that came
	// before stay until the caller deletes the blob.
	n, err := s.Append(b, bytes.NewReader(make([]byte, 2*chunkSize)))
	if !errors.Is(err, ErrFull) || n != chunkSize {
		t.Fatalf("Append past the limit = %d, %v; want %d, ErrFull", n, err, chunkSize)
	}
	if held, _ := s.Used(); held != 3*chunkSize {
		t.Fatalf("held %d", held)
	}
	_ = s.Delete(b)
	_ = s.Delete(a)
	if held, promised := s.Used(); held != 0 || promised != 0 {
		t.Fatalf("after deleting everything: held %d, promised %d", held, promised)
	}

	// A reservation is kept for its blob whatever else comes.
	if err := s.Reserve(a, 2*chunkSize); err != nil {
		t.Fatal(err)
	}
	if err := s.Reserve(b, 2*chunkSize); !errors.Is(err, ErrFull) {
		t.Fatalf("Reserve past the limit: %v", err)
	}
	if _, err := s.Append(b, bytes.NewReader(make([]byte, chunkSize+1))); !errors.Is(err, ErrFull) {
		t.Fatalf("Append into reserved room: %v", err)
	}
	_ = s.Delete(b)
	for range 2 {
		if _, err := s.Append(a, bytes.NewReader(make([]byte, chunkSize))); err != nil {
			t.Fatalf("Append of reserved bytes: %v", err)
		}
	}
	if held, promised := s.Used(); held != 2*chunkSize || promised != 0 {
		t.Fatalf("reservation used up: held %d, promised %d", held, promised)
	}
	// Deleting gives back what a blob holds and what it was promised.
	_ = s.Reserve(b, chunkSize)
	_ = s.Delete(a)
	_ = s.Delete(b)
	if held, promised := s.Used(); held != 0 || promised != 0 {
		t.Fatalf("after deletes: held %d, promised %d", held, promised)
	}
}

func TestMemoryStoreSmallFilesHoldTheirSize(t *testing.T) {
	s := NewMemoryStore()
	p := NewPathID(2, "tiny.txt")
	for _, part := range []string{"a", "bc", "def"} {
		if _, err := s.Append(p, strings.NewReader(part)); err != nil {
			t.Fatal(err)
		}
		s.mu.RLock()
		last := s.blobs[p].chunks[len(s.blobs[p].chunks)-1]
		s.mu.RUnlock()
		if cap(last) != len(last) {
			t.Fatalf("a %d-byte file keeps a block of %d", len(last), cap(last))
		}
	}
	b, _ := s.Open(p)
	got, _ := io.ReadAll(b)
	if string(got) != "abcdef" {
		t.Fatalf("read back %q", got)
	}
}
