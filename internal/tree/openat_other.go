//go:build !linux

package tree

import (
	"io/fs"
	"syscall"
)

// openAtDirs is off where the syscall package has no openat: documents
// are opened by path.
const openAtDirs = false

func openNoFollowAt(int, string) (int, error) { return -1, syscall.ENOSYS }

func openNoFollowAtZ(int, []byte) (int, error) { return -1, syscall.ENOSYS }

func openDirectory(string) (int, error) { return -1, syscall.ENOSYS }

func listDirectory(int, string, []byte, func([]byte, fs.FileMode)) error { return syscall.ENOSYS }
