package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/testutil/fakegithub"
)

// forgetRecord removes a session's record by hand, as a user might: its
// folder becomes one no record names.
func forgetRecord(t *testing.T, env operations.Env, s *contracts.Session) {
	t.Helper()
	dir, err := env.Home.Dir("sessions")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, s.ID+".json")); err != nil {
		t.Fatal(err)
	}
}

// pruneUnknownOnce runs prune (with force) and returns what it made of
// the one folder dir: "" when removed, else the reason it was kept.
func pruneUnknownOnce(t *testing.T, ctx context.Context, env operations.Env, dir string, force bool) string {
	t.Helper()
	res, err := Prune(ctx, env, PruneRequest{Force: force})
	if err != nil {
		t.Fatalf("Prune: %v", err)
	}
	for _, u := range res.UnknownKept {
		if u.Worktree == dir {
			if _, err := os.Lstat(dir); err != nil {
				t.Errorf("%s is reported kept but is gone", dir)
			}
			return u.Reason
		}
	}
	for _, d := range res.UnknownRemoved {
		if d == dir {
			if _, err := os.Lstat(dir); err == nil {
				t.Errorf("%s is reported removed but is still there", dir)
			}
			return ""
		}
	}
	t.Fatalf("%s is neither kept nor removed: %+v", dir, res)
	return ""
}

