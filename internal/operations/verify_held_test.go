package operations

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/testutil/gitrepo"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Verifying a git source's snapshot holds every document it read to the
// commit: one swapped after the snapshot's check (here: a broken header
// that would be a finding, the commit's being valid) is SNAPSHOT_CORRUPT,
// never findings or a pass the commit does not have.
func TestVerifyHoldsASnapshotToItsCommit(t *testing.T) {
	repo, commit := gitrepo.Commit(t, map[string]string{
		"docs/NODE.md": "---\nschemaVersion: 1\ntitle: Docs\n---\nThe docs.\n", "docs/a.md": "---\ntitle: A\n---\nA.\n",
	})
	target := TreeTarget{
		Root:     filepath.Join(repo, "docs"),
		Conn:     &sources.Connection{Exact: "https://github.com/acme/handbook/tree/main/docs"},
		Snapshot: &sources.Snapshot{Commit: commit, Cache: filepath.Join(repo, ".git"), Path: repo},
	}
	ctx, env := context.Background(), Env{Dir: repo, Vars: os.Environ(), Git: git.New(os.Environ())}
	if r, err := VerifyTarget(ctx, env, target, tree.VerifyOptions{}); err != nil || !r.OK() {
		t.Fatalf("the commit's own bytes: %v %v", r, err)
	}
	gitrepo.Write(t, repo, "docs/a.md", "---\ntitle: [A\n---\nA.\n")
	var ce *contracts.Error
	if r, err := VerifyTarget(ctx, env, target, tree.VerifyOptions{}); !errors.As(err, &ce) || ce.Code != contracts.CodeSnapshotCorrupt {
		t.Errorf("a swapped document: %v %v, want SNAPSHOT_CORRUPT", r, err)
	}
}
