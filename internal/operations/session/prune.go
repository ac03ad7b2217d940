package session

import (
	"context"
	"errors"
	"os"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// Prune removes every closed session: its work published or
// merged, or no edits and no commits at all. Their worktrees, branches and
// records go; every other session is kept and reported with what moves it
// on. Parts removed by hand are fine. A session in use (its lock held) is
// kept.
func Prune(ctx context.Context, env operations.Env) (*contracts.SessionPrune, error) {
	ids, err := listSessionIDs(env)
	if err != nil {
		return nil, err
	}
	res := &contracts.SessionPrune{SchemaVersion: contracts.CLIVersion, Removed: []*contracts.Session{}, Kept: []contracts.SessionKept{}}
	for _, id := range ids {
		s, why, err := pruneOne(ctx, env, id)
		if err != nil {
			return nil, err
		}
		if why != "" {
			res.Kept = append(res.Kept, contracts.SessionKept{ID: s.ID, Status: s.Status, Reason: why})
		} else {
			res.Removed = append(res.Removed, s)
		}
	}
	return res, nil
}

// pruneOne removes one session if it is closed, or says why not.
func pruneOne(ctx context.Context, env operations.Env, id string) (*contracts.Session, string, error) {
	s, err := loadSession(env, id)
	if err != nil {
		return nil, "", err
	}
	unlock, err := lockSession(env, s.ID)
	var ce *contracts.Error
	if errors.As(err, &ce) && ce.Code == contracts.CodeLockHeld {
		describe(ctx, env, s)
		return s, "another git-context-tree command is using it", nil
	}
	if err != nil {
		return nil, "", err
	}
	defer unlock()
	clearStaleRefLocks(s)
	describe(ctx, env, s)
	// A session whose .git reaches beyond it is kept, whatever its state,
	// for the user to look at (SESSION_TAMPERED names what and where).
	if gd, err := os.Lstat(sessionGitDir(s)); err == nil && gd.IsDir() {
		if err := checkSessionRepo(ctx, env, s); err != nil {
			return s, string(contracts.CodeSessionTampered) + ": " + err.Error(), nil
		}
	}
	switch s.Status {
	case contracts.StatusPublished, contracts.StatusMerged:
	case contracts.StatusOpen:
		if why, err := openSessionWork(ctx, env, s); err != nil || why != "" {
			return s, why, err
		}
	default:
		return s, holdsWork(s), nil
	}
	if err := removeSessionParts(ctx, env, s); err != nil {
		return nil, "", err
	}
	if err := deleteSession(env, s.ID); err != nil {
		return nil, "", err
	}
	return s, "", nil
}

// openSessionWork says what an open session holds that prune must keep:
// edits, or commits made in it; "" when it holds nothing.
func openSessionWork(ctx context.Context, env operations.Env, s *contracts.Session) (string, error) {
	tip, err := env.Git.ResolveCommit(ctx, s.Repository.CommonDir, homeRef(s))
	if err != nil {
		return "", operations.GitError(err)
	}
	if tip != "" && tip != s.Base {
		return "its branch " + s.Branch + " has a commit: run `git context-tree write finish " + s.ID + "`", nil
	}
	ins, err := Inspect(ctx, env, s, InspectOptions{})
	if err != nil {
		if ce, ok := err.(*contracts.Error); ok && ce.Code == contracts.CodeSessionStale && removedWorktreeOnly(s) == nil {
			return "", nil // the worktree was removed by hand: nothing is left in it
		}
		return "it cannot be judged empty: " + err.Error(), nil
	}
	defer ins.Close()
	if ins.Empty() {
		return "", nil
	}
	return "it has edits (" + describeWork(ins) + "): run `git context-tree write finish " + s.ID + "`, or remove them and abort it", nil
}

// holdsWork says what to do with a committed session whose commit exists
// only on its own branch.
func holdsWork(s *contracts.Session) string {
	switch {
	case s.Status == contracts.StatusRejected:
		return "its publication was refused because " + s.TargetBranch + " moved on; its commit " + s.Commit + " is only on " + s.Branch
	case s.Repository.Kind == contracts.SourceGit:
		return "its commit " + s.Commit + " is not published: run `git context-tree write finish --publish " + s.ID + "`"
	default:
		return "its commit " + s.Commit + " is only on branch " + s.Branch + ": merge it into " + orNone(s.TargetBranch) + ", then prune again"
	}
}
