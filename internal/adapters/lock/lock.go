// Package lock implements the product's one kind of lock: a file created
// exclusively whose first line is the owner's decimal pid. A live owner
// means LOCK_HELD; a lock whose owner has exited is reclaimed.
package lock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Lock is a held lock file.
type Lock struct {
	path string
}

// Acquire takes the lock at path, waiting up to wait for a live owner to
// release it. purpose is recorded on the lock's second line for people
// inspecting it.
func Acquire(path, purpose string, wait time.Duration) (*Lock, error) {
	deadline := time.Now().Add(wait)
	delay := 5 * time.Millisecond
	for {
		l, owner, err := tryAcquire(path, purpose)
		if l != nil || err != nil {
			return l, err
		}
		if !time.Now().Before(deadline) {
			return nil, contracts.Errorf(contracts.CodeLockHeld, "%s is held by running process %d; try again when it has finished", path, owner).
				WithDetails(map[string]any{"lock": path, "pid": owner})
		}
		time.Sleep(delay)
		delay = min(delay*2, 100*time.Millisecond)
	}
}

// tryAcquire makes one attempt. It returns the lock, or the live owner's pid.
func tryAcquire(path, purpose string) (*Lock, int, error) {
	for range 10 {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			_, werr := fmt.Fprintf(f, "%d\n%s\n", os.Getpid(), purpose)
			cerr := f.Close()
			if werr != nil || cerr != nil {
				os.Remove(path)
				return nil, 0, contracts.Errorf(contracts.CodeIO, "cannot write lock %s: %v", path, errors.Join(werr, cerr))
			}
			return &Lock{path: path}, 0, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, 0, contracts.Errorf(contracts.CodeIO, "cannot create lock %s: %v", path, err)
		}
		owner, ok := readOwner(path)
		if !ok {
			continue // released, or being written: look again
		}
		if alive(owner) {
			return nil, owner, nil
		}
		if err := reclaim(path, owner); err != nil {
			return nil, 0, err
		}
	}
	return nil, 0, contracts.Errorf(contracts.CodeIO, "cannot take lock %s: it keeps changing", path)
}

// readOwner reads the owner pid; ok is false when the file vanished or its
// first line is not complete yet.
func readOwner(path string) (int, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	line, _, found := strings.Cut(string(data), "\n")
	pid, err := strconv.Atoi(line)
	if !found || err != nil || pid <= 0 {
		return 0, false
	}
	return pid, true
}

// alive reports whether a process exists (EPERM: it exists, owned by
// another user).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// reclaim removes a dead owner's lock. It renames the lock aside first and
// checks it still names the same owner, so two processes reclaiming at once
// cannot remove a lock a third has just taken.
func reclaim(path string, owner int) error {
	aside := fmt.Sprintf("%s.stale.%d", path, os.Getpid())
	if err := os.Rename(path, aside); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return contracts.Errorf(contracts.CodeIO, "cannot reclaim stale lock %s: %v", path, err)
	}
	if pid, ok := readOwner(aside); ok && pid != owner && alive(pid) {
		// A live owner took the lock between our read and rename: give it back.
		if err := os.Rename(aside, path); err != nil {
			return contracts.Errorf(contracts.CodeIO, "cannot restore lock %s: %v", path, err)
		}
		return nil
	}
	return os.Remove(aside)
}

// Release removes the lock.
func (l *Lock) Release() error {
	if err := os.Remove(l.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("release lock %s: %w", filepath.Base(l.path), err)
	}
	return nil
}
