package session

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// openSession loads a session (by id or prefix), refuses it with refuse
// before touching anything, takes its lock, clears ref locks a killed run
// left, and checks its pinned source. The caller runs unlock.
func openSession(ctx context.Context, env operations.Env, id string, refuse func(*contracts.Session) error) (*contracts.Session, func(), error) {
	s, err := loadSession(env, id)
	if err != nil {
		return nil, nil, err
	}
	if err := refuse(s); err != nil {
		return nil, nil, err
	}
	unlock, err := lockSession(env, s.ID)
	if err != nil {
		return nil, nil, err
	}
	clearStaleRefLocks(s)
	if err := checkPinned(ctx, env, s); err != nil {
		unlock()
		return nil, nil, err
	}
	return s, unlock, nil
}

// checkPinned fails with SESSION_STALE unless the project still declares
// the session's source (by identity, so a namesake or a reordered
// configuration cannot redirect it) and the repository is the same one.
func checkPinned(ctx context.Context, env operations.Env, s *contracts.Session) error {
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
		if err := env.Managed().CheckCache(ctx, r.CommonDir, originRepository(r.Origin)); err != nil {
			return stale("the cache %s can no longer be trusted: %v", r.CommonDir, err)
		}
		return nil
	}
	common, err := env.Git.CommonDir(ctx, git.Isolated, r.Root)
	if err != nil || tree.RealPath(common) != tree.RealPath(r.CommonDir) {
		return stale("%s is no longer the repository the session was opened in", r.Root)
	}
	return nil
}

// checkWorktree fails unless the session's work tree is still its own: a
// real directory (not a symlink) holding the session repository, whose
// HEAD is the session branch at wantHead. Commits made in the session by
// anyone are refused, whatever their message says: finish commits only
// what it built and verified itself.
func checkWorktree(ctx context.Context, env operations.Env, s *contracts.Session, wantHead string) error {
	details := map[string]any{"session": s.ID, "worktree": s.Worktree}
	fi, err := os.Lstat(s.Worktree)
	if err != nil || fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir() {
		return contracts.Errorf(contracts.CodeSessionStale, "the session worktree %s is missing or was replaced", s.Worktree).WithDetails(details)
	}
	gd, err := os.Lstat(sessionGitDir(s))
	if err == nil && gd.Mode().IsRegular() {
		return contracts.Errorf(contracts.CodeSessionStale,
			"%s was opened by an earlier git-context-tree as a worktree of %s; commit its work there with git, then remove it with `git worktree remove`",
			s.Worktree, s.Repository.CommonDir).WithDetails(details)
	}
	if err != nil || !gd.IsDir() {
		return contracts.Errorf(contracts.CodeSessionStale, "%s is no longer a session repository (its .git directory is missing or was replaced)", s.Worktree).WithDetails(details)
	}
	if err := checkSessionRepo(ctx, env, s); err != nil {
		return err
	}
	head, ref, err := git.ReadHead(sessionGitDir(s))
	if err != nil {
		return contracts.Errorf(contracts.CodeSessionStale, "%s is no longer a session repository: %v", s.Worktree, err).WithDetails(details)
	}
	if ref != "refs/heads/"+s.Branch || head != wantHead {
		details["head"], details["branch"] = head, strings.TrimPrefix(ref, "refs/heads/")
		const never = "commits and branch switches in a session are never accepted, write finish commits what it verifies"
		if ref == "refs/heads/"+s.Branch {
			return contracts.Errorf(contracts.CodeSessionMoved,
				"the session's branch %s moved from %.12s to %.12s (a commit made in the session): %s; "+
					"to keep your edits, run `git reset --soft %s` in %s and finish again",
				s.Branch, wantHead, head, never, wantHead, s.Worktree).WithDetails(details)
		}
		where := "a detached HEAD"
		if ref != "HEAD" {
			where = strings.TrimPrefix(ref, "refs/heads/")
		}
		return contracts.Errorf(contracts.CodeSessionMoved,
			"the session is on %s at %.12s, not on its branch %s at %.12s: %s; "+
				"to keep your edits, run `git reset --soft %s` on branch %s in %s and finish again",
			where, head, s.Branch, wantHead, never, wantHead, s.Branch, s.Worktree).WithDetails(details)
	}
	return nil
}
