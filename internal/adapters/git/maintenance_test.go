package git

import (
	"context"
	"path/filepath"
	"testing"
)

// A fetch into a tool's repository never starts git's automatic
// maintenance: with two packs and gc.autoPackLimit=1, `git fetch` would
// otherwise run `gc --auto` and repack them into one.
func TestFetchStartsNoMaintenance(t *testing.T) {
	up := newIndexRepo(t)
	cache := filepath.Join(t.TempDir(), "cache.git")
	up.git("init", "-q", "--bare", cache)
	for _, kv := range [][2]string{{"gc.autoPackLimit", "1"}, {"gc.autoDetach", "false"}, {"fetch.unpackLimit", "1"}} {
		up.git("--git-dir="+cache, "config", kv[0], kv[1])
	}
	g := New(up.env)
	for _, content := range []string{"one\n", "two\n"} {
		up.write("a.md", content)
		up.git("add", "a.md")
		up.git("commit", "-q", "-m", content)
		if err := g.FetchBranch(context.Background(), cache, up.dir, up.git("branch", "--show-current"), "refs/heads/main", FetchOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	packs, err := filepath.Glob(filepath.Join(cache, "objects", "pack", "*.pack"))
	if err != nil {
		t.Fatal(err)
	}
	if len(packs) != 2 {
		t.Errorf("the cache has %d packs after two fetches, want 2 (git's maintenance repacked them)", len(packs))
	}
}
