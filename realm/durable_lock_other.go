//go:build !unix

package realm

import (
	"errors"
	"os"
)

// lockFile refuses: data directories need flock, which only Unix
// systems have here.
func lockFile(f *os.File) error {
	return errors.New("data directories are supported on Unix systems only")
}

// syncDir does nothing where directories cannot be synced.
func syncDir(dir string) error { return nil }
