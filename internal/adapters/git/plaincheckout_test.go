package git

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheckoutPlain: a plain checkout of some directories holds exactly
// their files (not a file at a directory's own path), no .git, and reads
// clean through its index; widening adds a directory's files in place;
// an edit or an extra file is pending.
func TestCheckoutPlain(t *testing.T) {
	r := newIndexRepo(t)
	for _, name := range []string{"top.md", "docs/NODE.md", "docs/a/x.md", "team/NODE.md", "link"} {
		r.write(name, name+"\n")
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "one")
	commit := r.git("rev-parse", "HEAD")
	g, ctx := New(os.Environ()), context.Background()
	dir := filepath.Join(t.TempDir(), "snap")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	w := WorkTree{GitDir: filepath.Join(r.dir, ".git"), Dir: dir, Index: dir + ".index"}
	files := func() []string {
		var got []string
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(dir, p)
				got = append(got, filepath.ToSlash(rel))
			}
			return nil
		})
		return got
	}
	if err := g.CheckoutPlain(ctx, w, commit, []string{"docs", "link"}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"docs/NODE.md", "docs/a/x.md"}, files()); diff != "" {
		t.Errorf("checked out (-want +got):\n%s", diff)
	}
	if pending, err := g.Pending(ctx, w); err != nil || len(pending) != 0 {
		t.Errorf("fresh checkout pending %v, %v", pending, err)
	}
	if err := g.WidenPlain(ctx, w, []string{"docs", "team"}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"docs/NODE.md", "docs/a/x.md", "team/NODE.md"}, files()); diff != "" {
		t.Errorf("widened (-want +got):\n%s", diff)
	}
	if pending, err := g.Pending(ctx, w); err != nil || len(pending) != 0 {
		t.Errorf("widened checkout pending %v, %v", pending, err)
	}
	os.WriteFile(filepath.Join(dir, "docs/NODE.md"), []byte("changed\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "team/new.md"), []byte("new\n"), 0o644)
	pending, err := g.Pending(ctx, w)
	slices.Sort(pending)
	if diff := cmp.Diff([]string{"docs/NODE.md", "team/new.md"}, pending); err != nil || diff != "" {
		t.Errorf("pending (-want +got):\n%s %v", diff, err)
	}
}

// TestIndexHolds: a plain checkout's index holds its commit's tree and no
// other commit's, skip-worktree entries included; an unknown commit is an
// error, not an answer.
func TestIndexHolds(t *testing.T) {
	r := newIndexRepo(t)
	r.write("docs/NODE.md", "one\n")
	r.write("other/x.md", "x\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "one")
	one := r.git("rev-parse", "HEAD")
	r.write("other/x.md", "changed outside the checkout's directories\n")
	r.git("commit", "-q", "-a", "-m", "two")
	two := r.git("rev-parse", "HEAD")
	g, ctx := New(os.Environ()), context.Background()
	dir := filepath.Join(t.TempDir(), "snap")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	w := WorkTree{GitDir: filepath.Join(r.dir, ".git"), Dir: dir, Index: dir + ".index"}
	if err := g.CheckoutPlain(ctx, w, one, []string{"docs"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		commit string
		want   bool
	}{{one, true}, {two, false}} {
		if got, err := g.IndexHolds(ctx, w, c.commit); err != nil || got != c.want {
			t.Errorf("IndexHolds(%.7s) = %v, %v; want %v", c.commit, got, err, c.want)
		}
	}
	if got, err := g.IndexHolds(ctx, w, "0123456789abcdef0123456789abcdef01234567"); err == nil {
		t.Errorf("IndexHolds(unknown commit) = %v, nil; want an error", got)
	}
}
