package operations

import (
	"context"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Abort removes a session that holds no work: its worktree, branch and
// record. A session with edits (ignored files included) or a commit is
// refused with SESSION_NOT_EMPTY and nothing is removed (S14): the CLI
// never discards work.
func Abort(ctx context.Context, env Env, id string) (*contracts.SessionResult, error) {
	s, err := loadSession(env, id)
	if err != nil {
		return nil, err
	}
	unlock, err := lockSession(env, s.ID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	notEmpty := func(why string) error {
		return contracts.Errorf(contracts.CodeSessionNotEmpty, "session %s %s; nothing was removed (its worktree is %s)", s.ID, why, s.Worktree).
			WithDetails(map[string]any{"session": s.ID, "worktree": s.Worktree})
	}
	if s.State != contracts.SessionOpen {
		return nil, notEmpty("has a commit (" + s.Commit + ")")
	}
	tip, err := env.Git.ResolveCommit(ctx, s.Repository.CommonDir, "refs/heads/"+s.Branch)
	if err != nil {
		return nil, gitErr(err)
	}
	if tip != "" && tip != s.Base {
		return nil, notEmpty("has commits on " + s.Branch)
	}
	worktreeGone := false
	if _, err := checkWorktree(ctx, env, s, s.Base); err != nil {
		ce, _ := err.(*contracts.Error)
		if ce == nil || ce.Code != contracts.CodeSessionStale {
			return nil, notEmpty("is not at its base commit on its branch")
		}
		worktreeGone = true
	} else {
		entries, err := env.Git.Status(ctx, s.Worktree)
		if err != nil {
			return nil, gitErr(err)
		}
		if len(entries) > 0 {
			return nil, notEmpty("has edits")
		}
	}
	if worktreeGone {
		if err := removedWorktreeOnly(s); err != nil {
			return nil, err
		}
		env.Git.WorktreePrune(ctx, s.Repository.CommonDir)
	} else if err := env.Git.WorktreeRemove(ctx, s.Repository.CommonDir, s.Worktree); err != nil {
		return nil, gitErr(err)
	}
	if tip != "" {
		if err := env.Git.DeleteBranch(ctx, s.Repository.CommonDir, s.Branch); err != nil {
			return nil, gitErr(err)
		}
	}
	if err := deleteSession(env, s.ID); err != nil {
		return nil, err
	}
	s.Head = s.Base
	return &contracts.SessionResult{SchemaVersion: contracts.CLIVersion, Session: s, Removed: true}, nil
}

// removedWorktreeOnly allows aborting a session whose worktree directory is
// gone, but never one whose path now holds something else.
func removedWorktreeOnly(s *contracts.Session) error {
	if _, err := lstat(s.Worktree); err == nil {
		return contracts.Errorf(contracts.CodeSessionNotEmpty, "%s exists but is not the session's worktree; nothing was removed", s.Worktree)
	}
	return nil
}
