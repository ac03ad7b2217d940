package git

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestToplevelOnce: a command asking the same directory twice, in either
// scope, runs git once when no repository variable is set.
func TestToplevelOnce(t *testing.T) {
	r := newIndexRepo(t)
	g, runs := countingGit(t)
	ctx := context.Background()
	for _, scope := range []Scope{Invoking, Isolated, Invoking} {
		top, err := g.Toplevel(ctx, scope, r.dir)
		if err != nil || top == "" {
			t.Fatalf("Toplevel: %q, %v", top, err)
		}
	}
	if n := runs(); n != 1 {
		t.Errorf("git ran %d times", n)
	}
}

func TestHasGitVars(t *testing.T) {
	for env, want := range map[string]bool{
		"HOME=/h":                     false,
		"GIT_SSL_CAINFO=/x":           false,
		"GIT_AUTHOR_NAME=A":           false,
		"GIT_CONFIG_GLOBAL=/dev/null": false,
		"GIT_DIR=/r/.git":             true,
		"GIT_INDEX_FILE=/r/i":         true,
		"GIT_SOMETHING_NEW=1":         true,
		"git_dir=/r/.git":             true,
	} {
		if got := hasGitVars([]string{env}); got != want {
			t.Errorf("hasGitVars(%s) = %t, want %t", env, got, want)
		}
	}
}

// TestNoRepositoryAbove: git is spared only where it could find no
// repository; a .git entry of any kind above the directory, a directory
// inside a git directory, and a symlink into a checkout all leave the
// question to git, and Toplevel agrees with git in each case.
func TestNoRepositoryAbove(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !noRepositoryAbove(root) {
		t.Skipf("%s lies below a .git or HEAD entry: nothing to test here", root)
	}
	mk := func(p string) string {
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
		return filepath.Join(root, p)
	}
	plain := mk("plain/a/b")
	checkout := mk("repo/docs/x")
	if out, err := exec.Command("git", "init", "-q", filepath.Join(root, "repo")).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	gitfile := mk("gitfile/sub")
	if err := os.WriteFile(filepath.Join(root, "gitfile", ".git"), []byte("gitdir: "+filepath.Join(root, "repo", ".git")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inGitDir := filepath.Join(root, "repo", ".git", "refs")
	link := filepath.Join(root, "plain", "link")
	if err := os.Symlink(checkout, link); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]bool{plain: true, checkout: false, gitfile: false, inGitDir: false, link: false, filepath.Join(root, "missing"): false} {
		if got := noRepositoryAbove(dir); got != want {
			t.Errorf("noRepositoryAbove(%s) = %v, want %v", dir, got, want)
		}
	}
	g := New(os.Environ())
	for _, dir := range []string{plain, checkout, link} {
		top, err := g.Toplevel(context.Background(), Invoking, dir)
		want := filepath.Join(root, "repo")
		if dir == plain {
			want = ""
		}
		if err != nil || top != want {
			t.Errorf("Toplevel(%s) = %q, %v; want %q", dir, top, err, want)
		}
	}
}
