package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// version and schema print what the binary holds: settings for locks and
// machine state must not break them, while commands that use those
// settings still reject a bad value.
func TestSelfContainedCommandsIgnoreLockWait(t *testing.T) {
	proc := func(stdout, stderr *bytes.Buffer) Process {
		return Process{Dir: t.TempDir(), Env: []string{lockWaitVar + "=soon"}, Stdout: stdout, Stderr: stderr}
	}
	for _, args := range [][]string{{"version"}, {"--json", "version"}, {"schema"}, {"schema", "config"}} {
		var stdout, stderr bytes.Buffer
		if code := Main(proc(&stdout, &stderr), args); code != contracts.ExitOK {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr.String())
		}
		if stdout.Len() == 0 {
			t.Errorf("%v: nothing on stdout", args)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := Main(proc(&stdout, &stderr), []string{"list"}); code != contracts.ExitUsage || !strings.Contains(stderr.String(), lockWaitVar) {
		t.Errorf("list with a bad %s: exit %d, stderr %q", lockWaitVar, code, stderr.String())
	}
}

// lockReleaser is a stderr that releases the configuration lock the test
// holds once the command says it is waiting for it.
type lockReleaser struct {
	t    *testing.T
	lock string
	buf  bytes.Buffer
}

func (w *lockReleaser) Write(p []byte) (int, error) {
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), "waiting for ") {
		if err := os.Remove(w.lock); err != nil && !os.IsNotExist(err) {
			w.t.Error(err)
		}
	}
	return len(p), nil
}

