package realm

import (
	"os"
	"syscall"
)

// datasync makes f's data durable without its times (fdatasync).
func datasync(f *os.File) error {
	for {
		err := syscall.Fdatasync(int(f.Fd()))
		if err != syscall.EINTR {
			return err
		}
	}
}
