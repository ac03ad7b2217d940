package skills

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/git-context-tree/git-context-tree/contracts"
)

var errNotDir = syscall.ENOTDIR

// checkPath refuses a location whose path below its anchor has a symlink
// or a non-directory: skills are never written through a symlink. A
// missing segment is fine (install creates it); exists reports whether the
// skills directory itself exists.
func checkPath(loc Location) (exists bool, err error) {
	p := loc.Anchor
	for _, seg := range loc.Rel {
		p = filepath.Join(p, seg)
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return false, nil
		case err != nil:
			return false, ioErr("inspect", p, err)
		case fi.Mode()&fs.ModeSymlink != 0:
			return false, contracts.Errorf(contracts.CodeSkillsPathUnsafe,
				"%s is a symlink; git-context-tree never writes skills through a symlink (nothing was changed; replace it with a directory or use --host to skip %s)", p, loc.Name).
				WithDetails(map[string]any{"path": p, "host": loc.Name})
		case !fi.IsDir():
			return false, contracts.Errorf(contracts.CodeSkillsPathUnsafe,
				"%s is not a directory (nothing was changed; remove it or use --host to skip %s)", p, loc.Name).
				WithDetails(map[string]any{"path": p, "host": loc.Name})
		}
	}
	return true, nil
}

// makeDirs creates the missing directories of loc's path, mode 0755.
func makeDirs(loc Location) error {
	p := loc.Anchor
	for _, seg := range loc.Rel {
		p = filepath.Join(p, seg)
		if err := os.Mkdir(p, 0o755); err != nil {
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			return ioErr("create", p, err)
		}
		if err := os.Chmod(p, 0o755); err != nil {
			return ioErr("create", p, err)
		}
	}
	// Someone may have raced a symlink in; check again before writing.
	_, err := checkPath(loc)
	return err
}

// ioErr is an IO_ERROR naming the operation and path.
func ioErr(op, path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	return contracts.Errorf(contracts.CodeIO, "cannot %s %s: %v", op, path, err).WithDetails(map[string]any{"path": path})
}
