package session

import (
	"context"
	"slices"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// A session of a git source holds only its subtree, as the snapshot it
// starts from does: its repository is a sparse checkout of that one
// directory, so the cache needs no blob outside it. finish still sees the
// whole commit: its capture marks the entries outside the subtree
// skip-worktree (missing files are unchanged, not deleted), compares
// trees level by level as before, and looks on disk for anything put
// outside the subtree, which git would not look at.

// sparseSession reports a session that holds only its subtree.
func sparseSession(s *contracts.Session) bool {
	return s.Repository.Kind == contracts.SourceGit && s.Subtree != "."
}

// initSparseSession makes a new session repository a sparse checkout of
// the session's subtree, before anything is checked out.
func initSparseSession(ctx context.Context, env operations.Env, s *contracts.Session) error {
	if !sparseSession(s) {
		return nil
	}
	return env.Git.InitSparse(ctx, sessionGitDir(s), s.Repository.CommonDir, []string{s.Subtree})
}

// skipOutside marks the capture index's entries outside the subtree
// skip-worktree, so that staging takes them as they are in the base.
func skipOutside(ctx context.Context, env operations.Env, s *contracts.Session, w git.WorkTree) error {
	if !sparseSession(s) {
		return nil
	}
	return env.Git.SkipOutside(ctx, w, s.Subtree)
}

// addStray adds to outside what lies on disk outside a sparse session's
// subtree (a file added there, or one of the commit's restored by hand),
// but for ignored paths, which checkIgnored names.
func addStray(s *contracts.Session, c *sessionCapture, outside []string) ([]string, error) {
	if !sparseSession(s) {
		return outside, nil
	}
	stray, err := sources.StrayOutside(s.Worktree, []string{s.Subtree})
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot read the session worktree %s: %v", s.Worktree, err)
	}
	for _, p := range stray {
		if !slices.Contains(outside, p) && !slices.Contains(c.ignored, p) && !slices.Contains(c.ignored, p+"/") {
			outside = append(outside, p)
		}
	}
	return outside, nil
}
