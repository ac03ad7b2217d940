package session

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/testutil/fakegithub"
)

// swappingGit points env at a git that runs the shell command before just
// before the capture's `git add` and after just after it: an agent
// swapping a session file at those moments, made deterministic.
func swappingGit(t *testing.T, env *operations.Env, before, after string) {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := "#!/bin/sh\ncase \" $* \" in\n*' add --all '*)\n" + before + "\n'" + real + "' \"$@\"\nrc=$?\n" + after +
		"\nexit $rc;;\nesac\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env.Git = &git.Git{Path: filepath.Join(dir, "git"), Env: env.Git.Env}
}

// copyTo is a shell command that writes content to the file target.
func copyTo(t *testing.T, content, target string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "content")
	writeKillFile(t, p, content)
	return "cp '" + p + "' '" + target + "'"
}

// blobID is content's blob id (not written anywhere).
func blobID(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "content")
	writeKillFile(t, p, content)
	return runGit(t, filepath.Dir(p), "hash-object", "--no-filters", p)
}

// errorCode is err's contract code, "" for none.
func errorCode(err error) contracts.ErrorCode {
	var ce *contracts.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	return ""
}

// inObjects reports whether the home repository holds the object id.
func inObjects(t *testing.T, s *contracts.Session, id string) bool {
	t.Helper()
	return exec.Command("git", "--git-dir="+s.Repository.CommonDir, "cat-file", "-e", id).Run() == nil
}

// homeTip is the session branch's commit in the home repository.
func homeTip(t *testing.T, s *contracts.Session) string {
	t.Helper()
	return runGit(t, s.Repository.CommonDir, "rev-parse", "refs/heads/"+s.Branch)
}

// TestFinishJudgesStagedSize is the red team's race: a file over the
// per-file bound moved into the tree just before git add, after anything
// finish could have looked at on disk, and shrunk again just after.
// finish judges the size of what it staged: SESSION_TOO_LARGE, nothing
// committed, and the big blob never reaches the home repository's
// objects.
func TestFinishJudgesStagedSize(t *testing.T) {
	fakegithub.New(t) // a private HOME and git identity
	ctx := context.Background()
	env, s := directorySession(t, ctx, t.TempDir(), nil)
	target := filepath.Join(s.ContentRoot, "area", "data.bin")
	writeKillFile(t, target, "small\n")
	big := strings.Repeat("x", int(DefaultMaxFileSize)+1)
	bigBlob := blobID(t, big)
	swappingGit(t, &env, copyTo(t, big, target), copyTo(t, "small\n", target))

	_, err := Finish(ctx, env, FinishRequest{ID: s.ID, Message: "add data"})
	if errorCode(err) != contracts.CodeSessionTooLarge {
		t.Fatalf("finish with a big file staged: %v, want SESSION_TOO_LARGE", err)
	}
	if tip := homeTip(t, s); tip != s.Base {
		t.Errorf("the session branch moved to %s", tip)
	}
	if inObjects(t, s, bigBlob) {
		t.Errorf("the refused blob %s is in the home repository's objects", bigBlob)
	}
}

// TestFinishJudgesStagedContent: what finish verifies and commits is what
// it staged, whatever the file holds before or after. A broken document
// staged and fixed on disk just after is refused (and its blob kept out of
// the home repository); a valid one staged and broken on disk just after
// is committed as staged.
func TestFinishJudgesStagedContent(t *testing.T) {
	fakegithub.New(t)
	ctx := context.Background()
	const broken = "---\ntitle: [unclosed\n"
	valid := killEdit(1, 1)
	validBlob, brokenBlob := blobID(t, valid), blobID(t, broken)

	t.Run("broken staged", func(t *testing.T) {
		env, s := directorySession(t, ctx, t.TempDir(), nil)
		target := filepath.Join(s.ContentRoot, "area", "NODE.md")
		writeKillFile(t, target, valid)
		swappingGit(t, &env, copyTo(t, broken, target), copyTo(t, valid, target))
		_, err := Finish(ctx, env, FinishRequest{ID: s.ID, Message: "edit"})
		if errorCode(err) != contracts.CodeTreeInvalid {
			t.Fatalf("finish with a broken document staged: %v, want TREE_INVALID", err)
		}
		if tip := homeTip(t, s); tip != s.Base {
			t.Errorf("the session branch moved to %s", tip)
		}
		if inObjects(t, s, brokenBlob) {
			t.Errorf("the refused blob %s is in the home repository's objects", brokenBlob)
		}
	})
	t.Run("valid staged", func(t *testing.T) {
		env, s := directorySession(t, ctx, t.TempDir(), nil)
		target := filepath.Join(s.ContentRoot, "area", "NODE.md")
		writeKillFile(t, target, broken)
		swappingGit(t, &env, copyTo(t, valid, target), copyTo(t, broken, target))
		_, err := Finish(ctx, env, FinishRequest{ID: s.ID, Message: "edit"})
		// The commit is made; the work tree changed under it is reported.
		if errorCode(err) != contracts.CodeSessionMoved {
			t.Fatalf("finish with a valid document staged, broken after: %v, want SESSION_MOVED after committing", err)
		}
		tip := homeTip(t, s)
		if got := runGit(t, s.Repository.CommonDir, "rev-parse", tip+":"+s.Subtree+"/area/NODE.md"); got != validBlob {
			t.Errorf("committed area/NODE.md is %s, want the staged valid content %s", got, validBlob)
		}
		if inObjects(t, s, brokenBlob) {
			t.Errorf("the broken blob %s, never staged, is in the home repository's objects", brokenBlob)
		}
	})
}
