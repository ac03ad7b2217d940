package evidence

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

// A git source's snapshot whose document was swapped after the
// snapshot's check (here: a.md made to cite main.go, which the commit's
// a.md does not): drift, the site's sources and verify --evidence, which
// read the files, refuse it as SNAPSHOT_CORRUPT; cites reads the commit's
// objects only, so it finds no citation, even where the commit has no
// document citing anything (it used to read the files then).
func TestSnapshotCitationsAreTheCommits(t *testing.T) {
	plain := "---\ntitle: A\n---\nA.\n"
	repo, commit := gitrepo.Commit(t, map[string]string{
		"docs/NODE.md": "---\nschemaVersion: 1\ntitle: Docs\n---\nThe docs.\n", "docs/a.md": plain, "main.go": "package main\n",
	})
	docs := filepath.Join(repo, "docs")
	target := operations.TreeTarget{
		Root:     docs,
		Conn:     &sources.Connection{Exact: "https://github.com/acme/handbook/tree/main/docs"},
		Snapshot: &sources.Snapshot{Commit: commit, Cache: filepath.Join(repo, ".git"), Path: repo, TreeRoot: docs},
	}
	ctx, env := context.Background(), operations.Env{Dir: repo, Vars: os.Environ(), Git: git.New(os.Environ())}
	repos := &evidenceRepos{env: env, project: &sources.Project{Root: repo, Checkout: repo}, byName: map[string]*evidenceRepo{}}
	if _, _, err := traceTree(ctx, env, repos, target, ""); err != nil {
		t.Fatalf("the commit's own bytes: %v", err)
	}

	gitrepo.Write(t, repo, "docs/a.md", "---\ntitle: A\nsources:\n  - path: main.go\n---\nA.\n")
	var ce *contracts.Error
	if found, _, err := traceTree(ctx, env, repos, target, ""); !errors.As(err, &ce) || ce.Code != contracts.CodeSnapshotCorrupt {
		t.Errorf("drift of a swapped document: %v %v, want SNAPSHOT_CORRUPT", found, err)
	}
	if found, err := citingDocsOf(ctx, env, target, target.Snapshot.Resolution(), nil); err != nil || len(found) != 0 {
		t.Errorf("cites of a swapped document: %v %v, want the commit's (none)", found, err)
	}
}
