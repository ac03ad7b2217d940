package git

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAddSubtreeStagesOnlyIt: changes outside the subtree are listed by
// PendingOutside (ignored files left to IgnoredUntracked) and never
// hashed into the objects; the subtree's are staged, its deletion too.
func TestAddSubtreeStagesOnlyIt(t *testing.T) {
	r := newIndexRepo(t)
	r.write("docs/NODE.md", "docs\n")
	r.write("src/kept.go", "kept\n")
	r.write("src/gone.go", "gone\n")
	r.write(".gitignore", "*.tmp\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "base")
	g, ctx := New(os.Environ()), context.Background()
	w := WorkTree{GitDir: filepath.Join(r.dir, ".git"), Dir: r.dir, Index: filepath.Join(t.TempDir(), "capture.index")}
	if err := g.ReadTree(ctx, w, "HEAD^{tree}"); err != nil {
		t.Fatal(err)
	}
	r.write("docs/NODE.md", "docs, edited\n")
	r.write("src/kept.go", "an edit outside that only this test wrote\n")
	r.write("src/new.go", "a new file outside that only this test wrote\n")
	r.write("src/scratch.tmp", "ignored\n")
	os.Remove(filepath.Join(r.dir, "src/gone.go"))
	outsideBlobs := []string{r.git("hash-object", "src/kept.go"), r.git("hash-object", "src/new.go")}

	got, err := g.PendingOutside(ctx, w, "docs")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"src/gone.go", "src/kept.go", "src/new.go"}, got); diff != "" {
		t.Errorf("PendingOutside (-want +got):\n%s", diff)
	}
	if err := g.AddSubtree(ctx, w, "docs", nil); err != nil {
		t.Fatal(err)
	}
	tree, err := g.WriteTree(ctx, w)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.git("rev-parse", tree+":docs/NODE.md"), r.git("hash-object", "docs/NODE.md"); got != want {
		t.Errorf("docs/NODE.md staged as %s, want the edit %s", got, want)
	}
	if got, want := r.git("rev-parse", tree+":src"), r.git("rev-parse", "HEAD:src"); got != want {
		t.Errorf("src staged as %s, want the base's %s", got, want)
	}
	for _, id := range outsideBlobs {
		if out, err := g.Run(ctx, Isolated, r.dir, "cat-file", "-e", id); err == nil {
			t.Errorf("blob %s of a file outside the subtree was written into the objects (%s)", id, out)
		}
	}

	// The subtree deleted from the disk: staged as deleted.
	if err := os.RemoveAll(filepath.Join(r.dir, "docs")); err != nil {
		t.Fatal(err)
	}
	if err := g.AddSubtree(ctx, w, "docs", nil); err != nil {
		t.Fatal(err)
	}
	if tree, err = g.WriteTree(ctx, w); err != nil {
		t.Fatal(err)
	}
	if out, err := g.Run(ctx, Isolated, r.dir, "cat-file", "-e", tree+":docs"); err == nil {
		t.Errorf("the deleted subtree is still in the tree (%s)", out)
	}
}
