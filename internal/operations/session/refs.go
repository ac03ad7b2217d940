package session

import (
	"context"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// A session's work lives in the home repository on its branch
// context-tree/<id>, an ordinary branch the user may delete or amend
// under it. Each open session's newest commit (its finish's commit, else
// its base) is also kept by refs/context-tree/sessions/<id>, which no
// branch command touches and which git gc respects, so the session can
// always be finished: a deleted branch is recreated from it. Both move
// together, in one transaction, and go together when the session closes.

// homeRef is the session's branch in the home repository (the checkout's
// repository, or the git source's cache). Only the tool writes it.
func homeRef(s *contracts.Session) string { return "refs/heads/" + s.Branch }

// keepRef holds the session's newest commit in the home repository.
func keepRef(s *contracts.Session) string { return "refs/context-tree/sessions/" + s.ID }

// moveHome moves the session branch from old to commit ("" old: create
// it) and the keep ref to commit, at once.
func moveHome(ctx context.Context, env operations.Env, s *contracts.Session, commit, old string) error {
	return env.Git.UpdateRefs(ctx, s.Repository.CommonDir, []git.RefUpdate{
		{Ref: homeRef(s), New: commit, Old: old, Create: old == ""},
		{Ref: keepRef(s), New: commit},
	})
}

// dropHome deletes the session branch (if it is at old) and the keep ref.
func dropHome(ctx context.Context, env operations.Env, s *contracts.Session, old string) error {
	return env.Git.UpdateRefs(ctx, s.Repository.CommonDir, []git.RefUpdate{
		{Ref: homeRef(s), Old: old},
		{Ref: keepRef(s)},
	})
}

// restoreBranch recreates a session branch the user deleted at the
// session's newest commit, which its keep ref (or, for sessions opened
// before there was one, the objects still there) preserves; a commit
// that is gone makes the session broken (SESSION_STALE).
func restoreBranch(ctx context.Context, env operations.Env, s *contracts.Session) (string, error) {
	at := s.Base
	if s.Commit != "" {
		at = s.Commit
	}
	found, err := env.Git.ResolveCommit(ctx, s.Repository.CommonDir, at)
	if err != nil {
		return "", operations.GitError(err)
	}
	if found == "" {
		return "", branchDeleted(s)
	}
	if err := moveHome(ctx, env, s, at, ""); err != nil {
		return "", operations.GitError(err)
	}
	return at, nil
}

// writeHomeView gives the session's own git a read-only view of where the
// target branch was when the session started or was last updated
// (refs/remotes/home/<branch>), so `git diff home/main` works inside it.
// It is information for the agent: the tool never reads it back.
func writeHomeView(s *contracts.Session, commit string) error {
	if s.TargetBranch == "" {
		return nil
	}
	if err := git.WriteLooseRef(sessionGitDir(s), "refs/remotes/home/"+s.TargetBranch, commit); err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot write the session's view of %s: %v", s.TargetBranch, err)
	}
	return nil
}
