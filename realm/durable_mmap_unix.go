//go:build unix

package realm

import (
	"os"
	"syscall"
)

// mapChunk maps n bytes of f at off, shared: what is copied into them is
// in the kernel's page cache at once, as a write's bytes are.
func mapChunk(f *os.File, off int64, n int) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), off, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
}

// unmapChunk undoes mapChunk.
func unmapChunk(m []byte) { _ = syscall.Munmap(m) }
