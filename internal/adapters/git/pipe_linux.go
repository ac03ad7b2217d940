package git

import (
	"io"
	"os"
	"syscall"
)

// pipeSize is what enlargePipe asks for: as much as an unprivileged
// process may have by default (/proc/sys/fs/pipe-max-size), so a reader
// that falls behind finds many objects waiting in one read.
const pipeSize = 1 << 20

// enlargePipe grows a pipe's buffer from 64 KiB (F_SETPIPE_SZ); failing
// only costs reads.
func enlargePipe(r io.Reader) {
	f, ok := r.(*os.File)
	if !ok {
		return
	}
	if c, err := f.SyscallConn(); err == nil {
		c.Control(func(fd uintptr) {
			const setPipeSize = 1031 // F_SETPIPE_SZ
			syscall.Syscall(syscall.SYS_FCNTL, fd, setPipeSize, pipeSize)
		})
	}
}
