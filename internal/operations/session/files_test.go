package session

import (
	"os"
	"path/filepath"
	"testing"
)

// A directory of the work tree swapped for a symlink to elsewhere (between
// the check and the write, as an agent racing `write update` would) takes
// no write and no removal outside the work tree.
func TestSessionFileWritesStayInTheWorkTree(t *testing.T) {
	dir := t.TempDir()
	worktree, outside := filepath.Join(dir, "worktree"), filepath.Join(dir, "outside")
	for _, d := range []string{worktree, filepath.Join(outside, "team", "gone.md")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "team", "gone.md", "keep.txt"), []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// kb (the tree's parent, kb/team the tree) is a symlink out.
	if err := os.Symlink(outside, filepath.Join(worktree, "kb")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(worktree)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := placeIn(root, "kb/team/new.md", "100644", []byte("x\n")); err == nil {
		t.Error("placeIn wrote through a symlink leaving the work tree")
	}
	if err := removeIn(root, "kb/team/gone.md"); err == nil {
		t.Error("removeIn removed through a symlink leaving the work tree")
	}
	if _, err := os.Stat(filepath.Join(outside, "team", "new.md")); err == nil {
		t.Error("a file was written outside the work tree")
	}
	if _, err := os.Stat(filepath.Join(outside, "team", "gone.md", "keep.txt")); err != nil {
		t.Errorf("a file outside the work tree was removed: %v", err)
	}
	// Inside, both work.
	if err := placeIn(root, "docs/a/new.md", "100644", []byte("x\n")); err != nil {
		t.Fatal(err)
	}
	if err := removeIn(root, "docs/a"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(worktree, "docs", "a")); !os.IsNotExist(err) {
		t.Errorf("docs/a still there: %v", err)
	}
}
