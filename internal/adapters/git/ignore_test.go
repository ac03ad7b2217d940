package git

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheckIgnore: ignored paths are reported as given, tracked files are
// not ignored, and a leading ":" is a name, not pathspec magic.
func TestCheckIgnore(t *testing.T) {
	r := newIndexRepo(t)
	r.write(".gitignore", "*.log\nscratch/\n:odd*\n")
	r.write("docs/tracked.log", "tracked, so not ignored\n")
	r.git("add", "-f", "docs/tracked.log")
	g := New(os.Environ())
	for _, kv := range r.env {
		if k, v, ok := strings.Cut(kv, "="); ok && (k == "GIT_CONFIG_NOSYSTEM" || k == "GIT_CONFIG_GLOBAL" || k == "GIT_CEILING_DIRECTORIES") {
			t.Setenv(k, v)
		}
	}
	got, err := g.CheckIgnore(context.Background(), filepath.Join(r.dir, "docs"),
		[]string{"a.log", "tracked.log", "scratch/x.md", "keep.md", ":oddname.md", ":(glob)*.md"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"a.log": true, "scratch/x.md": true, ":oddname.md": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CheckIgnore (-want +got):\n%s", diff)
	}
	none, err := g.CheckIgnore(context.Background(), r.dir, []string{"keep.md"})
	if err != nil || len(none) != 0 {
		t.Errorf("CheckIgnore(keep.md) = %v, %v; want none", none, err)
	}
}
