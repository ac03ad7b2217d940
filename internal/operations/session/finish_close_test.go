package session

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-context-tree/git-context-tree/internal/testutil/fakegithub"
)

// TestFinishCompletesInterruptedClose: finish --publish closes the session
// after publishing it; a finish killed while closing (the record says
// published, its worktree half removed, its branch still there) is closed
// by the next finish --publish, which reports the same commit.
func TestFinishCompletesInterruptedClose(t *testing.T) {
	gh := fakegithub.New(t)
	ctx := context.Background()
	gh.Publish("acme/handbook", "main", map[string]string{"docs/NODE.md": killRoot, "docs/area/NODE.md": killArea})
	env, s := gitSourceSession(t, ctx)
	writeKillFile(t, filepath.Join(s.ContentRoot, "area", "NODE.md"), killEdit(1, 1))
	kept, err := Finish(ctx, env, FinishRequest{ID: s.ID, Publish: true, Keep: true})
	if err != nil || kept.Closed {
		t.Fatalf("finish --publish --keep: %v, closed %v", err, kept != nil && kept.Closed)
	}
	// The kill: part of the worktree is gone, the branch is still there.
	if err := os.RemoveAll(s.ContentRoot); err != nil {
		t.Fatal(err)
	}
	again, err := Finish(ctx, env, FinishRequest{ID: s.ID, Publish: true})
	if err != nil || !again.Closed || again.Commit != kept.Commit {
		t.Fatalf("finish --publish after the kill: %v, %+v; want closed at %s", err, again, kept.Commit)
	}
	if _, err := os.Lstat(s.Worktree); !os.IsNotExist(err) {
		t.Errorf("the worktree is still there: %v", err)
	}
	if tip, _ := env.Git.ResolveCommit(ctx, s.Repository.CommonDir, homeRef(s)); tip != "" {
		t.Errorf("the session branch is still at %s", tip)
	}
	show, err := Show(ctx, env, s.ID)
	if err != nil || show.Session.Status != "published" || show.Session.ClosedAt == "" || len(show.Session.Missing) != 0 {
		t.Fatalf("show: %v, %+v", err, show)
	}
}
