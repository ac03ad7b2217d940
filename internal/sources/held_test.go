package sources

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/testutil/gitrepo"
)

// What a reader of a snapshot parsed or listed is held to the commit's
// blobs: bytes that changed after the snapshot's integrity check (a file
// swapped in between the check and the read), a document the commit does
// not hold, or one it holds as a symlink are SNAPSHOT_CORRUPT; the
// commit's own bytes and names pass.
func TestHeldReadsHoldReadsToTheCommit(t *testing.T) {
	node := "---\nschemaVersion: 1\ntitle: Docs\n---\nThe docs.\n"
	child := "---\ntitle: A\n---\nA.\n"
	files := map[string]string{"docs/NODE.md": node, "docs/a.md": child}
	many := map[string]string{} // more than maxListedPaths: Check lists the subtree once
	for i := range maxListedPaths + 44 {
		rel := fmt.Sprintf("many/d%03d.md", i)
		files["docs/"+rel] = fmt.Sprintf("---\ntitle: D%d\n---\n", i)
		many[rel] = files["docs/"+rel]
	}
	repo, _ := gitrepo.Commit(t, files)
	if err := os.Symlink("a.md", filepath.Join(repo, "docs", "link.md")); err != nil {
		t.Fatal(err)
	}
	gitrepo.Git(t, repo, "add", "-A")
	gitrepo.Git(t, repo, "commit", "-q", "-m", "a symlink")
	commit := gitrepo.Git(t, repo, "rev-parse", "HEAD")
	g := git.New(os.Environ())
	snap := &Snapshot{Commit: commit, Cache: filepath.Join(repo, ".git"), Path: repo}
	conn := Connection{Exact: "https://github.com/acme/handbook/tree/main/docs"}
	read := func(docs map[string]string, listed ...string) error {
		h := snap.HoldReads(conn, filepath.Join(repo, "docs"))
		observe := h.Observer()
		for rel, data := range docs {
			observe(rel, []byte(data))
		}
		for _, rel := range listed {
			h.Listed(rel)
		}
		return h.Check(context.Background(), g)
	}
	if err := read(map[string]string{"NODE.md": node, "a.md": child}, "many/d001.md"); err != nil {
		t.Fatalf("the commit's own bytes: %v", err)
	}
	if err := read(many); err != nil {
		t.Fatalf("the commit's own bytes, many documents: %v", err)
	}
	many["many/d007.md"] = "---\ntitle: Injected\n---\n"
	var ce *contracts.Error
	if err := read(many); !errors.As(err, &ce) || ce.Code != contracts.CodeSnapshotCorrupt {
		t.Errorf("one of many changed: %v, want SNAPSHOT_CORRUPT", err)
	}
	for name, docs := range map[string]map[string]string{
		"changed":         {"NODE.md": node, "a.md": "---\ntitle: Injected\n---\n"},
		"not in it":       {"NODE.md": node, "b.md": child},
		"a symlink in it": {"link.md": "a.md"},
	} {
		if err := read(docs); !errors.As(err, &ce) || ce.Code != contracts.CodeSnapshotCorrupt {
			t.Errorf("%s: %v, want SNAPSHOT_CORRUPT", name, err)
		}
	}
	if err := read(nil, "b.md"); !errors.As(err, &ce) || ce.Code != contracts.CodeSnapshotCorrupt {
		t.Errorf("a listed name not in it: %v, want SNAPSHOT_CORRUPT", err)
	}
}

