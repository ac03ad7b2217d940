package tree

import (
	"os"
	"path/filepath"
	"testing"
)

func TestInside(t *testing.T) {
	root := filepath.FromSlash("/p/root")
	for _, c := range []struct {
		p       string
		wantRel string
		wantOK  bool
	}{
		{"/p/root", ".", true},
		{"/p/root/", ".", true},
		{"/p/root/a/b.md", "a/b.md", true},
		// A name that merely starts with ".." is an ordinary name: cli's
		// display once showed such a file by its absolute path.
		{"/p/root/..notes", "..notes", true},
		{"/p/root/...", "...", true},
		{"/p/root/d/..x/y", "d/..x/y", true},
		{"/p/root/a/../b", "b", true},
		{"/p", "", false},
		{"/p/root/..", "", false},
		{"/p/other", "", false},
		{"/p/rootx/a", "", false}, // a sibling sharing root's name as a prefix
		{"/p/..notes", "", false},
		{"relative/path", "", false}, // cannot be compared with an absolute root
	} {
		rel, ok := Inside(root, filepath.FromSlash(c.p))
		if ok != c.wantOK || filepath.ToSlash(rel) != c.wantRel {
			t.Errorf("Inside(%q, %q) = %q, %v; want %q, %v", root, c.p, rel, ok, c.wantRel, c.wantOK)
		}
	}
}

// TestInsideRelative covers repository-relative paths as git lists them
// (a directory with a trailing "/"), against a subtree or ".".
func TestInsideRelative(t *testing.T) {
	for _, c := range []struct {
		root, p string
		wantOK  bool
	}{
		{".", "a.md", true},
		{".", "..notes", true},
		{".", "../x", false},
		{"docs", "docs", true},
		{"docs", "docs/", true},
		{"docs", "docs/sub/", true},
		{"docs", "docs/..notes", true},
		{"docs", "docsx/a.md", false},
		{"docs", "other/docs/a.md", false},
	} {
		if _, ok := Inside(filepath.FromSlash(c.root), filepath.FromSlash(c.p)); ok != c.wantOK {
			t.Errorf("Inside(%q, %q) = %v, want %v", c.root, c.p, ok, c.wantOK)
		}
	}
}

func TestRealPath(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(dir, "real")
	mustMkdir(t, real)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{real, real},
		{link, real},
		{link + "/", real},
		{filepath.Join(link, "missing", "x.md"), filepath.Join(real, "missing", "x.md")},
		{filepath.Join(link, "a", "..", "b"), filepath.Join(real, "b")},
		{filepath.Join(dir, "nowhere"), filepath.Join(dir, "nowhere")},
	} {
		if got := RealPath(c.in); got != c.want {
			t.Errorf("RealPath(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