// A command waiting for the configuration lock says on stderr who holds
// it (pid and purpose) while it waits, never on stdout, also with --json;
// once the holder releases it, the command goes on.
func TestConfigLockWaitIsTold(t *testing.T) {
	dir := t.TempDir()
	// A wait far longer than the notice takes; without it, LOCK_HELD.
	vars := append(os.Environ(), "HOME="+dir, "CONTEXT_TREE_HOME="+filepath.Join(dir, "state"), lockWaitVar+"=2m")
	proj := filepath.Join(dir, "proj")
	if err := os.MkdirAll(filepath.Join(proj, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	node := "---\nschemaVersion: 1\ntitle: Notes\n---\nNotes.\n"
	if err := os.WriteFile(filepath.Join(proj, "notes", "NODE.md"), []byte(node), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, json := range []bool{false, true} {
		lockFile := filepath.Join(proj, contracts.ConfigFile+".lock")
		if err := os.WriteFile(lockFile, fmt.Appendf(nil, "%d\nsomeone else\n", os.Getpid()), 0o600); err != nil {
			t.Fatal(err)
		}
		args := []string{"-C", proj, "connect", "notes"}
		if json {
			args = append([]string{"--json"}, args...)
		}
		var stdout bytes.Buffer
		stderr := &lockReleaser{t: t, lock: lockFile}
		if code := Main(Process{Dir: dir, Env: vars, Stdout: &stdout, Stderr: stderr}, args); code != contracts.ExitOK {
			t.Fatalf("%v: exit %d, stderr %q", args, code, stderr.buf.String())
		}
		want := fmt.Sprintf("waiting for %s, held by process %d (someone else); giving up after 2m0s (%s sets how long)\n", lockFile, os.Getpid(), lockWaitVar)
		if !strings.HasPrefix(stderr.buf.String(), want) {
			t.Errorf("%v: stderr %q, want it to begin with %q", args, stderr.buf.String(), want)
		}
		if strings.Contains(stdout.String(), "waiting") {
			t.Errorf("%v: stdout %q tells of the wait", args, stdout.String())
		}
	}
}

// sync waiting for another process's work on a repository says so too.
func TestRepositoryLockWaitIsTold(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "state")
	// A wait far longer than the notice takes; without it, LOCK_HELD.
	vars := append(os.Environ(), "HOME="+dir, "CONTEXT_TREE_HOME="+home, lockWaitVar+"=2m")
	proj := filepath.Join(dir, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	config := `{"schemaVersion": 3, "trees": [{"kind": "git", "repository": "acme/handbook", "path": ".", "ref": "main"}]}`
	if err := os.WriteFile(filepath.Join(proj, contracts.ConfigFile), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, "locks"), 0o700); err != nil {
		t.Fatal(err)
	}
	lockFile := filepath.Join(home, "locks", "repo.acme.handbook.lock")
	if err := os.WriteFile(lockFile, fmt.Appendf(nil, "%d\nsomeone else\n", os.Getpid()), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	stderr := &lockReleaser{t: t, lock: lockFile}
	// Never synced: once the lock is released, the offline sync fails
	// CACHE_MISSING (exit 1), not LOCK_HELD (exit 3).
	if code := Main(Process{Dir: dir, Env: vars, Stdout: &stdout, Stderr: stderr}, []string{"-C", proj, "--json", "sync", "--offline"}); code != contracts.ExitFailed {
		t.Fatalf("exit %d, stdout %s, stderr %q", code, stdout.String(), stderr.buf.String())
	}
	want := fmt.Sprintf("waiting for %s, held by process %d (someone else); ", lockFile, os.Getpid())
	if !strings.HasPrefix(stderr.buf.String(), want) {
		t.Errorf("stderr %q, want it to begin with %q", stderr.buf.String(), want)
	}
	if !strings.Contains(stdout.String(), "CACHE_MISSING") || strings.Contains(stdout.String(), "waiting") {
		t.Errorf("stdout %s", stdout.String())
	}
}

// Main reads the working directory and the environment it is given, not
// the process's: two commands in one process, each in its own directory
// with its own state directory, at the same time.
func TestMainRunsInTheGivenProcess(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "CONTEXT_TREE_") || strings.HasPrefix(kv, "HOME=")
	})
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			dir, home := t.TempDir(), t.TempDir()
			proc := Process{Dir: dir, Env: append(slices.Clip(env), "HOME="+home, "CONTEXT_TREE_HOME=state", "CONTEXT_TREE_LOCK_WAIT=0"), Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer)}
			if code := Main(proc, []string{"init", "--json"}); code != contracts.ExitOK {
				t.Errorf("%d: init: exit %d: %s", i, code, proc.Stderr)
				return
			}
			if _, err := os.Stat(filepath.Join(dir, "NODE.md")); err != nil {
				t.Errorf("%d: init did not write in its directory: %v", i, err)
			}
			out := new(bytes.Buffer)
			proc.Stdout = out
			if code := Main(proc, []string{"doctor", "--json"}); code > contracts.ExitFailed {
				t.Errorf("%d: doctor: exit %d: %s", i, code, proc.Stderr)
			}
			if want := filepath.Join(dir, "state"); !strings.Contains(out.String(), want) {
				t.Errorf("%d: doctor does not name the state directory %s (relative to its directory):\n%s", i, want, out)
			}
		})
	}
	wg.Wait()
	if _, err := os.Stat("NODE.md"); err == nil {
		t.Error("a command wrote into the process's working directory")
	}
}