// A snapshot's verdict is the commit's: verification that read a file
// changed in the snapshot since its check (here: the commit's invalid
// document replaced by a valid one, which would record the commit as
// verifying) is SNAPSHOT_CORRUPT.
func TestVerifySnapshotHoldsToTheCommit(t *testing.T) {
	repo, commit := gitrepo.Commit(t, map[string]string{
		"docs/NODE.md": "---\nschemaVersion: 1\ntitle: Docs\n---\nThe docs.\n", "docs/a.md": "---\ntitle: [A\n---\nA.\n",
	})
	docs := filepath.Join(repo, "docs")
	m := &Managed{Git: git.New(os.Environ())}
	snap := &Snapshot{Commit: commit, Cache: filepath.Join(repo, ".git"), Path: repo, TreeRoot: docs}
	c := Connection{Exact: "https://github.com/acme/handbook/tree/main/docs"}
	var ce *contracts.Error
	if _, err := m.verifySnapshotTree(context.Background(), c, snap); !errors.As(err, &ce) || ce.Code != contracts.CodeTreeInvalid {
		t.Fatalf("the commit's own bytes: %v, want TREE_INVALID", err)
	}
	gitrepo.Write(t, repo, "docs/a.md", "---\ntitle: A\n---\nA.\n")
	if _, err := m.verifySnapshotTree(context.Background(), c, snap); !errors.As(err, &ce) || ce.Code != contracts.CodeSnapshotCorrupt {
		t.Errorf("a swapped document: %v, want SNAPSHOT_CORRUPT", err)
	}
}

// A clean verification is also held to what it did not read: a commit's
// invalid document, or a whole directory of it, removed from the snapshot
// after its check would otherwise record the commit as verifying. The
// commit's infrastructure (never walked) is not asked for.
func TestVerifySnapshotHoldsAbsenceToTheCommit(t *testing.T) {
	node := "---\nschemaVersion: 1\ntitle: Docs\n---\nThe docs.\n"
	bad := "---\ntitle: [A\n---\nA.\n"
	repo, commit := gitrepo.Commit(t, map[string]string{
		"docs/NODE.md": node, "docs/ok.md": "---\ntitle: OK\n---\n",
		"docs/bad.md":         bad,
		"docs/sub/x.png":      "not a document, in a directory without NODE.md",
		"docs/.notes/n.md":    bad, // infrastructure: never walked
		"docs/scripts/s.md":   bad, // infrastructure at the tree's root
		"docs/deep/NODE.md":   "---\ntitle: Deep\n---\n",
		"docs/deep/x/NODE.md": "---\ntitle: X\n---\n",
	})
	docs := filepath.Join(repo, "docs")
	m := &Managed{Git: git.New(os.Environ())}
	snap := &Snapshot{Commit: commit, Cache: filepath.Join(repo, ".git"), Path: repo, TreeRoot: docs}
	c := Connection{Exact: "https://github.com/acme/handbook/tree/main/docs"}
	var ce *contracts.Error
	if _, err := m.verifySnapshotTree(context.Background(), c, snap); !errors.As(err, &ce) || ce.Code != contracts.CodeTreeInvalid {
		t.Fatalf("the commit's own tree: %v, want TREE_INVALID", err)
	}
	for _, removed := range []string{"docs/bad.md", "docs/sub", "docs/deep/x"} {
		if err := os.RemoveAll(filepath.Join(repo, filepath.FromSlash(removed))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.verifySnapshotTree(context.Background(), c, snap); !errors.As(err, &ce) || ce.Code != contracts.CodeSnapshotCorrupt {
		t.Errorf("documents and directories removed: %v, want SNAPSHOT_CORRUPT", err)
	}

	// The commit's tree, complete and valid, verifies: the infrastructure
	// it holds is not asked for.
	repo, commit = gitrepo.Commit(t, map[string]string{
		"docs/NODE.md": node, "docs/ok.md": "---\ntitle: OK\n---\n",
		"docs/.notes/n.md": bad, "docs/scripts/s.md": bad, "docs/deep/NODE.md": "---\ntitle: Deep\n---\n",
	})
	snap = &Snapshot{Commit: commit, Cache: filepath.Join(repo, ".git"), Path: repo, TreeRoot: filepath.Join(repo, "docs")}
	if _, err := m.verifySnapshotTree(context.Background(), c, snap); err != nil {
		t.Errorf("a complete, valid snapshot: %v", err)
	}
	os.Remove(filepath.Join(repo, "docs", "ok.md"))
	if _, err := m.verifySnapshotTree(context.Background(), c, snap); !errors.As(err, &ce) || ce.Code != contracts.CodeSnapshotCorrupt {
		t.Errorf("a valid document removed: %v, want SNAPSHOT_CORRUPT", err)
	}
}
