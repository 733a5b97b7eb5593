package realm

import (
	"os"
	"sync"
)

// osJournalFile is a journal file on disk. Under FsyncEverySec its
// allocated space is mapped into memory a chunk at a time where the
// system allows (durable_mmap_unix.go), so that writing a record is a
// copy; the rest, and every record under FsyncAlways, is written with
// pwrite. (A page written through the mapping is write-protected again
// by each sync, and the next record's copy then faults and waits for the
// page to reach the disk, under the realm's lock: with a sync per few
// records, mapped writes gave 3,500 appends/s to pwrite's 13,000 in a
// probe of 4 writers.)
type osJournalFile struct {
	*os.File
	mu     sync.Mutex
	size   int64    // the file's length
	chunks [][]byte // chunk k maps [k·journalChunk, (k+1)·journalChunk); nil if not mapped
	noMap  bool     // not mapped (FsyncAlways), or mapping failed once: write only
}

// openJournalFile opens the journal file at path, mapped or not, and
// returns its length.
func openJournalFile(path string, mapped bool) (*osJournalFile, int64, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return &osJournalFile{File: f, size: fi.Size(), noMap: !mapped}, fi.Size(), nil
}

// Allocate makes the file size bytes long by writing zeros: the file
// system gives the space at once (a full disk refuses the write), and a
// later write into it, mapped or not, changes the file's data alone, so
// that a sync need not commit its size or blocks again.
func (f *osJournalFile) Allocate(size int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if size <= f.size {
		return nil
	}
	if _, err := f.File.WriteAt(make([]byte, size-f.size), f.size); err != nil {
		return err
	}
	f.size = size
	return nil
}

// Truncate cuts or extends the file.
func (f *osJournalFile) Truncate(size int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.unmap()
	if err := f.File.Truncate(size); err != nil {
		return err
	}
	f.size = size
	return nil
}

// WriteAt copies p into the mapped chunks at off, or writes what lies
// outside them.
func (f *osJournalFile) WriteAt(p []byte, off int64) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for len(p) > 0 {
		k := off / journalChunk
		in := off - k*journalChunk
		m := f.chunk(k)
		if m == nil {
			w, err := f.File.WriteAt(p, off)
			return n + w, err
		}
		c := copy(m[in:], p)
		n, off, p = n+c, off+int64(c), p[c:]
	}
	return n, nil
}

// chunk is chunk k's mapping, mapping it if the file holds it whole;
// nil where it cannot be mapped.
func (f *osJournalFile) chunk(k int64) []byte {
	if f.noMap || (k+1)*journalChunk > f.size {
		return nil
	}
	for int64(len(f.chunks)) <= k {
		f.chunks = append(f.chunks, nil)
	}
	if f.chunks[k] == nil {
		m, err := mapChunk(f.File, k*journalChunk, journalChunk)
		if err != nil {
			f.noMap = true
			return nil
		}
		f.chunks[k] = m
	}
	return f.chunks[k]
}

// unmap lets the mapped chunks go.
func (f *osJournalFile) unmap() {
	for _, m := range f.chunks {
		if m != nil {
			unmapChunk(m)
		}
	}
	f.chunks = nil
}

// DataSync makes what is written, mapped or not, durable.
func (f *osJournalFile) DataSync() error { return datasync(f.File) }

// Close unmaps and closes the file.
func (f *osJournalFile) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.unmap()
	return f.File.Close()
}
