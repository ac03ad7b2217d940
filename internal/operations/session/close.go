package session

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// closeSession removes a session's worktree and its branch in the home
// repository once its work is safe elsewhere (published or merged), and
// keeps the record as history.
func closeSession(ctx context.Context, env operations.Env, s *contracts.Session) error {
	if err := removeSessionParts(ctx, env, s); err != nil {
		return err
	}
	s.ClosedAt = time.Now().UTC().Format(time.RFC3339)
	return saveSession(env, s)
}

// removeSessionParts removes the session's worktree and its branch in the
// home repository; parts already removed by hand are fine. The branch is
// deleted only while it is at the session's commit (or base), and the
// worktree only while it is a session repository, never anything that
// took its place.
func removeSessionParts(ctx context.Context, env operations.Env, s *contracts.Session) error {
	if gd, err := os.Lstat(sessionGitDir(s)); err == nil && gd.IsDir() {
		if fi, err := os.Lstat(s.Worktree); err == nil && fi.IsDir() {
			if err := os.RemoveAll(s.Worktree); err != nil {
				return contracts.Errorf(contracts.CodeIO, "cannot remove the session worktree %s: %v", s.Worktree, err)
			}
		}
	} else if _, err := os.Lstat(s.Worktree); !errors.Is(err, fs.ErrNotExist) {
		return contracts.Errorf(contracts.CodeSessionNotEmpty, "%s exists but is not the session's worktree; nothing was removed", s.Worktree).
			WithDetails(map[string]any{"session": s.ID, "worktree": s.Worktree})
	}
	// Usually the branch is where this run left it: deleting it at that
	// commit needs no look first (a branch elsewhere fails and is looked at).
	expected := s.Commit
	if expected == "" {
		expected = s.Base
	}
	if dropHome(ctx, env, s, expected) == nil {
		removeBaseIndexes(env, s.ID)
		return nil
	}
	tip, err := env.Git.ResolveCommit(ctx, s.Repository.CommonDir, homeRef(s))
	if err != nil {
		return operations.GitError(err)
	}
	// A branch moved by someone else is theirs: only the keep ref goes.
	old := tip
	if tip != "" && tip != s.Commit && tip != s.Base {
		old = ""
	}
	updates := []git.RefUpdate{{Ref: keepRef(s)}}
	if old != "" {
		updates = append(updates, git.RefUpdate{Ref: homeRef(s), Old: old})
	}
	if err := env.Git.UpdateRefs(ctx, s.Repository.CommonDir, updates); err != nil {
		return operations.GitError(err)
	}
	removeBaseIndexes(env, s.ID)
	return nil
}
