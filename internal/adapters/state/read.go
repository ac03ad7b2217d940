package state

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Reads of the state keep the rule its writes keep (Dir, WriteFile): no
// component from the state root down to the path read, both included, may
// be a symlink (S18), so no file outside the state decides what the tool
// does. Each component is opened relative to its parent's descriptor
// without following links, so a link swapped in after a check is refused
// too. Paths are those Path makes or ones joined to what Dir returned.

// ReadFile reads the regular file at path below the state root. A missing
// file, or directory on the way to it, gives an error that is
// fs.ErrNotExist (errors.Is), as os.ReadFile's is; any other error is a
// *contracts.Error.
func (h *Home) ReadFile(path string) ([]byte, error) {
	f, err := h.open(path, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot read %s: %v", path, unwrap(err))
	}
	return data, nil
}

// ReadDir lists the directory at path below the state root, sorted by
// name as os.ReadDir lists, under ReadFile's rule and errors.
func (h *Home) ReadDir(path string) ([]fs.DirEntry, error) {
	f, err := h.open(path, true)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot list %s: %v", path, unwrap(err))
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// CheckPath refuses path below the state root when it, or a directory on
// the way to it, is a symlink: for what uses a state path other than by
// reading it here (removing it, say). A missing path is fine.
func (h *Home) CheckPath(path string) error {
	dirfd, name, err := h.openParent(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer unix.Close(dirfd)
	if name == "" {
		return nil // the root, opened without following a link
	}
	var st unix.Stat_t
	err = ignoringEINTR(func() error { return unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) })
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return contracts.Errorf(contracts.CodeIO, "cannot read state path %s: %v", path, err)
	case st.Mode&unix.S_IFMT == unix.S_IFLNK:
		return symlinkError(path)
	}
	return nil
}

// open opens path, a directory (dir) or a regular file, below the root.
func (h *Home) open(path string, dir bool) (*os.File, error) {
	fd, name, err := h.openParent(path)
	if err != nil {
		return nil, err
	}
	if name != "" {
		parent := fd
		fd, err = openAt(parent, name, path, dir)
		unix.Close(parent)
		if err != nil {
			return nil, err
		}
	}
	if err := checkKind(fd, path, dir); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// openParent opens the directories from the root down to the parent of
// path's last component, and returns that parent and the last component's
// name; for the root itself, the root and "".
func (h *Home) openParent(path string) (int, string, error) {
	parts, err := h.segments(path)
	if err != nil {
		return -1, "", err
	}
	fd, err := openAt(unix.AT_FDCWD, h.Root, h.Root, true)
	if err != nil {
		return -1, "", err
	}
	if len(parts) == 0 {
		return fd, "", nil
	}
	cur := h.Root
	for _, p := range parts[:len(parts)-1] {
		cur = filepath.Join(cur, p)
		next, err := openAt(fd, p, cur, true)
		unix.Close(fd)
		if err != nil {
			return -1, "", err
		}
		fd = next
	}
	return fd, parts[len(parts)-1], nil
}

// segments are the components of path below the state root (none for the
// root). A path elsewhere is the caller's mistake.
func (h *Home) segments(path string) ([]string, error) {
	rel, err := filepath.Rel(h.Root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, contracts.Errorf(contracts.CodeInternal, "%s is not below the state directory %s", path, h.Root)
	}
	if rel == "." {
		return nil, nil
	}
	return strings.Split(rel, string(filepath.Separator)), nil
}

// openAt opens name in the directory dirfd without following a symlink;
// path is its full name, for errors. O_NONBLOCK: a named pipe put in the
// state must not hang the open (checkKind then refuses it).
func openAt(dirfd int, name, path string, dir bool) (int, error) {
	flags := unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC
	if dir {
		flags |= unix.O_DIRECTORY
	}
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Openat(dirfd, name, flags, 0)
		return err
	})
	switch {
	case err == nil:
		return fd, nil
	case errors.Is(err, fs.ErrNotExist):
		return -1, &fs.PathError{Op: "open", Path: path, Err: err}
	case err == unix.ELOOP:
		return -1, symlinkError(path)
	case err == unix.ENOTDIR:
		// O_DIRECTORY met a file, or (on some systems) a symlink.
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return -1, symlinkError(path)
		}
		return -1, notDirError(path)
	}
	return -1, contracts.Errorf(contracts.CodeIO, "cannot open state path %s: %v", path, err)
}

// checkKind refuses what open reached when it is not what was asked for
// (a directory, else a regular file), and makes reads of it blocking again.
func checkKind(fd int, path string, dir bool) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot read state path %s: %v", path, err)
	}
	switch kind := st.Mode & unix.S_IFMT; {
	case dir && kind != unix.S_IFDIR:
		return notDirError(path)
	case !dir && kind != unix.S_IFREG:
		return contracts.Errorf(contracts.CodeStateInvalid, "state path %s is not a regular file", path).WithDetails(map[string]any{"path": path})
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot read state path %s: %v", path, err)
	}
	return nil
}

func ignoringEINTR(call func() error) error {
	for {
		if err := call(); err != unix.EINTR {
			return err
		}
	}
}
