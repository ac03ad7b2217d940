package session

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// Abort removes a session that holds no work: its work tree, its branch in
// the home repository, its private index and its record. A session with
// edits (ignored files included) or a commit is refused with
// SESSION_NOT_EMPTY and nothing is removed (S14): the CLI never discards
// work. Edits are judged like finish judges them, from the files on disk
// through the session's private index.
func Abort(ctx context.Context, env operations.Env, id string) (*contracts.SessionResult, error) {
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
		return nil, operations.GitError(err)
	}
	if tip != "" && tip != s.Base {
		return nil, notEmpty("has commits on " + s.Branch)
	}
	worktreeGone := false
	ins, err := Inspect(ctx, env, s, InspectOptions{})
	if err != nil {
		ce, _ := err.(*contracts.Error)
		if ce != nil && ce.Code == contracts.CodeSessionTampered {
			return nil, err
		}
		if ce == nil || ce.Code != contracts.CodeSessionStale {
			return nil, notEmpty("cannot be judged empty (" + err.Error() + ")")
		}
		if err := removedWorktreeOnly(s); err != nil {
			return nil, err
		}
		worktreeGone = true
	} else {
		empty := ins.Empty()
		ins.Close()
		if !empty {
			return nil, notEmpty("has edits (" + describeWork(ins) + "): finish it with `git context-tree write finish " + s.ID + "`, or remove them first")
		}
	}
	if !worktreeGone {
		if err := os.RemoveAll(s.Worktree); err != nil {
			return nil, contracts.Errorf(contracts.CodeIO, "cannot remove the session worktree %s: %v", s.Worktree, err)
		}
	}
	if tip != "" {
		if err := dropHome(ctx, env, s, s.Base); err != nil {
			return nil, operations.GitError(err)
		}
	}
	if err := deleteSession(env, s.ID); err != nil {
		return nil, err
	}
	s.Head = s.Base
	return &contracts.SessionResult{SchemaVersion: contracts.CLIVersion, Session: s, Removed: true}, nil
}

// describeWork names what an inspection found, for a refusal.
func describeWork(ins *Inspection) string {
	var parts []string
	if ins.Nested != "" {
		parts = append(parts, "a nested repository at "+ins.Nested)
	}
	if n := len(ins.Changes); n > 0 {
		parts = append(parts, fmt.Sprintf("%d changed file(s) such as %s", n, ins.Changes[0].Path))
	}
	if len(ins.Ignored) > 0 {
		parts = append(parts, "ignored files such as "+ins.Ignored[0])
	}
	if len(ins.Outside) > 0 {
		parts = append(parts, "paths outside the tree such as "+ins.Outside[0])
	}
	return strings.Join(parts, "; ")
}

// removedWorktreeOnly allows aborting a session whose worktree directory is
// gone, but never one whose path now holds something else.
func removedWorktreeOnly(s *contracts.Session) error {
	if _, err := os.Lstat(s.Worktree); err == nil {
		return contracts.Errorf(contracts.CodeSessionNotEmpty, "%s exists but is not the session's worktree; nothing was removed", s.Worktree)
	}
	return nil
}
