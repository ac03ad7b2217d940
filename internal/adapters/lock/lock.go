// Package lock implements the product's one kind of lock: a file created
// exclusively whose first line is the owner's decimal pid. A live owner
// means LOCK_HELD; a lock whose owner has exited is reclaimed.
package lock

import (
	"errors"
	"fmt"
	"io"
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
	return AcquireWaiting(path, purpose, Wait{Max: wait})
}

// Wait is how long AcquireWaiting waits for a live holder, and whom it
// tells that it is waiting.
type Wait struct {
	Max time.Duration
	// Waiting, when set, is called once, when a live process has held the
	// lock for NoticeAfter of the wait (never when Max is shorter).
	Waiting func(Holder)
}

// Holder is the live process a lock waits for: its pid and the purpose
// its lock file records ("" when none).
type Holder struct {
	Path    string
	PID     int
	Purpose string
}

// NoticeAfter is how long a wait goes on in silence before Wait.Waiting
// is told: long enough that an uncontended or briefly held lock says
// nothing, short enough that nobody wonders why a command hangs.
const NoticeAfter = 500 * time.Millisecond

// AcquireWaiting is Acquire telling w.Waiting, once, who holds the lock
// when the wait lasts.
func AcquireWaiting(path, purpose string, w Wait) (*Lock, error) {
	start := time.Now()
	deadline := start.Add(w.Max)
	delay := time.Millisecond
	told := w.Waiting == nil
	for reclaims := 0; ; {
		l, owner, reclaimed, err := tryAcquire(path, purpose)
		if l != nil || err != nil {
			return l, err
		}
		if reclaimed && reclaims < 100 {
			reclaims++
			continue
		}
		if !time.Now().Before(deadline) {
			return nil, contracts.Errorf(contracts.CodeLockHeld, "%s is held by running process %d; try again when it has finished", path, owner).
				WithDetails(map[string]any{"lock": path, "pid": owner})
		}
		if !told && owner > 0 && time.Since(start) >= NoticeAfter {
			told = true
			w.Waiting(Holder{Path: path, PID: owner, Purpose: readPurpose(path)})
		}
		time.Sleep(delay)
		delay = min(delay*2, 50*time.Millisecond)
	}
}

// readPurpose is the second line of a lock file ("" when it has none).
func readPurpose(path string) string {
	data, err := readLockFile(path)
	if err != nil {
		return ""
	}
	lines := strings.SplitN(string(data), "\n", 3)
	if len(lines) < 2 {
		return ""
	}
	return strings.TrimSpace(lines[1])
}

// incompleteGrace is how long a lock file may lack its owner line (it is
// being written) before it counts as abandoned by a crashed creator.
const incompleteGrace = 2 * time.Second

// tryAcquire makes one attempt. Without a lock or an error, either a stale
// lock was just reclaimed (try again at once) or someone else holds it:
// owner is their pid (0 while their lock is being written).
func tryAcquire(path, purpose string) (_ *Lock, owner int, reclaimed bool, _ error) {
	err := createExclusive(path, fmt.Sprintf("%d\n%s\n", os.Getpid(), purpose))
	if err == nil {
		return &Lock{path: path}, 0, false, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return nil, 0, false, contracts.Errorf(contracts.CodeIO, "cannot create lock %s: %v", path, err)
	}
	owner, ok := readOwner(path)
	switch {
	case ok && alive(owner):
		return nil, owner, false, nil
	case ok:
		return nil, 0, true, reclaim(path, owner)
	case abandoned(path):
		return nil, 0, true, reclaim(path, 0)
	default:
		return nil, 0, false, nil // released or being written: look again
	}
}

// createExclusive creates path with content, failing with fs.ErrExist when
// it exists. The content is written to a private temporary file first and
// linked into place (link(2) is as exclusive as O_EXCL), so a lock is never
// seen without its owner line, even if its creator is killed mid-way. Where
// hard links are unsupported it falls back to O_CREAT|O_EXCL.
func createExclusive(path, content string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".new-*")
	if err != nil {
		return err
	}
	_, werr := tmp.WriteString(content)
	cerr := tmp.Close()
	defer os.Remove(tmp.Name())
	if werr != nil || cerr != nil {
		return errors.Join(werr, cerr)
	}
	err = os.Link(tmp.Name(), path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, werr = f.WriteString(content)
	if cerr := f.Close(); werr != nil || cerr != nil {
		os.Remove(path)
		return errors.Join(werr, cerr)
	}
	return nil
}

// readOwner reads the owner pid; ok is false when the file vanished or its
// first line is not complete yet.
func readOwner(path string) (int, bool) {
	data, err := readLockFile(path)
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

// readLockFile reads a lock file without following a symlink (S18: state
// paths reject symlinks): a symlink put in a lock's place has no owner
// line, so it is reclaimed as abandoned once the grace has passed, its
// target never read.
func readLockFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 4096))
}

// abandoned reports a lock file that has lacked an owner line for longer
// than any creator takes to write one.
func abandoned(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && time.Since(fi.ModTime()) > incompleteGrace
}

// alive reports whether a process exists (EPERM: it exists, owned by
// another user).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// reclaim removes a stale lock: a dead owner's, or (owner 0) one abandoned
// before its owner line was written. It moves the lock aside first and
// checks it is still the one judged stale, so a lock another process took
// in the meantime is put back rather than removed.
func reclaim(path string, owner int) error {
	aside := fmt.Sprintf("%s.stale.%d", path, os.Getpid())
	if err := os.Rename(path, aside); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return contracts.Errorf(contracts.CodeIO, "cannot reclaim stale lock %s: %v", path, err)
	}
	pid, ok := readOwner(aside)
	if ok && pid == owner || !ok && owner == 0 {
		return os.Remove(aside)
	}
	if err := os.Link(aside, path); err != nil && !errors.Is(err, fs.ErrExist) {
		return contracts.Errorf(contracts.CodeIO, "cannot restore lock %s: %v", path, err)
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

// Stale reports a lock file left behind: its owner process has exited, or
// it has had no owner line for longer than a creator takes to write one.
// owner is the recorded pid (0 when none).
func Stale(path string) (owner int, stale bool) {
	owner, ok := readOwner(path)
	if ok {
		return owner, !alive(owner)
	}
	return 0, abandoned(path)
}

// ReclaimStale removes the lock at path if it is stale, exactly as a
// waiting Acquire would; removed says whether it did.
func ReclaimStale(path string) (removed bool, err error) {
	owner, stale := Stale(path)
	if !stale {
		return false, nil
	}
	if err := reclaim(path, owner); err != nil {
		return false, err
	}
	_, err = os.Lstat(path)
	return errors.Is(err, fs.ErrNotExist), nil
}
