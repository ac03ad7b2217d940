//go:build linux || darwin

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/creack/pty"
)

// The test binary is also the product: run as its own child with
// runAsProduct set, it runs main with the arguments it was given.
const runAsProduct = "GIT_CONTEXT_TREE_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runAsProduct) == "1" {
		main()
	}
	os.Exit(m.Run())
}

// product is the binary run on args in dir, with its own state directory.
func product(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), runAsProduct+"=1", "HOME="+t.TempDir(), "CONTEXT_TREE_HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1")
	return cmd
}

// TestListOnTerminal: `list` aligns its columns under a header on a
// terminal, and prints tab-separated lines without one in a pipe (what
// the in-process scenarios, which write to pipes, check).
func TestListOnTerminal(t *testing.T) {
	dir := t.TempDir()
	config := `{"schemaVersion": 3, "trees": [{"kind": "directory", "path": "docs/context"}, {"kind": "directory", "path": "handbook"}]}`
	if err := os.WriteFile(filepath.Join(dir, ".context-tree.json"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}

	piped, err := product(t, dir, "list").Output()
	if err != nil {
		t.Fatalf("list in a pipe: %v", err)
	}
	want := "context\tdirectory\t" + filepath.Join(real, "docs/context") + "\tdocs/context\t-\n" +
		"handbook\tdirectory\t" + filepath.Join(real, "handbook") + "\thandbook\t-\n"
	if string(piped) != want {
		t.Errorf("list in a pipe =\n%q\nwant\n%q", piped, want)
	}

	tty, err := pty.Start(product(t, dir, "list"))
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer tty.Close()
	var out bytes.Buffer
	_, err = io.Copy(&out, tty)
	if err != nil && !errors.Is(err, syscall.EIO) { // EIO: the child closed the terminal
		t.Fatalf("read the terminal: %v", err)
	}
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(out.String(), "\r\n", "\n"), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("list on a terminal printed %d lines:\n%s", len(lines), out.String())
	}
	if !strings.HasPrefix(lines[0], "SELECTOR  KIND       EXACT SELECTOR") || strings.Contains(out.String(), "\t") {
		t.Errorf("no aligned header:\n%s", out.String())
	}
	col := strings.Index(lines[0], "EXACT SELECTOR")
	for _, l := range lines[1:] {
		if len(l) <= col || l[col] != '/' {
			t.Errorf("row %q is not aligned under EXACT SELECTOR (column %d)", l, col)
		}
	}
}
