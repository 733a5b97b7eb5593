//go:build unix

package realm

import (
	"os"
	"syscall"
)

// lockFile takes f's exclusive lock without waiting; the lock goes with
// the process, so a crash leaves no stale lock behind.
func lockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// syncDir syncs a directory, so that a rename in it is on disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
