// Package state is the private machine state under ~/.context-tree (or
// $CONTEXT_TREE_HOME): repository caches, snapshots, worktrees, session
// records, schedules, history and locks (S18). Directories are 0700 and
// files 0600; no path component may be a symlink, on writes (Dir,
// WriteFile) as on reads (ReadFile, ReadDir, CheckPath); files are
// replaced atomically. There is no project registry and no eviction.
package state

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/atomicfile"
	"github.com/git-context-tree/git-context-tree/internal/adapters/lock"
	"github.com/git-context-tree/git-context-tree/internal/environ"
)

// HomeVar overrides the state directory (tests, sandboxes).
const HomeVar = "CONTEXT_TREE_HOME"

// Home is the state directory.
type Home struct {
	Root string
}

// Locate returns the state directory named by $CONTEXT_TREE_HOME in env
// (relative to wd, the command's directory), else ~/.context-tree. It
// creates nothing.
func Locate(env environ.Vars, wd string) (*Home, error) {
	if dir := env.Get(HomeVar); dir != "" {
		if !filepath.IsAbs(dir) {
			if !filepath.IsAbs(wd) {
				return nil, contracts.Errorf(contracts.CodeStateInvalid, "%s=%q: relative, and no working directory to resolve it against", HomeVar, dir)
			}
			dir = filepath.Join(wd, dir)
		}
		return &Home{Root: filepath.Clean(dir)}, nil
	}
	home, err := env.HomeDir()
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeStateInvalid, "cannot find the home directory for ~/.context-tree: %v (set %s)", err, HomeVar)
	}
	return &Home{Root: filepath.Join(home, ".context-tree")}, nil
}

// Path joins parts below the state root without touching the disk. Parts
// must be single, clean path segments.
func (h *Home) Path(parts ...string) string {
	return filepath.Join(append([]string{h.Root}, parts...)...)
}

// Dir returns the state directory made of parts, creating missing
// directories 0700 and refusing any component (the root included) that is
// a symlink or not a directory.
func (h *Home) Dir(parts ...string) (string, error) {
	cur := h.Root
	if err := ensureDir(cur); err != nil {
		return "", err
	}
	for _, p := range parts {
		if p == "" || p == "." || p == ".." || strings.ContainsRune(p, filepath.Separator) {
			return "", contracts.Errorf(contracts.CodeInternal, "invalid state path segment %q", p)
		}
		cur = filepath.Join(cur, p)
		if err := ensureDir(cur); err != nil {
			return "", err
		}
	}
	return cur, nil
}

func ensureDir(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return contracts.Errorf(contracts.CodeIO, "cannot create state directory %s: %v", dir, unwrap(err))
		}
		fi, err = os.Lstat(dir)
	}
	switch {
	case err != nil:
		return contracts.Errorf(contracts.CodeIO, "cannot read state directory %s: %v", dir, unwrap(err))
	case fi.Mode()&fs.ModeSymlink != 0:
		return symlinkError(dir)
	case !fi.IsDir():
		return notDirError(dir)
	}
	return nil
}

// symlinkError is the one refusal of a symlink in the state, whether it
// is met writing (Dir, WriteFile) or reading (ReadFile, ReadDir).
func symlinkError(path string) error {
	return contracts.Errorf(contracts.CodeStateInvalid, "state path %s is a symlink; git-context-tree never follows symlinks in its state", path).
		WithDetails(map[string]any{"path": path})
}

func notDirError(path string) error {
	return contracts.Errorf(contracts.CodeStateInvalid, "state path %s is not a directory", path).WithDetails(map[string]any{"path": path})
}

// checkNoSymlink refuses a state path that exists as a symlink (a cache or
// snapshot someone replaced). A missing path is fine.
func checkNoSymlink(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return symlinkError(path)
	}
	return nil
}

// WriteFile atomically replaces the file name inside the state directory
// dir (from Dir) with data, mode 0600.
func (h *Home) WriteFile(dir, name string, data []byte) error {
	path := filepath.Join(dir, name)
	if err := checkNoSymlink(path); err != nil {
		return err
	}
	if err := atomicfile.Write(path, data, 0o600); err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", path, err)
	}
	return nil
}

// Lock takes the named lock under locks/.
func (h *Home) Lock(name, purpose string, wait time.Duration) (*lock.Lock, error) {
	return h.LockWaiting(name, purpose, lock.Wait{Max: wait})
}

// LockWaiting is Lock telling w.Waiting who holds the lock when the wait
// lasts (lock.AcquireWaiting).
func (h *Home) LockWaiting(name, purpose string, w lock.Wait) (*lock.Lock, error) {
	dir, err := h.Dir("locks")
	if err != nil {
		return nil, err
	}
	return lock.AcquireWaiting(filepath.Join(dir, name+".lock"), purpose, w)
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
