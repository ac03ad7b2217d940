package sources

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/watch"
	"github.com/git-context-tree/git-context-tree/internal/testutil/fakegithub"
)

// TestResolveCacheFollowsEveryChangeGitWouldSee resolves a tree in a
// checkout again after each kind of change that changes git's answer, and
// checks the cached answer is git's; between changes (and while another
// git status takes the index lock) the answer is reused, not recomputed.
func TestResolveCacheFollowsEveryChangeGitWouldSee(t *testing.T) {
	c := NewResolveCache()
	if c == nil {
		t.Skip("no file watcher on this system: nothing is cached")
	}
	ctx := context.Background()
	gh := fakegithub.New(t)
	g := git.New(os.Environ())
	repo := t.TempDir()
	repo, _ = filepath.EvalSymlinks(repo)
	docs := filepath.Join(repo, "docs", "ctx")
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(docs, "NODE.md"), validRoot)
	write(filepath.Join(docs, "team", "NODE.md"), validRoot)
	// Older than the index the commit writes, so no entry is racily clean
	// and a plain git status takes and drops the index lock without
	// rewriting the index.
	hourAgo := time.Now().Add(-time.Hour)
	for _, f := range []string{filepath.Join(docs, "NODE.md"), filepath.Join(docs, "team", "NODE.md")} {
		if err := os.Chtimes(f, hourAgo, hourAgo); err != nil {
			t.Fatal(err)
		}
	}
	gh.Git(repo, "init", "-q")
	gh.Git(repo, "add", "-A")
	gh.Git(repo, "commit", "-q", "-m", "tree")

	// resolve checks the cache's answer against git's own, and whether it
	// was reused.
	resolve := func(step string, wantDirty, wantReused bool) *DirectoryResolution {
		t.Helper()
		var before *watch.Mark
		if e := c.entries[docs]; e != nil {
			before = e.mark
		}
		got, err := c.Resolve(ctx, g, docs)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		fresh, err := ResolveDirectory(ctx, g, docs)
		if err != nil {
			t.Fatal(err)
		}
		if *got != *fresh || got.Dirty != wantDirty {
			t.Fatalf("%s: cached %+v, git says %+v (want dirty %v)", step, got, fresh, wantDirty)
		}
		after := c.entries[docs]
		if reused := before != nil && after != nil && after.mark == before; reused != wantReused {
			t.Errorf("%s: reused %v, want %v", step, reused, wantReused)
		}
		return got
	}
	resolve("first", false, false)
	resolve("unchanged", false, true)
	// Another program's git status takes and drops the index lock.
	cmd := exec.Command("git", "status", "--porcelain")
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git status: %v %s", err, out)
	}
	resolve("after another git status", false, true)

	write(filepath.Join(docs, "new.md"), "x")
	resolve("an untracked file", true, false)
	resolve("still untracked", true, true)
	write(filepath.Join(repo, ".gitignore"), "new.md\n") // above the tree
	resolve("ignored by the checkout's .gitignore", false, false)
	if err := os.Remove(filepath.Join(repo, ".gitignore")); err != nil {
		t.Fatal(err)
	}
	resolve("not ignored any more", true, false)
	write(filepath.Join(repo, ".git", "info", "exclude"), "new.md\n")
	resolve("excluded in info/exclude", false, false)
	// A directory made after the mark is watched from the next one on.
	write(filepath.Join(docs, "team", "deep", "a.md"), "y")
	resolve("an untracked file in a new directory", true, false)
	if err := os.Remove(filepath.Join(docs, "team", "deep", "a.md")); err != nil {
		t.Fatal(err)
	}
	resolve("removed from the new directory", false, false)
	write(filepath.Join(docs, "later.md"), "z")
	resolve("another untracked file", true, false)
	write(filepath.Join(os.Getenv("HOME"), ".config", "git", "ignore"), "later.md\n")
	resolve("ignored by the user's ignore file", false, false)
	if err := os.Remove(filepath.Join(os.Getenv("HOME"), ".config", "git", "ignore")); err != nil {
		t.Fatal(err)
	}
	resolve("the user's ignore file removed", true, false)
	if err := os.Remove(filepath.Join(docs, "later.md")); err != nil {
		t.Fatal(err)
	}
	resolve("clean again", false, false)
	write(filepath.Join(docs, "team", "NODE.md"), validRoot+"More.\n")
	resolve("a tracked file edited", true, false)
	gh.Git(repo, "commit", "-q", "-am", "more")
	r := resolve("committed", false, false)
	if r.Head != gh.Git(repo, "rev-parse", "HEAD") {
		t.Errorf("head %s after the commit", r.Head)
	}
	gh.Git(repo, "checkout", "-q", "-b", "topic")
	if r := resolve("another branch", false, false); r.Branch != "topic" {
		t.Errorf("branch %q", r.Branch)
	}
	if err := os.Chmod(filepath.Join(docs, "NODE.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	resolve("a file made executable", true, false)
}
