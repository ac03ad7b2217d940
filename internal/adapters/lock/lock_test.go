package lock

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestAcquireRecordsOwnerAndReleases(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	l, err := Acquire(path, "testing", 0)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if want := fmt.Sprintf("%d\ntesting\n", os.Getpid()); string(data) != want {
		t.Errorf("lock content %q, want %q", data, want)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("lock still present after release: %v", err)
	}
}

func TestLiveOwnerIsLockHeld(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	path := filepath.Join(t.TempDir(), "x.lock")
	if err := os.WriteFile(path, []byte(strconv.Itoa(cmd.Process.Pid)+"\nother\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Acquire(path, "testing", 50*time.Millisecond)
	var ce *contracts.Error
	if !errors.As(err, &ce) || ce.Code != contracts.CodeLockHeld || ce.Details["pid"] != cmd.Process.Pid {
		t.Fatalf("err = %v, want LOCK_HELD naming pid %d", err, cmd.Process.Pid)
	}
	if data, _ := os.ReadFile(path); !strings.HasPrefix(string(data), strconv.Itoa(cmd.Process.Pid)) {
		t.Errorf("live lock was touched: %q", data)
	}
}

func TestExitedOwnerIsReclaimed(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "x.lock")
	if err := os.WriteFile(path, []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := Acquire(path, "testing", 0)
	if err != nil {
		t.Fatalf("stale lock not reclaimed: %v", err)
	}
	defer l.Release()
	if data, _ := os.ReadFile(path); !strings.HasPrefix(string(data), strconv.Itoa(os.Getpid())+"\n") {
		t.Errorf("lock not ours after reclaim: %q", data)
	}
	if m, _ := filepath.Glob(path + ".stale.*"); len(m) != 0 {
		t.Errorf("reclaim left %v", m)
	}
}

func TestWaitersSerialize(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.lock")
	counter := filepath.Join(dir, "n")
	os.WriteFile(counter, []byte("0"), 0o600)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Waits as long as the queue takes on a loaded machine.
			l, err := Acquire(path, "counter", time.Hour)
			if err != nil {
				errs <- err
				return
			}
			data, _ := os.ReadFile(counter)
			n, _ := strconv.Atoi(string(data))
			os.WriteFile(counter, []byte(strconv.Itoa(n+1)), 0o600)
			errs <- l.Release()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if data, _ := os.ReadFile(counter); string(data) != "20" {
		t.Errorf("counter = %s, want 20: the lock let two holders in", data)
	}
}

// A wait that lasts tells who holds the lock (pid and recorded purpose)
// while it is still held: the holder releases only once told, and the
// waiter then takes the lock.
func TestAcquireWaitingTellsWhoHolds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	if err := os.WriteFile(path, fmt.Appendf(nil, "%d\nsomeone else\n", os.Getpid()), 0o600); err != nil {
		t.Fatal(err)
	}
	var told []Holder
	l, err := AcquireWaiting(path, "testing", Wait{Max: time.Hour, Waiting: func(h Holder) {
		told = append(told, h)
		if err := os.Remove(path); err != nil {
			t.Error(err)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	want := []Holder{{Path: path, PID: os.Getpid(), Purpose: "someone else"}}
	if diff := cmp.Diff(want, told); diff != "" {
		t.Errorf("told (-want +got):\n%s", diff)
	}
}

// A free lock and a wait of nothing tell nobody.
func TestAcquireWaitingSilent(t *testing.T) {
	dir := t.TempDir()
	never := func(h Holder) { t.Errorf("told %+v", h) }
	l, err := AcquireWaiting(filepath.Join(dir, "free.lock"), "testing", Wait{Max: time.Hour, Waiting: never})
	if err != nil {
		t.Fatal(err)
	}
	l.Release()
	held := filepath.Join(dir, "held.lock")
	if err := os.WriteFile(held, fmt.Appendf(nil, "%d\n", os.Getpid()), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := AcquireWaiting(held, "testing", Wait{Max: 0, Waiting: never}); err == nil {
		t.Fatal("a held lock was taken")
	}
}

// A symlink in a lock's place is never followed (S18): its target names a
// live owner, yet the link has no owner line of its own, so once older
// than the grace it is reclaimed like an abandoned lock, and its target is
// neither read as the owner nor touched.
func TestSymlinkedLockIsNotFollowed(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere")
	live := fmt.Sprintf("%d\nsomeone else's file\n", os.Getpid())
	if err := os.WriteFile(target, []byte(live), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "x.lock")
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	old := unix.NsecToTimeval(time.Now().Add(-time.Hour).UnixNano())
	if err := unix.Lutimes(path, []unix.Timeval{old, old}); err != nil {
		t.Fatal(err)
	}
	if owner, ok := readOwner(path); ok {
		t.Errorf("readOwner followed the symlink: owner %d", owner)
	}
	l, err := Acquire(path, "testing", 0)
	if err != nil {
		t.Fatalf("Acquire over a symlinked lock: %v", err)
	}
	defer l.Release()
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the lock is not a regular file of ours: %v, %v", fi, err)
	}
	if data, _ := os.ReadFile(target); string(data) != live {
		t.Errorf("the symlink's target changed: %q", data)
	}
}
