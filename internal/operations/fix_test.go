package operations

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// TestFixConflict: a plan whose files changed on disk after planning is
// refused with FIX_CONFLICT before anything is written (the check Fix runs
// between planning and writing), whatever changed: content edited, a file
// appeared where fix would create one, a file became a symlink or went
// away. An unchanged plan passes.
func TestFixConflict(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("NODE.md", "---\ntitle: R\n---\nRoot.\n")
	write("a/doc.md", "# Doc\n")
	write("b/doc.md", "# B\n")
	plan, err := tree.PlanFix(root, tree.FixOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Changes) < 4 { // the root's schemaVersion, two NODE.md, two frontmatters
		t.Fatalf("plan has %d changes, want the root, a/NODE.md, b/NODE.md and both documents", len(plan.Changes))
	}
	if err := checkUnchanged(root, plan.Changes); err != nil {
		t.Fatalf("unchanged plan refused: %v", err)
	}

	for _, tc := range []struct {
		name   string
		change func()
		undo   func()
	}{
		{"edited", func() { write("a/doc.md", "# Doc, edited\n") }, func() { write("a/doc.md", "# Doc\n") }},
		{"created meanwhile", func() { write("a/NODE.md", "mine\n") }, func() { os.Remove(filepath.Join(root, "a/NODE.md")) }},
		{"removed", func() { os.Remove(filepath.Join(root, "b/doc.md")) }, func() { write("b/doc.md", "# B\n") }},
		{"now a symlink", func() {
			os.Rename(filepath.Join(root, "b/doc.md"), filepath.Join(root, "b.saved"))
			if err := os.Symlink(filepath.Join(root, "b.saved"), filepath.Join(root, "b/doc.md")); err != nil {
				t.Fatal(err)
			}
		}, func() {
			os.Remove(filepath.Join(root, "b/doc.md"))
			os.Rename(filepath.Join(root, "b.saved"), filepath.Join(root, "b/doc.md"))
		}},
	} {
		tc.change()
		err := checkUnchanged(root, plan.Changes)
		var ce *contracts.Error
		if !errors.As(err, &ce) || ce.Code != contracts.CodeFixConflict {
			t.Errorf("%s: got %v, want %s", tc.name, err, contracts.CodeFixConflict)
		}
		tc.undo()
	}
	if err := checkUnchanged(root, plan.Changes); err != nil {
		t.Fatalf("restored plan refused: %v", err)
	}
}
