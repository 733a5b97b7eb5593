package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// readyInfo is what -ready-file holds and -banner json prints: where the
// server answers, and which process it is.
type readyInfo struct {
	URL string `json:"url"`
	PID int    `json:"pid"`
}

// readyFile is -ready-file. A temporary file beside the path is created
// at start, so that a place the server cannot write fails before anything
// is served; once the server answers, it is filled and renamed onto the
// path, so a reader never sees it half written. It is removed when the
// server stops.
type readyFile struct {
	path      string
	tmp       *os.File
	published bool
}

// prepareReadyFile removes a file an earlier run left at path (it must
// not announce this server before it is ready) and creates the temporary
// file.
func prepareReadyFile(path string) (*readyFile, error) {
	if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("-ready-file %s is a directory", path)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("-ready-file: %w", err)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		// The error names the temporary file; say what matters.
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("-ready-file %s: cannot write in %s: %w", path, dir, err)
	}
	return &readyFile{path: path, tmp: tmp}, nil
}

// publish writes doc to the temporary file and renames it onto the path.
func (f *readyFile) publish(doc []byte) error {
	_, err := f.tmp.Write(doc)
	if err == nil {
		// Readable by another user, such as the host's when the server
		// runs in a container as its own user.
		err = f.tmp.Chmod(0o644)
	}
	if cerr := f.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.tmp.Name(), f.path)
	}
	if err != nil {
		return fmt.Errorf("-ready-file: %w", err)
	}
	f.published = true
	return nil
}

// discard removes the temporary file, or the published one.
func (f *readyFile) discard() {
	f.tmp.Close()
	if f.published {
		os.Remove(f.path)
	} else {
		os.Remove(f.tmp.Name())
	}
}
