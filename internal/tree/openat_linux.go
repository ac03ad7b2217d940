package tree

import "syscall"

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

// openDirectory opens the directory name for listing and for openat.
func openDirectory(name string) (int, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