// TestPruneForceRemovesOnlyUnknownFoldersHoldingNothing: a folder no
// record names is judged as the session it would be; --force removes it
// only when it holds no edit and no commit of its own (S14), and keeps
// the others with the reason. Without --force nothing is removed.
func TestPruneForceRemovesOnlyUnknownFoldersHoldingNothing(t *testing.T) {
	ctx := context.Background()
	keptFor := func(t *testing.T, want, got string) {
		t.Helper()
		if got == "" {
			t.Fatalf("removed; want kept because %q", want)
		}
		if !strings.Contains(got, want) {
			t.Errorf("reason %q, want one saying %q", got, want)
		}
	}

	t.Run("pristine directory session", func(t *testing.T) {
		env, s := directorySession(t, ctx, t.TempDir(), nil)
		forgetRecord(t, env, s)
		keptFor(t, "holds nothing of its own", pruneUnknownOnce(t, ctx, env, s.Worktree, false))
		if why := pruneUnknownOnce(t, ctx, env, s.Worktree, true); why != "" {
			t.Fatalf("kept: %s", why)
		}
		if _, err := os.Lstat(filepath.Join(env.Home.Path("sessions"), s.ID+".homeconfig")); err == nil {
			t.Error("the session's home configuration record was left behind")
		}
		if tip := homeTip(t, s); tip != s.Base {
			t.Errorf("the home repository's session branch is at %q, want it left at %s", tip, s.Base)
		}
	})
	t.Run("edited", func(t *testing.T) {
		env, s := directorySession(t, ctx, t.TempDir(), nil)
		writeKillFile(t, filepath.Join(s.ContentRoot, "area", "NODE.md"), killEdit(1, 1))
		forgetRecord(t, env, s)
		keptFor(t, "has edits (1 changed file(s) such as docs/ctx/area/NODE.md)", pruneUnknownOnce(t, ctx, env, s.Worktree, true))
	})
	t.Run("new file outside the tree", func(t *testing.T) {
		env, s := directorySession(t, ctx, t.TempDir(), nil)
		writeKillFile(t, filepath.Join(s.Worktree, "notes.txt"), "mine\n")
		forgetRecord(t, env, s)
		keptFor(t, "has edits", pruneUnknownOnce(t, ctx, env, s.Worktree, true))
	})
	t.Run("ignored file", func(t *testing.T) {
		env, s := directorySession(t, ctx, t.TempDir(), map[string]string{".gitignore": "*.log\n"})
		writeKillFile(t, filepath.Join(s.ContentRoot, "draft.log"), "a draft\n")
		forgetRecord(t, env, s)
		keptFor(t, "ignored files such as docs/ctx/draft.log", pruneUnknownOnce(t, ctx, env, s.Worktree, true))
	})
	t.Run("commit made in the session", func(t *testing.T) {
		env, s := directorySession(t, ctx, t.TempDir(), nil)
		writeKillFile(t, filepath.Join(s.ContentRoot, "area", "NODE.md"), killEdit(2, 2))
		runGit(t, s.Worktree, "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-am", "agent's own commit")
		runGit(t, s.Worktree, "reset", "-q", "--hard")
		forgetRecord(t, env, s)
		keptFor(t, "a commit "+s.Repository.CommonDir+" does not keep", pruneUnknownOnce(t, ctx, env, s.Worktree, true))
	})
	t.Run("home named inside the folder", func(t *testing.T) {
		env, s := directorySession(t, ctx, t.TempDir(), nil)
		evil := filepath.Join(s.Worktree, "evil")
		runGit(t, s.Worktree, "init", "-q", "evil")
		alternates := filepath.Join(s.Worktree, ".git", "objects", "info", "alternates")
		if err := os.WriteFile(alternates, []byte(filepath.Join(evil, ".git", "objects")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		forgetRecord(t, env, s)
		keptFor(t, "lies where agents write", pruneUnknownOnce(t, ctx, env, s.Worktree, true))
	})
	t.Run("in use", func(t *testing.T) {
		env, s := directorySession(t, ctx, t.TempDir(), nil)
		forgetRecord(t, env, s)
		unlock, err := lockSession(env, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
		env.LockWait = 0
		keptFor(t, "another git-context-tree command is using it", pruneUnknownOnce(t, ctx, env, s.Worktree, true))
	})
	t.Run("not a session", func(t *testing.T) {
		env, s := directorySession(t, ctx, t.TempDir(), nil)
		wt := filepath.Dir(s.Worktree)
		empty, other := filepath.Join(wt, "empty"), filepath.Join(wt, "left-behind")
		writeKillFile(t, filepath.Join(other, "draft.md"), "a draft\n")
		if err := os.Mkdir(empty, 0o700); err != nil {
			t.Fatal(err)
		}
		res, err := Prune(ctx, env, PruneRequest{Force: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.UnknownKept) != 1 || res.UnknownKept[0].Worktree != other {
			t.Fatalf("kept %+v, want only %s", res.UnknownKept, other)
		}
		keptFor(t, "not named like a session", res.UnknownKept[0].Reason)
		if len(res.UnknownRemoved) != 1 || res.UnknownRemoved[0] != empty {
			t.Errorf("removed %v, want only %s", res.UnknownRemoved, empty)
		}
		if _, err := os.Lstat(filepath.Join(other, "draft.md")); err != nil {
			t.Errorf("the draft is gone: %v", err)
		}
	})
	handbook := map[string]string{"README.md": "The repository.\n", "docs/NODE.md": killRoot, "docs/area/NODE.md": killArea}
	t.Run("git source session", func(t *testing.T) {
		fakegithub.New(t).Publish("acme/handbook", "main", handbook)
		env, s := gitSourceSession(t, ctx)
		forgetRecord(t, env, s)
		if why := pruneUnknownOnce(t, ctx, env, s.Worktree, true); why != "" {
			t.Fatalf("kept: %s", why)
		}
	})
	t.Run("git source session, edited", func(t *testing.T) {
		fakegithub.New(t).Publish("acme/handbook", "main", handbook)
		env, s := gitSourceSession(t, ctx)
		writeKillFile(t, filepath.Join(s.ContentRoot, "page.md"), "---\ntitle: Page\n---\n\nA page.\n")
		forgetRecord(t, env, s)
		keptFor(t, "has edits (1 changed file(s) such as docs/page.md)", pruneUnknownOnce(t, ctx, env, s.Worktree, true))
	})
}
