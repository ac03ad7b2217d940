package test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// TestSyncProgress runs the built product's sync with stderr on a
// pseudo-terminal: git's fetch progress is shown there, each update
// redrawn on one status line prefixed with the repository. With stderr on
// a pipe, or with --json, nothing of it appears.
func TestSyncProgress(t *testing.T) {
	bin := filepath.Join(buildProduct(t), "git-context-tree")
	work := t.TempDir()
	home := filepath.Join(work, "home")
	gitconfig := filepath.Join(home, ".gitconfig")
	writeFile(t, gitconfig, gitConfig+"[url \"file://"+work+"/gh/\"]\n\tinsteadOf = https://github.com/\n")
	env := append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+gitconfig,
		"CONTEXT_TREE_HOME="+filepath.Join(home, ".context-tree"), "GIT_CEILING_DIRECTORIES="+work)
	run := func(dir string, name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
	}
	hw := filepath.Join(work, "hw")
	writeFile(t, filepath.Join(hw, "docs", "NODE.md"), "---\nschemaVersion: 1\ntitle: Handbook\n---\nThe handbook.\n")
	run(work, "git", "init", "-q", "--bare", filepath.Join(work, "gh", "acme", "handbook.git"))
	run(work, "git", "init", "-q", hw)
	run(hw, "git", "add", "-A")
	run(hw, "git", "commit", "-q", "-m", "v1")
	run(hw, "git", "push", "-q", "https://github.com/acme/handbook.git", "main")
	proj := filepath.Join(work, "proj")
	run(work, "git", "init", "-q", proj)
	run(proj, bin, "connect", "acme/handbook", "--ref", "main", "--path", "docs")

	// onTerminal runs the product with stderr on a pseudo-terminal and
	// returns what stdout and the terminal got.
	onTerminal := func(args ...string) (stdout, shown string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = proj, env
		var out bytes.Buffer
		cmd.Stdout = &out
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Skipf("no pseudo-terminal: %v", err)
		}
		defer ptmx.Close()
		cmd.Stderr = tty
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		tty.Close()
		var got bytes.Buffer
		done := make(chan struct{})
		go func() { io.Copy(&got, ptmx); close(done) }() // ends with EIO once the product exits
		err = cmd.Wait()
		<-done
		if err != nil {
			t.Fatalf("%v on a terminal: %v\n%s", args, err, got.String())
		}
		return out.String(), got.String()
	}
	push := func(name string) {
		t.Helper()
		writeFile(t, filepath.Join(hw, "docs", name+".md"), "---\ntitle: "+name+"\n---\n")
		run(hw, "git", "add", "-A")
		run(hw, "git", "commit", "-q", "-m", name)
		run(hw, "git", "push", "-q", "https://github.com/acme/handbook.git", "main")
	}

	// On a terminal: progress, prefixed with the repository.
	stdout, shown := onTerminal("sync")
	if !strings.Contains(shown, "\r\x1b[Kacme/handbook: ") {
		t.Errorf("no progress on the terminal; stderr was %q", shown)
	}
	if !strings.Contains(stdout, "\tnew ") {
		t.Errorf("stdout %q lacks the source's line", stdout)
	}
	// With --json, none (and something to fetch, so git had progress).
	push("second")
	if _, shown := onTerminal("--json", "sync"); strings.Contains(shown, "acme/handbook: ") || strings.Contains(shown, "\x1b[K") {
		t.Errorf("progress with --json: %q", shown)
	}

	// On a pipe: none.
	pipe := func(args ...string) string {
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = proj, env
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = io.Discard, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("sync %v: %v\n%s", args, err, stderr.String())
		}
		return stderr.String()
	}
	push("third")
	if got := pipe("sync"); strings.Contains(got, "acme/handbook: ") || strings.Contains(got, "\x1b[K") {
		t.Errorf("progress on a pipe: %q", got)
	}
}
