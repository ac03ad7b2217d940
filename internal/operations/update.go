package operations

import (
	"context"
	"fmt"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
)

// UpdateRequest is what `write update` was asked to do.
type UpdateRequest struct {
	ID       string
	Continue bool
	Abort    bool
}

// UpdateSession moves a committed session of a git source onto the new tip
// of its target branch, explicitly (S14: finish never does): it syncs the
// source, applies the session's commit onto the tip in the session's
// worktree and, when that applies cleanly, makes the result the session's
// edits on the new base, for finish to verify, commit and publish. On a
// conflict it stops with the conflicts in the worktree; Continue completes
// it once they are resolved, Abort puts the session back as it was.
func UpdateSession(ctx context.Context, env Env, req UpdateRequest) (*contracts.SessionResult, error) {
	s, unlock, err := openSession(ctx, env, req.ID, func(s *contracts.Session) error {
		if s.Repository.Kind != contracts.SourceGit {
			return updateRefused(s, "write update moves a git source's session onto the new tip of its branch; a directory source's commit stays on "+s.Branch+" for you to merge")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	defer unlock()
	w := git.WorkTree{GitDir: sessionGitDir(s), Dir: s.Worktree}
	switch {
	case req.Abort:
		return abortUpdate(ctx, env, s, w)
	case req.Continue:
		return continueUpdate(ctx, env, s, w)
	case s.Update != nil:
		return nil, updateRefused(s, "an update is in progress: resolve the conflicts in "+s.Worktree+", then run `git context-tree write update --continue "+s.ID+"` (or --abort)")
	case s.State != contracts.SessionCommitted:
		return nil, updateRefused(s, "only a committed session that is not published can be updated (this one is "+s.State+")")
	}
	if err := checkCommittedSession(ctx, env, s); err != nil {
		return nil, err
	}
	tip, err := syncTarget(ctx, env, s)
	if err != nil {
		return nil, err
	}
	if tip == s.Base {
		return nil, updateRefused(s, fmt.Sprintf("%s is still at the session's base %.12s: there is nothing to update onto; run `git context-tree write finish --publish %s`", s.TargetBranch, s.Base, s.ID))
	}
	s.Update = &contracts.SessionUpdate{From: s.Commit, Onto: tip}
	if err := saveSession(env, s); err != nil {
		return nil, err
	}
	if err := env.Git.ResetHardTo(ctx, w, tip); err != nil {
		return nil, gitErr(err)
	}
	conflicted, err := env.Git.ApplyCommit(ctx, w, s.Update.From)
	if err != nil {
		return nil, gitErr(err)
	}
	if conflicted {
		return nil, updateConflict(ctx, env, s, w)
	}
	return completeUpdate(ctx, env, s, w)
}

// syncTarget syncs the session's source and returns its branch's new tip.
func syncTarget(ctx context.Context, env Env, s *contracts.Session) (string, error) {
	env.Dir = s.ProjectRoot
	res, err := Sync(ctx, env, []string{s.Connection.Exact}, false)
	if err != nil {
		return "", err
	}
	e := res.Connections[0]
	if !e.OK {
		return "", e.Error
	}
	return e.Repository.Commit, nil
}

// continueUpdate completes an update whose conflicts were resolved.
func continueUpdate(ctx context.Context, env Env, s *contracts.Session, w git.WorkTree) (*contracts.SessionResult, error) {
	if s.Update == nil {
		return nil, updateRefused(s, "no update is in progress for this session")
	}
	if err := checkWorktree(ctx, env, s, s.Update.Onto); err != nil {
		return nil, err
	}
	unmerged, err := env.Git.Unmerged(ctx, w)
	if err != nil {
		return nil, gitErr(err)
	}
	if len(unmerged) > 0 {
		return nil, updateConflict(ctx, env, s, w)
	}
	return completeUpdate(ctx, env, s, w)
}

// completeUpdate makes the applied work the session's edits on its new
// base: the home branch moves from the old commit to the tip, the record
// is open again, and finish will judge the files like any edits.
func completeUpdate(ctx context.Context, env Env, s *contracts.Session, w git.WorkTree) (*contracts.SessionResult, error) {
	env.Git.ForgetApply(ctx, w) // no cherry-pick state may outlive the update
	if err := env.Git.SetRef(ctx, s.Repository.CommonDir, homeRef(s), s.Update.Onto, s.Update.From); err != nil {
		return nil, gitErr(err)
	}
	s.Base, s.State, s.Commit, s.Rejected, s.Update = s.Update.Onto, contracts.SessionOpen, "", false, nil
	if err := saveSession(env, s); err != nil {
		return nil, err
	}
	writeBaseIndex(ctx, env, s)
	res := sessionResult(s, contracts.ResultUpdated)
	return res, nil
}

// abortUpdate puts the session back on its commit, as before the update.
func abortUpdate(ctx context.Context, env Env, s *contracts.Session, w git.WorkTree) (*contracts.SessionResult, error) {
	if s.Update == nil {
		return nil, updateRefused(s, "no update is in progress for this session")
	}
	env.Git.ForgetApply(ctx, w)
	if err := env.Git.ResetHardTo(ctx, w, s.Update.From); err != nil {
		return nil, gitErr(err)
	}
	s.Update = nil
	if err := saveSession(env, s); err != nil {
		return nil, err
	}
	return sessionResult(s, s.State), nil
}

func updateConflict(ctx context.Context, env Env, s *contracts.Session, w git.WorkTree) error {
	paths, _ := env.Git.Unmerged(ctx, w)
	return contracts.Errorf(contracts.CodeUpdateConflict,
		"the session's commit does not apply cleanly onto %.12s: resolve the conflicts in %s (edit the files; no commit is needed), then run `git context-tree write update --continue %s`, or `--abort` to go back",
		s.Update.Onto, s.Worktree, s.ID).WithDetails(map[string]any{"session": s.ID, "worktree": s.Worktree, "paths": paths})
}

func updateRefused(s *contracts.Session, why string) error {
	return contracts.Errorf(contracts.CodeUpdateRefused, "%s", why).WithDetails(map[string]any{"session": s.ID})
}
