package operations

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// What a read of a snapshot parsed is held to the commit's blobs: bytes
// that changed after the snapshot's integrity check (a file swapped in
// between the check and the read) or a document the commit does not hold
// are SNAPSHOT_CORRUPT; the commit's own bytes pass.
func TestServedBlobsHoldReadsToTheCommit(t *testing.T) {
	repo := t.TempDir()
	gitIn := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	gitIn("init", "-q")
	node := "---\nschemaVersion: 1\ntitle: Docs\n---\nThe docs.\n"
	child := "---\ntitle: A\n---\nA.\n"
	files := map[string]string{"docs/NODE.md": node, "docs/a.md": child}
	many := map[string]string{} // more than maxListedPaths: Check lists the subtree once
	for i := range maxListedPaths + 44 {
		rel := fmt.Sprintf("many/d%03d.md", i)
		files["docs/"+rel] = fmt.Sprintf("---\ntitle: D%d\n---\n", i)
		many[rel] = files["docs/"+rel]
	}
	for name, content := range files {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitIn("add", "-A")
	gitIn("commit", "-q", "-m", "docs")
	commit := gitIn("rev-parse", "HEAD")
	env := Env{Dir: repo, Vars: os.Environ(), Git: git.New(os.Environ())}
	target := TreeTarget{
		Root:     filepath.Join(repo, "docs"),
		Conn:     &sources.Connection{Exact: "https://github.com/acme/handbook/tree/main/docs"},
		Snapshot: &sources.Snapshot{Commit: commit, Cache: filepath.Join(repo, ".git"), Path: repo},
	}
	read := func(docs map[string]string) error {
		b := target.ServedBlobs()
		observe := b.Observer()
		for rel, data := range docs {
			observe(rel, []byte(data))
		}
		return b.Check(context.Background(), env, target)
	}
	if err := read(map[string]string{"NODE.md": node, "a.md": child}); err != nil {
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
		"changed":   {"NODE.md": node, "a.md": "---\ntitle: Injected\n---\n"},
		"not in it": {"NODE.md": node, "b.md": child},
	} {
		if err := read(docs); !errors.As(err, &ce) || ce.Code != contracts.CodeSnapshotCorrupt {
			t.Errorf("%s: %v, want SNAPSHOT_CORRUPT", name, err)
		}
	}
}
