package git

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTreesAgreeWithGit: the cat-file tree reader lists and compares
// trees exactly as `git ls-tree -r -t` and `git diff-tree -r` do, on
// commits whose differences stress git's order (a file and a directory of
// one name, "a-b" and "a0" around "a/"), type changes both ways, modes, a
// symlink, a gitlink, added and deleted directories, and in a SHA-256
// repository.
func TestTreesAgreeWithGit(t *testing.T) {
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			r := newIndexRepo(t, "--object-format="+format)
			r.populate()
			one := r.git("rev-parse", "HEAD")
			// Second commit: edits, a file turned directory and back, a
			// mode change, a removed and an added directory.
			r.write("a/x.md", "changed\n")
			r.git("rm", "-q", "a.md", "-r", "z")
			r.write("a.md/inside.md", "now a directory\n")
			r.git("rm", "-q", "--cached", "a/b/c/deep.md")
			os.RemoveAll(filepath.Join(r.dir, "a/b"))
			r.write("a/b", "now a file\n")
			r.write("new/dir/n.md", "new\n")
			if err := os.Chmod(filepath.Join(r.dir, "run.sh"), 0o644); err != nil {
				t.Fatal(err)
			}
			r.git("add", "-A")
			r.git("commit", "-q", "-m", "three")
			two := r.git("rev-parse", "HEAD")

			g := New(os.Environ())
			ctx := context.Background()
			b, err := g.OpenRepoBatch(ctx, filepath.Join(r.dir, ".git"))
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			gitDir := filepath.Join(r.dir, ".git")
			for _, rev := range []string{one, two, two + ":a", two + ":b"} {
				want, err := g.LsTree(ctx, gitDir, rev, true)
				if err != nil {
					t.Fatal(err)
				}
				got, err := b.ListTree(treeName(rev))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("ListTree(%s) (-ls-tree +got):\n%s", rev, diff)
				}
			}
			for _, pair := range [][2]string{{one, two}, {two, one}, {one, one}, {one + ":a", two + ":a"}} {
				want, err := g.DiffTrees(ctx, gitDir, pair[0], pair[1], true)
				if err != nil {
					t.Fatal(err)
				}
				got, err := b.DiffTrees(treeName(pair[0]), treeName(pair[1]))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("DiffTrees(%.12s, %.12s) (-diff-tree +got):\n%s", pair[0], pair[1], diff)
				}
			}
		})
	}
}

// treeName names a commit's tree; a <rev>:<path> already names a tree.
func treeName(rev string) string {
	if strings.Contains(rev, ":") {
		return rev
	}
	return rev + "^{tree}"
}

// TestParseTreeRefusesUnusualTrees: entries out of git's order or
// repeated, and truncated entries, are not read as a tree (the caller
// asks git); modes are read as git reads them.
func TestParseTreeRefusesUnusualTrees(t *testing.T) {
	id := string(make([]byte, 20))
	entry := func(mode, name string) string { return mode + " " + name + "\x00" + id }
	for name, data := range map[string]string{
		"out of order":    entry("100644", "b") + entry("100644", "a"),
		"repeated":        entry("100644", "a") + entry("100644", "a"),
		"dir before file": entry("40000", "a") + entry("100644", "a-b") + entry("100644", "a"),
		"truncated":       entry("100644", "a")[:10],
		"bad mode":        entry("10064x", "a"),
		"empty name":      entry("100644", ""),
	} {
		if _, err := ParseTree([]byte(data), 20); !errors.Is(err, ErrUnusualTree) {
			t.Errorf("%s: %v, want ErrUnusualTree", name, err)
		}
	}
	items, err := ParseTree([]byte(entry("100664", "a")+entry("100775", "a-b")+entry("40000", "a")+entry("120000", "l")+entry("160000", "s")), 20)
	if err != nil {
		t.Fatal(err)
	}
	var modes []string
	for _, it := range items {
		modes = append(modes, it.Mode)
	}
	if diff := cmp.Diff([]string{"100644", "100755", "040000", "120000", "160000"}, modes); diff != "" {
		t.Errorf("modes (-want +got):\n%s", diff)
	}
}