// holdLock writes a lock file held by this (live) process for someone
// else, as another git-context-tree would.
func holdLock(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, fmt.Appendf(nil, "%d\nsomeone else\n", os.Getpid()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// checkToldOfWait checks a command's stderr began with the notice for the
// lock it waited for, and stdout never mentions the wait.
func checkToldOfWait(t *testing.T, lockFile, stdout, stderr string) {
	t.Helper()
	want := fmt.Sprintf("waiting for %s, held by process %d (someone else); giving up after 2m0s (%s sets how long)\n", lockFile, os.Getpid(), lockWaitVar)
	if !strings.HasPrefix(stderr, want) {
		t.Errorf("stderr %q, want it to begin with %q", stderr, want)
	}
	if strings.Contains(stdout, "waiting") {
		t.Errorf("stdout %q tells of the wait", stdout)
	}
}

// write abort waiting for another command working on the same session
// says who holds the session's lock.
func TestSessionLockWaitIsTold(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "state")
	vars := append(os.Environ(), "HOME="+dir, "CONTEXT_TREE_HOME="+home,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(dir, "gitconfig"), "GIT_CEILING_DIRECTORIES="+dir)
	git := func(args ...string) *exec.Cmd {
		cmd := exec.Command("git", args...)
		cmd.Env = vars
		return cmd
	}
	if err := os.WriteFile(filepath.Join(dir, "gitconfig"), []byte("[user]\n\tname = T\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(dir, "proj")
	if out, err := git("init", "-q", proj).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	var stdout, stderr bytes.Buffer
	if code := Main(Process{Dir: dir, Env: vars, Stdout: &stdout, Stderr: &stderr}, []string{"-C", proj, "init", "notes", "--title", "Notes"}); code != contracts.ExitOK {
		t.Fatalf("init: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	for _, args := range [][]string{{"add", "-A"}, {"commit", "-q", "-m", "notes"}} {
		if out, err := git(append([]string{"-C", proj}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	stdout.Reset()
	stderr.Reset()
	if code := Main(Process{Dir: dir, Env: vars, Stdout: &stdout, Stderr: &stderr}, []string{"-C", proj, "--json", "write", "prepare"}); code != contracts.ExitOK {
		t.Fatalf("write prepare: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	var prepared struct {
		Session struct {
			ID string `json:"id"`
		} `json:"session"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &prepared); err != nil || prepared.Session.ID == "" {
		t.Fatalf("write prepare printed %s (%v)", stdout.String(), err)
	}
	vars = append(vars, lockWaitVar+"=2m") // far longer than the notice takes; without it, LOCK_HELD
	lockFile := filepath.Join(home, "locks", "session."+prepared.Session.ID+".lock")
	holdLock(t, lockFile)
	stdout.Reset()
	released := &lockReleaser{t: t, lock: lockFile}
	if code := Main(Process{Dir: dir, Env: vars, Stdout: &stdout, Stderr: released}, []string{"-C", proj, "write", "abort", prepared.Session.ID}); code != contracts.ExitOK {
		t.Fatalf("write abort: exit %d, stdout %s, stderr %q", code, stdout.String(), released.buf.String())
	}
	checkToldOfWait(t, lockFile, stdout.String(), released.buf.String())
}

// cleanup unschedule waiting for another schedule change says who holds
// the schedules lock.
func TestScheduleLockWaitIsTold(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "state")
	vars := append(os.Environ(), "HOME="+dir, "CONTEXT_TREE_HOME="+home, lockWaitVar+"=2m")
	lockFile := filepath.Join(home, "locks", "schedules.lock")
	holdLock(t, lockFile)
	var stdout bytes.Buffer
	released := &lockReleaser{t: t, lock: lockFile}
	// No schedule exists: once the lock is released, the schedule id is
	// not found (exit 3), never LOCK_HELD.
	code := Main(Process{Dir: dir, Env: vars, Stdout: &stdout, Stderr: released}, []string{"-C", dir, "--json", "cleanup", "unschedule", "--schedule", "0123456789ab"})
	if code == contracts.ExitOK || strings.Contains(stdout.String(), string(contracts.CodeLockHeld)) {
		t.Fatalf("exit %d, stdout %s, stderr %q", code, stdout.String(), released.buf.String())
	}
	checkToldOfWait(t, lockFile, stdout.String(), released.buf.String())
}

// skills install waiting for another install says who holds the skills
// lock.
func TestSkillsLockWaitIsTold(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "state")
	vars := append(os.Environ(), "HOME="+dir, "CONTEXT_TREE_HOME="+home, lockWaitVar+"=2m")
	proj := filepath.Join(dir, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	lockFile := filepath.Join(home, "locks", "skills.lock")
	holdLock(t, lockFile)
	var stdout bytes.Buffer
	released := &lockReleaser{t: t, lock: lockFile}
	if code := Main(Process{Dir: dir, Env: vars, Stdout: &stdout, Stderr: released}, []string{"-C", proj, "skills", "install", "--project", proj}); code != contracts.ExitOK {
		t.Fatalf("exit %d, stdout %s, stderr %q", code, stdout.String(), released.buf.String())
	}
	checkToldOfWait(t, lockFile, stdout.String(), released.buf.String())
	if _, err := os.Stat(filepath.Join(proj, ".claude", "skills")); err != nil {
		t.Errorf("skills not installed: %v", err)
	}
}
