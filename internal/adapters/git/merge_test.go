package git

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMergeTrees applies base→theirs onto ours as cherry-pick would:
// clean when the changes do not meet, with conflict markers and the path
// when they do; git's own cherry-pick of the same change agrees.
func TestMergeTrees(t *testing.T) {
	r := newIndexRepo(t)
	r.write("a.md", "a\n")
	r.write("b.md", "b\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "base")
	base := r.git("rev-parse", "HEAD^{tree}")
	r.write("a.md", "a ours\n")
	r.git("commit", "-q", "-am", "ours")
	ours := r.git("rev-parse", "HEAD^{tree}")
	r.git("checkout", "-q", "-b", "theirs", "HEAD~1")
	r.write("b.md", "b theirs\n")
	r.git("commit", "-q", "-am", "theirs")
	theirs := r.git("rev-parse", "HEAD^{tree}")
	r.write("a.md", "a theirs\n")
	r.git("commit", "-q", "-am", "theirs too")
	both := r.git("rev-parse", "HEAD^{tree}")

	g, ctx, gitDir := New(os.Environ()), context.Background(), filepath.Join(r.dir, ".git")
	merged, conflicts, err := g.MergeTrees(ctx, gitDir, base, ours, theirs)
	if err != nil || len(conflicts) != 0 {
		t.Fatalf("clean merge: %v %v", conflicts, err)
	}
	if got := r.git("cat-file", "-p", merged+":a.md") + "|" + r.git("cat-file", "-p", merged+":b.md"); got != "a ours|b theirs" {
		t.Errorf("merged files %q", got)
	}
	merged, conflicts, err = g.MergeTrees(ctx, gitDir, base, ours, both)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a.md"}, conflicts); diff != "" {
		t.Errorf("conflicts (-want +got):\n%s", diff)
	}
	if got := r.git("cat-file", "-p", merged+":a.md"); !strings.Contains("\n"+got, "\n<<<<<<< ") || !strings.Contains("\n"+got, "\n>>>>>>> ") {
		t.Errorf("conflicted a.md has no markers:\n%s", got)
	}
}
