package tree

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// OpenRoot checks that dir can be a tree root and returns its absolute real
// path. The directory itself must not be a symlink (S8, S17); symlinks among
// its ancestors are resolved, as for any path the OS gives us.
func OpenRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", contracts.Errorf(contracts.CodeIO, "cannot resolve %s: %v", dir, err)
	}
	fi, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", contracts.Errorf(contracts.CodeTreeNotFound, "%s does not exist", dir).WithDetails(map[string]any{"path": abs})
	case err != nil:
		return "", contracts.Errorf(contracts.CodeIO, "cannot read %s: %v", dir, unwrapPathError(err))
	case fi.Mode()&fs.ModeSymlink != 0:
		return "", contracts.Errorf(contracts.CodeRootSymlink, "%s is a symlink; a tree root must be a real directory", dir).WithDetails(map[string]any{"path": abs})
	case !fi.IsDir():
		return "", contracts.Errorf(contracts.CodeNotATree, "%s is not a directory", dir).WithDetails(map[string]any{"path": abs})
	}
	parent, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", contracts.Errorf(contracts.CodeIO, "cannot resolve %s: %v", dir, unwrapPathError(err))
	}
	return filepath.Join(parent, filepath.Base(abs)), nil
}

// IsTreeRoot reports whether dir holds a NODE.md entry of any type; whether
// it is a valid root NODE.md is verification's business.
func IsTreeRoot(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, NodeFile))
	return err == nil
}

// unwrapPathError drops the *fs.PathError wrapper, whose path the caller
// already names.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
