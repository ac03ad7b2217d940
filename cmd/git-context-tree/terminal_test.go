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
	"unicode/utf8"

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

	lines := onTerminal(t, product(t, dir, "list"))
	if len(lines) != 3 {
		t.Fatalf("list on a terminal printed %d lines:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	if !strings.HasPrefix(lines[0], "SELECTOR  KIND       EXACT SELECTOR") || strings.Contains(strings.Join(lines, "\n"), "\t") {
		t.Errorf("no aligned header:\n%s", strings.Join(lines, "\n"))
	}
	col := strings.Index(lines[0], "EXACT SELECTOR")
	for _, l := range lines[1:] {
		if len(l) <= col || l[col] != '/' {
			t.Errorf("row %q is not aligned under EXACT SELECTOR (column %d)", l, col)
		}
	}
}

// TestSyncOnTerminal: `sync` too prints a header over aligned columns on
// a terminal and header-less tab-separated lines in a pipe.
func TestSyncOnTerminal(t *testing.T) {
	dir := t.TempDir()
	config := `{"schemaVersion": 3, "trees": [{"kind": "directory", "path": "docs/context"}, {"kind": "directory", "path": "handbook"}]}`
	files := map[string]string{
		".context-tree.json":   config,
		"docs/context/NODE.md": "---\nschemaVersion: 1\ntitle: Context\n---\nThe root.\n",
		"handbook/NODE.md":     "---\nschemaVersion: 1\ntitle: Handbook\n---\nThe root.\n",
	}
	for name, text := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, kb := filepath.Join(real, "docs/context"), filepath.Join(real, "handbook")

	piped, err := product(t, dir, "sync").Output()
	if err != nil {
		t.Fatalf("sync in a pipe: %v", err)
	}
	want := ctx + "\tdirectory (not in git)\t" + ctx + "\n" + kb + "\tdirectory (not in git)\t" + kb + "\n"
	if string(piped) != want {
		t.Errorf("sync in a pipe =\n%q\nwant\n%q", piped, want)
	}

	lines := onTerminal(t, product(t, dir, "sync"))
	if len(lines) != 3 || strings.Contains(strings.Join(lines, "\n"), "\t") {
		t.Fatalf("sync on a terminal: want a header and 2 aligned rows, got:\n%s", strings.Join(lines, "\n"))
	}
	col := strings.Index(lines[0], "SYNC")
	if !strings.HasPrefix(lines[0], "TREE ") || col < 0 {
		t.Fatalf("no header TREE, SYNC:\n%s", strings.Join(lines, "\n"))
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l[col:], "directory (not in git)") {
			t.Errorf("row %q is not aligned under SYNC (column %d)", l, col)
		}
	}
}

// TestTableFitsTerminal: on a terminal narrower than a table, its long
// cells (paths, exact selectors) are shortened around "…" to fit, keeping
// their ends; a pipe still gets them whole.
func TestTableFitsTerminal(t *testing.T) {
	dir := t.TempDir()
	deep := "docs/a-rather-long-folder-name/and-another-one-below-it/context"
	config := `{"schemaVersion": 3, "trees": [{"kind": "directory", "path": "` + deep + `"}]}`
	if err := os.WriteFile(filepath.Join(dir, ".context-tree.json"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	piped, err := product(t, dir, "list").Output()
	if err != nil || !strings.Contains(string(piped), filepath.Join(real, deep)+"\t") {
		t.Fatalf("list in a pipe: %v\n%s", err, piped)
	}
	const cols = 80
	lines := onTerminalSized(t, product(t, dir, "list"), &pty.Winsize{Rows: 24, Cols: cols})
	if len(lines) != 2 {
		t.Fatalf("list on a terminal printed %d lines:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > cols {
			t.Errorf("a line of %d characters on a terminal of %d:\n%s", n, cols, l)
		}
	}
	if !strings.Contains(lines[1], "…") || !strings.Contains(lines[1], "/context ") {
		t.Errorf("the long path was not shortened keeping its end:\n%s", lines[1])
	}
}

// onTerminal runs cmd with a pseudo-terminal as its standard streams and
// returns the lines it printed (skipping the test where there is none).
func onTerminal(t *testing.T, cmd *exec.Cmd) []string {
	t.Helper()
	return onTerminalSized(t, cmd, nil)
}

// onTerminalSized is onTerminal on a terminal of the given size (nil: the
// pseudo-terminal's default, no known width).
func onTerminalSized(t *testing.T, cmd *exec.Cmd, size *pty.Winsize) []string {
	t.Helper()
	tty, err := pty.StartWithSize(cmd, size)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer tty.Close()
	var out bytes.Buffer
	_, err = io.Copy(&out, tty)
	if err != nil && !errors.Is(err, syscall.EIO) { // EIO: the child closed the terminal
		t.Fatalf("read the terminal: %v", err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%s on a terminal: %v\n%s", cmd.Args[1:], err, out.String())
	}
	return strings.Split(strings.TrimRight(strings.ReplaceAll(out.String(), "\r\n", "\n"), "\n"), "\n")
}

// TestControlBytesOnTerminal: a document's escape sequences and bidi
// overrides reach a terminal escaped, a pipe and --json unchanged.
func TestControlBytesOnTerminal(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"NODE.md": "---\nschemaVersion: 1\ntitle: Root\n---\n\nClear \x1b[2J\x1b[31mred\x1b[0m and \u202eevil\u202c text.\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shown := strings.Join(onTerminal(t, product(t, dir, "read", "--tree", dir)), "\n")
	if strings.ContainsAny(shown, "\x1b\u202e") || !strings.Contains(shown, `Clear \x1b[2J\x1b[31mred\x1b[0m and \u202eevil\u202c text.`) {
		t.Errorf("read on a terminal:\n%q", shown)
	}
	piped, err := product(t, dir, "read", "--tree", dir).Output()
	if err != nil || !strings.Contains(string(piped), "\x1b[31mred") {
		t.Errorf("read in a pipe changed the bytes: %q %v", piped, err)
	}
	asJSON := strings.Join(onTerminal(t, product(t, dir, "--json", "read", "--tree", dir)), "\n")
	if !strings.Contains(asJSON, `\u001b[31mred`) || !strings.Contains(asJSON, "\u202eevil") {
		t.Errorf("--json on a terminal is not the contract's JSON:\n%q", asJSON)
	}
}
