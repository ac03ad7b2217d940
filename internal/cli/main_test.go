package cli

import (
	"bytes"
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
