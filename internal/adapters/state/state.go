// Package state is the private machine state under ~/.context-tree (or
// $CONTEXT_TREE_HOME): repository caches, snapshots, worktrees, session
// records, schedules, history and locks (S18). Directories are 0700 and
// files 0600; no path component may be a symlink, on writes (Dir,
// WriteFile) as on reads (ReadFile, ReadDir, CheckPath), each reached from
// the root one component at a time without following a link; files are
// replaced atomically. There is no project registry and no eviction.
package state

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
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
