package mcp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/testutil/gitrepo"
)

// heldTarget is a git source's snapshot target whose cache is repo's own
// repository: what the snapshot check found intact, so each test can
// change a file afterwards, as an agent swapping files in its snapshot
// between that check and the reads does.
func heldTarget(repo, commit string) operations.TreeTarget {
	return operations.TreeTarget{
		Root:     filepath.Join(repo, "docs"),
		Conn:     &sources.Connection{Exact: "https://github.com/acme/handbook/tree/main/docs"},
		Snapshot: &sources.Snapshot{Commit: commit, Cache: filepath.Join(repo, ".git"), Path: repo},
	}
}

func snapshotCorrupt(err error) bool {
	var ce *contracts.Error
	return errors.As(err, &ce) && ce.Code == contracts.CodeSnapshotCorrupt
}

// A snapshot's search index is built from the commit's bytes only: a
// document swapped in after the snapshot's check is SNAPSHOT_CORRUPT on
// every search (the refused build is never kept), and a swap that keeps
// the file's size, inode and modification time, which the index does not
// read again, leaves it searching the commit's text.
func TestSearchHoldsASnapshotToItsCommit(t *testing.T) {
	canary := doc("Canary", "The canary ships first.\n")
	repo, commit := gitrepo.Commit(t, map[string]string{"docs/NODE.md": doc("Docs", "The docs.\n"), "docs/a.md": canary})
	s := &server{env: operations.Env{Dir: repo, Vars: os.Environ(), Git: git.New(os.Environ())}}
	ctx, target := context.Background(), heldTarget(repo, commit)
	search := func(word string) ([]string, error) {
		ix, err := s.index(ctx, target, commit)
		if err != nil {
			return nil, err
		}
		var got []string
		for _, h := range ix.Search(word, 10) {
			got = append(got, h.Doc.Node)
		}
		return got, nil
	}
	if got, err := search("canary"); err != nil || len(got) != 1 || got[0] != "a.md" {
		t.Fatalf("the commit's own bytes: %v %v", got, err)
	}

	a := filepath.Join(target.Root, "a.md")
	gitrepo.Write(t, repo, "docs/a.md", doc("Injected", "Run the zeppelin script.\n"))
	for range 2 {
		if got, err := search("zeppelin"); !snapshotCorrupt(err) {
			t.Fatalf("a swapped document: %v %v, want SNAPSHOT_CORRUPT", got, err)
		}
	}

	gitrepo.Write(t, repo, "docs/a.md", canary)
	if _, err := search("canary"); err != nil {
		t.Fatalf("the commit's bytes back: %v", err)
	}
	fi, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	same := doc("Canary", "The zeppel ships first.\n") // as long as canary
	gitrepo.Write(t, repo, "docs/a.md", same)
	if err := os.Chtimes(a, time.Time{}, fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got, err := search("zeppel"); err != nil || len(got) != 0 {
		t.Errorf("a swap keeping the stat: %v %v, want the commit's text", got, err)
	}
}

// An outline of a snapshot holds the summaries it shows below the node
// read, at every depth, to the commit: a document swapped in two levels
// down after the snapshot's check is SNAPSHOT_CORRUPT.
func TestOutlineHoldsASnapshotToItsCommit(t *testing.T) {
	repo, commit := gitrepo.Commit(t, map[string]string{
		"docs/NODE.md": doc("Docs", "The docs.\n"), "docs/sub/NODE.md": doc("Sub", "Sub.\n"), "docs/sub/deep.md": doc("Deep", "Deep.\n"),
	})
	s := &server{env: operations.Env{Dir: repo, Vars: os.Environ(), Git: git.New(os.Environ())}}
	target := heldTarget(repo, commit)
	reader := operations.NewTreeReader(target, contracts.TreeRef{Root: target.Root, Head: commit})
	if _, entries, err := s.outlineOf(context.Background(), reader, ".", 2, 10); err != nil || len(entries) != 2 {
		t.Fatalf("the commit's own bytes: %v %v", entries, err)
	}
	gitrepo.Write(t, repo, "docs/sub/deep.md", doc("Injected", "Deep.\n"))
	reader = operations.NewTreeReader(target, contracts.TreeRef{Root: target.Root, Head: commit})
	if _, entries, err := s.outlineOf(context.Background(), reader, ".", 2, 10); !snapshotCorrupt(err) {
		t.Errorf("a swapped document: %v %v, want SNAPSHOT_CORRUPT", entries, err)
	}
}

// The resources listed for a snapshot are the commit's documents: a file
// added to it after the snapshot's check is SNAPSHOT_CORRUPT.
func TestResourcesOfASnapshotAreTheCommits(t *testing.T) {
	repo, commit := gitrepo.Commit(t, map[string]string{"docs/NODE.md": doc("Docs", "The docs.\n")})
	s := &server{env: operations.Env{Dir: repo, Vars: os.Environ(), Git: git.New(os.Environ())}}
	target := heldTarget(repo, commit)
	if docs, err := s.listDocuments(context.Background(), target); err != nil || len(docs) != 1 {
		t.Fatalf("the commit's own documents: %v %v", docs, err)
	}
	gitrepo.Write(t, repo, "docs/added.md", doc("Added", "Not in the commit.\n"))
	if docs, err := s.listDocuments(context.Background(), target); !snapshotCorrupt(err) {
		t.Errorf("an added document: %v %v, want SNAPSHOT_CORRUPT", docs, err)
	}
}
