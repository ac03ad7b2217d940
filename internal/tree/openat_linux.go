package tree

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"syscall"
	"unsafe"
)

// openAtDirs says verify's walk reads documents relative to their
// directory's descriptor (readDocumentAt).
const openAtDirs = true

// openNoFollowAt opens the entry name of the directory open as dirfd, as
// openNoFollow opens a path.
func openNoFollowAt(dirfd int, name string) (int, error) {
	for {
		fd, err := syscall.Openat(dirfd, name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// openNoFollowAtZ is openNoFollowAt of a name given as bytes followed by a
// NUL (nameZ ends with it), as listDirectory's names are: no copy of the
// name is made to call the kernel.
func openNoFollowAtZ(dirfd int, nameZ []byte) (int, error) {
	if len(nameZ) < 2 || nameZ[len(nameZ)-1] != 0 {
		return -1, syscall.EINVAL
	}
	for {
		fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(&nameZ[0])),
			syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0, 0, 0)
		if errno == 0 {
			return int(fd), nil
		}
		if errno != syscall.EINTR {
			return -1, errno
		}
	}
}

// openDirectory opens the directory name for listing and for openat. A
// symlink in its place is refused (ELOOP), not followed: a directory the
// listing showed as one and swapped for a link since leads nowhere else.
func openDirectory(name string) (int, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// listDirectory lists the directory open as fd with getdents64 into buf,
// calling add with each entry's name (valid during the call only, and
// followed by a NUL: name[:len(name)+1] is the kernel's C string) and its
// type as os.ReadDir reports it (lstat semantics: a symlink is a
// symlink). An entry a file system lists without its type is lstat'ed
// below path, the directory's path.
func listDirectory(fd int, path string, buf []byte, add func(name []byte, typ fs.FileMode)) error {
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n <= 0 {
			return nil
		}
		for off := 0; off < n; {
			// struct linux_dirent64: ino u64, off i64, reclen u16, type u8, name.
			reclen := int(*(*uint16)(unsafe.Pointer(&buf[off+16])))
			dt := buf[off+18]
			name := buf[off+19 : off+reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			off += reclen
			if string(name) == "." || string(name) == ".." {
				continue
			}
			var typ fs.FileMode
			switch dt {
			case syscall.DT_REG:
			case syscall.DT_DIR:
				typ = fs.ModeDir
			case syscall.DT_LNK:
				typ = fs.ModeSymlink
			case syscall.DT_FIFO:
				typ = fs.ModeNamedPipe
			case syscall.DT_SOCK:
				typ = fs.ModeSocket
			case syscall.DT_CHR:
				typ = fs.ModeDevice | fs.ModeCharDevice
			case syscall.DT_BLK:
				typ = fs.ModeDevice
			default:
				// Asked by path: the syscall package has no fstatat
				// everywhere.
				info, err := os.Lstat(path + "/" + string(name))
				if errors.Is(err, fs.ErrNotExist) {
					continue // gone since the listing, as os.ReadDir skips it
				}
				if err != nil {
					return err
				}
				typ = info.Mode().Type()
			}
			add(name, typ)
		}
	}
}
