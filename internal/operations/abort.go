package operations

import (
	"context"
	"os"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Abort removes a session that holds no work: its work tree, its branch in
// the home repository, its private index and its record. A session with
// edits (ignored files included) or a commit is refused with
// SESSION_NOT_EMPTY and nothing is removed (S14): the CLI never discards
// work. Edits are judged like finish judges them, from the files on disk
// through the session's private index.
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
	clearStaleRefLocks(s)
	notEmpty := func(why string) error {
		return contracts.Errorf(contracts.CodeSessionNotEmpty, "session %s %s; nothing was removed (its worktree is %s)", s.ID, why, s.Worktree).
			WithDetails(map[string]any{"session": s.ID, "worktree": s.Worktree})
	}
	if s.State != contracts.SessionOpen {
		describe(ctx, env, s)
		if s.Status == contracts.StatusPublished || s.Status == contracts.StatusMerged {
			return nil, notEmpty("is " + s.Status + ": `git context-tree write prune` removes it")
		}
		return nil, notEmpty("holds work that exists nowhere else: " + holdsWork(s))
	}
	tip, err := env.Git.ResolveCommit(ctx, s.Repository.CommonDir, homeRef(s))
	if err != nil {
		return nil, gitErr(err)
	}
	if tip != "" && tip != s.Base {
		return nil, notEmpty("has commits on " + s.Branch)
	}
	worktreeGone := false
	if err := checkWorktree(ctx, env, s, s.Base); err != nil {
		ce, _ := err.(*contracts.Error)
		if ce != nil && ce.Code == contracts.CodeSessionTampered {
			return nil, err
		}
		if ce == nil || ce.Code != contracts.CodeSessionStale {
			return nil, notEmpty("is not at its base commit on its branch")
		}
		if err := removedWorktreeOnly(s); err != nil {
			return nil, err
		}
		worktreeGone = true
	} else if edited, err := hasEdits(ctx, env, s); err != nil {
		return nil, err
	} else if edited {
		return nil, notEmpty("has edits: finish it with `git context-tree write finish " + s.ID + "`, or remove them first")
	}
	if !worktreeGone {
		if err := os.RemoveAll(s.Worktree); err != nil {
			return nil, contracts.Errorf(contracts.CodeIO, "cannot remove the session worktree %s: %v", s.Worktree, err)
		}
	}
	if tip != "" {
		if err := env.Git.DeleteRef(ctx, s.Repository.CommonDir, homeRef(s), s.Base); err != nil {
			return nil, gitErr(err)
		}
	}
	if err := deleteSession(env, s.ID); err != nil {
		return nil, err
	}
	s.Head = s.Base
	return &contracts.SessionResult{SchemaVersion: contracts.CLIVersion, Session: s, Removed: true}, nil
}

// hasEdits reports whether the session's files differ from its base in
// any way finish would see: content, modes, new files, ignored files.
func hasEdits(ctx context.Context, env Env, s *contracts.Session) (bool, error) {
	if nestedGit(s.Worktree) != "" {
		return true, nil
	}
	c, err := captureSession(ctx, env, s, false)
	if err != nil {
		return false, err
	}
	defer c.discard()
	base, err := env.Git.ResolveTree(ctx, s.Repository.CommonDir, s.Base)
	if err != nil {
		return false, gitErr(err)
	}
	return c.tree != base || len(c.ignored) > 0, nil
}

// removedWorktreeOnly allows aborting a session whose worktree directory is
// gone, but never one whose path now holds something else.
func removedWorktreeOnly(s *contracts.Session) error {
	if _, err := os.Lstat(s.Worktree); err == nil {
		return contracts.Errorf(contracts.CodeSessionNotEmpty, "%s exists but is not the session's worktree; nothing was removed", s.Worktree)
	}
	return nil
}
