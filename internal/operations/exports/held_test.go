package exports

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/testutil/gitrepo"
)

// A site of a git source's snapshot copies the commit's images only: an
// image swapped after the snapshot's check (after the pages were read, as
// the site is written) is SNAPSHOT_CORRUPT, and the site is not put in
// place.
func TestSiteHoldsASnapshotsImagesToItsCommit(t *testing.T) {
	png := "\x89PNG\r\n\x1a\n" + "the commit's image"
	repo, commit := gitrepo.Commit(t, map[string]string{
		"docs/NODE.md": "---\nschemaVersion: 1\ntitle: Docs\n---\n![diagram](img.png)\n", "docs/img.png": png,
	})
	docs := filepath.Join(repo, "docs")
	target := operations.TreeTarget{
		Root:     docs,
		Conn:     &sources.Connection{Exact: "https://github.com/acme/handbook/tree/main/docs"},
		Snapshot: &sources.Snapshot{Commit: commit, Cache: filepath.Join(repo, ".git"), Path: repo, TreeRoot: docs},
	}
	ctx, env := context.Background(), operations.Env{Dir: repo, Vars: os.Environ(), Git: git.New(os.Environ())}
	write := func(out string) error {
		site, _, err := buildSite(ctx, env, target, "")
		if err != nil {
			t.Fatal(err)
		}
		gitrepo.Write(t, repo, "docs/img.png", "\x89PNG\r\n\x1a\n"+"a swapped-in image")
		_, _, err = writeSite(out, site, holdImages(ctx, env, target))
		return err
	}
	out := filepath.Join(t.TempDir(), "site")
	var ce *contracts.Error
	if err := write(out); !errors.As(err, &ce) || ce.Code != contracts.CodeSnapshotCorrupt {
		t.Errorf("a swapped image: %v, want SNAPSHOT_CORRUPT", err)
	}
	if _, err := os.Lstat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the site was put in place: %v", err)
	}
	gitrepo.Write(t, repo, "docs/img.png", png)
	site, _, err := buildSite(ctx, env, target, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := writeSite(out, site, holdImages(ctx, env, target)); err != nil {
		t.Fatalf("the commit's image: %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(out, "img.png")); err != nil || string(data) != png {
		t.Errorf("the image copied: %q %v", data, err)
	}
}
