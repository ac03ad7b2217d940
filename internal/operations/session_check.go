package operations

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// checkPinned fails with SESSION_STALE unless the project still declares
// the session's source (by identity, so a namesake or a reordered
// configuration cannot redirect it) and the repository is the same one.
func checkPinned(ctx context.Context, env Env, s *contracts.Session) error {
	stale := func(format string, args ...any) error {
		e := contracts.Errorf(contracts.CodeSessionStale, format, args...)
		e.Message += "; the session is kept: its worktree is " + s.Worktree
		return e.WithDetails(map[string]any{"session": s.ID, "worktree": s.Worktree})
	}
	p := &sources.Project{Root: s.ProjectRoot, ConfigFile: filepath.Join(s.ProjectRoot, contracts.ConfigFile)}
	cfg, err := sources.LoadConfig(p.ConfigFile)
	if err != nil {
		return stale("cannot read the project configuration the session was opened from: %v", err)
	}
	p.Config = cfg
	conns, err := p.Connections()
	if err != nil {
		return stale("the project configuration is invalid: %v", err)
	}
	declared := false
	for _, c := range conns {
		declared = declared || c.Identity == s.Identity
	}
	if !declared {
		return stale("the project no longer declares %s", s.Connection.Exact)
	}
	r := s.Repository
	if r.Kind == contracts.SourceGit {
		url, ok, err := env.Git.ConfigGet(ctx, r.CommonDir, "remote.origin.url")
		if err != nil || !ok || url != r.Origin {
			return stale("the cache %s no longer has origin %s", r.CommonDir, r.Origin)
		}
		return nil
	}
	common, err := env.Git.CommonDir(ctx, git.Isolated, r.Root)
	if err != nil || realPath(common) != realPath(r.CommonDir) {
		return stale("%s is no longer the repository the session was opened in", r.Root)
	}
	return nil
}

// checkWorktree fails unless the session's worktree is still its own: a
// real directory (not a symlink) whose git is the pinned repository, on the
// session branch, at the expected commit. It never lets git search for a
// repository above a missing worktree.
func checkWorktree(ctx context.Context, env Env, s *contracts.Session, wantHead string) (*git.WorktreeState, error) {
	fi, err := os.Lstat(s.Worktree)
	if err != nil || fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir() {
		return nil, contracts.Errorf(contracts.CodeSessionStale, "the session worktree %s is missing or was replaced", s.Worktree).
			WithDetails(map[string]any{"session": s.ID, "worktree": s.Worktree})
	}
	if gf, err := os.Lstat(filepath.Join(s.Worktree, ".git")); err != nil || !gf.Mode().IsRegular() {
		return nil, contracts.Errorf(contracts.CodeSessionStale, "%s is no longer a git worktree", s.Worktree).
			WithDetails(map[string]any{"session": s.ID, "worktree": s.Worktree})
	}
	st, err := env.Git.InspectWorktree(ctx, s.Worktree)
	if err != nil || realPath(st.Toplevel) != realPath(s.Worktree) || realPath(st.CommonDir) != realPath(s.Repository.CommonDir) {
		return nil, contracts.Errorf(contracts.CodeSessionStale, "%s is no longer a worktree of %s", s.Worktree, s.Repository.CommonDir).
			WithDetails(map[string]any{"session": s.ID, "worktree": s.Worktree})
	}
	branch, detached, err := env.Git.Branch(ctx, git.Isolated, s.Worktree)
	if err != nil {
		return nil, gitErr(err)
	}
	if detached || branch != s.Branch || st.Head != wantHead {
		return st, contracts.Errorf(contracts.CodeSessionMoved,
			"the session worktree is on %s at %.12s, not on %s at %.12s; do not commit or switch branches in a session, write finish does",
			orDetached(branch, detached), st.Head, s.Branch, wantHead).
			WithDetails(map[string]any{"session": s.ID, "worktree": s.Worktree, "head": st.Head, "branch": branch})
	}
	return st, nil
}

func orDetached(branch string, detached bool) string {
	if detached {
		return "a detached HEAD"
	}
	return branch
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}
