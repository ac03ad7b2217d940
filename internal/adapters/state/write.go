package state

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Writes keep the rule reads keep (read.go): each directory is created and
// opened relative to its parent's descriptor without following a link,
// and a file is written and renamed into place inside the descriptor of
// its directory. A directory swapped for a symlink after Dir returned, by
// an agent running while the tool records its results (eval run), cannot
// send a write outside the state.

// Dir returns the state directory made of parts, creating missing
// directories 0700 and refusing any component (the root included) that is
// a symlink or not a directory.
func (h *Home) Dir(parts ...string) (string, error) {
	for _, p := range parts {
		if !segment(p) {
			return "", contracts.Errorf(contracts.CodeInternal, "invalid state path segment %q", p)
		}
	}
	if err := ensureDir(h.Root); err != nil {
		return "", err
	}
	fd, err := openAt(unix.AT_FDCWD, h.Root, h.Root, true)
	if err != nil {
		return "", err
	}
	cur := h.Root
	for _, p := range parts {
		cur = filepath.Join(cur, p)
		if err := ignoringEINTR(func() error { return unix.Mkdirat(fd, p, 0o700) }); err != nil && !errors.Is(err, fs.ErrExist) {
			unix.Close(fd)
			return "", contracts.Errorf(contracts.CodeIO, "cannot create state directory %s: %v", cur, err)
		}
		next, err := openAt(fd, p, cur, true)
		unix.Close(fd)
		if err != nil {
			return "", err
		}
		fd = next
	}
	unix.Close(fd)
	return cur, nil
}

// segment reports a single, clean path segment.
func segment(p string) bool {
	return p != "" && p != "." && p != ".." && !strings.ContainsRune(p, filepath.Separator)
}

// WriteFile atomically replaces the file name inside the state directory
// dir (from Dir, or joined below one) with data, mode 0600: a temporary
// file beside it, synced, renamed over it, the directory synced. A
// symlink at name, or anywhere from the root to dir, is refused.
func (h *Home) WriteFile(dir, name string, data []byte) error {
	path := filepath.Join(dir, name)
	if !segment(name) {
		return contracts.Errorf(contracts.CodeInternal, "invalid state file name %q", name)
	}
	d, err := h.open(dir, true)
	if errors.Is(err, fs.ErrNotExist) {
		return contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", path, unwrap(err))
	}
	if err != nil {
		return err
	}
	defer d.Close()
	dirfd := int(d.Fd())
	var st unix.Stat_t
	if unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return symlinkError(path)
	}
	if err := replaceAt(dirfd, name, data); err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", path, err)
	}
	return nil
}

// replaceAt writes data to a new temporary file in dirfd and renames it
// to name there.
func replaceAt(dirfd int, name string, data []byte) error {
	tmp := fmt.Sprintf(".%s.tmp-%016x", name, rand.Uint64())
	fd, err := unix.Openat(dirfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), tmp)
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o600) // whatever the umask
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = unix.Renameat(dirfd, tmp, dirfd, name)
	}
	if err != nil {
		unix.Unlinkat(dirfd, tmp, 0)
		return err
	}
	return unix.Fsync(dirfd)
}
