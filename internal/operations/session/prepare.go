package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/google/uuid"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/idprefix"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// Prepare opens a write session (S12) on a declared source: a new branch
// context-tree/<id> checked out in its own worktree at the source's
// committed revision (a directory source's checkout HEAD, a git source's
// snapshot commit). The subtree must be clean, ignored files included.
// At most one PrepareOptions may be given (optional, so callers that need
// none stay as they are).
func Prepare(ctx context.Context, env operations.Env, selector string, opts ...PrepareOptions) (*contracts.SessionResult, error) {
	p, conns, err := operations.OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	c, err := Connection(env, conns, selector)
	if err != nil {
		return nil, err
	}
	if len(opts) > 0 && opts[0].Sync {
		if err := syncBeforePrepare(ctx, env, c); err != nil {
			return nil, err
		}
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("new session id: %w", err)
	}
	// Held until the record is written: write prune judges a folder no
	// record names under its session's lock, so it never takes a session
	// being made for one a killed prepare left.
	unlock, err := lockSession(env, id.String())
	if err != nil {
		return nil, err
	}
	defer unlock()
	s := &contracts.Session{
		ID: id.String(), State: contracts.SessionOpen, Connection: c.Ref(), Identity: c.Identity,
		ProjectRoot: p.Root, Branch: sessionBranchPrefix + id.String(), CreatedAt: time.Now().UTC().Format(time.RFC3339),
	}
	if c.Source.Kind == contracts.SourceDirectory {
		err = pinDirectory(ctx, env, c, s)
	} else {
		err = pinGitSource(ctx, env, c, s)
	}
	if err != nil {
		return nil, err
	}
	wtDir, err := env.Home.Dir("worktrees")
	if err != nil {
		return nil, err
	}
	s.Worktree = filepath.Join(wtDir, s.ID)
	s.ContentRoot = joinRel(s.Worktree, s.Subtree)
	if err := addSessionWorktree(ctx, env, s); err != nil {
		os.RemoveAll(s.Worktree)
		return nil, contracts.Errorf(contracts.CodeGit, "cannot create the session worktree: %v", err)
	}
	if err := recordHomeConfig(ctx, env, s); err != nil {
		os.RemoveAll(s.Worktree)
		dropHome(ctx, env, s, s.Base)
		return nil, err
	}
	if err := saveSession(env, s); err != nil {
		// Nothing was written in the worktree yet: undo it whole.
		os.RemoveAll(s.Worktree)
		dropHome(ctx, env, s, s.Base)
		return nil, err
	}
	writeBaseIndex(ctx, env, s)
	s.Head = s.Base
	res := &contracts.SessionResult{SchemaVersion: contracts.CLIVersion, Session: s}
	if s.Repository.Kind == contracts.SourceGit {
		res.Snapshot = snapshotFreshness(ctx, env, c, s, time.Now())
	}
	return res, nil
}

// addSessionWorktree creates the session: its branch at the base in the
// home repository (only the tool ever moves it), and the session
// repository, a work tree with its own .git that borrows the home
// repository's objects, checked out at the base.
func addSessionWorktree(ctx context.Context, env operations.Env, s *contracts.Session) error {
	home := s.Repository.CommonDir
	format, err := env.Git.ObjectFormat(ctx, home)
	if err != nil {
		return err
	}
	if err := moveHome(ctx, env, s, s.Base, ""); err != nil {
		return err
	}
	undo := func() {
		os.RemoveAll(s.Worktree)
		dropHome(ctx, env, s, s.Base)
	}
	gitDir := sessionGitDir(s)
	if err := env.Git.InitSessionRepo(ctx, s.Worktree, s.Branch, format, filepath.Join(home, "objects")); err != nil {
		undo()
		return err
	}
	if err := env.Git.SetRef(ctx, gitDir, homeRef(s), s.Base, ""); err != nil {
		undo()
		return err
	}
	if err := initSparseSession(ctx, env, s); err != nil {
		undo()
		return err
	}
	if err := env.Git.ResetHard(ctx, git.WorkTree{GitDir: gitDir, Dir: s.Worktree}); err != nil {
		undo()
		return err
	}
	if err := writeHomeView(s, s.Base); err != nil {
		undo()
		return err
	}
	return nil
}

// Connection picks the declared source a session binds to.
func Connection(env operations.Env, conns []sources.Connection, selector string) (sources.Connection, error) {
	if selector != "" {
		return sources.Select(conns, selector, env.Dir)
	}
	if len(conns) == 1 {
		return conns[0], nil
	}
	for _, c := range conns {
		if c.Source.Kind == contracts.SourceDirectory && operations.Within(env.Dir, c.Dir) {
			return c, nil
		}
	}
	if len(conns) == 0 {
		return sources.Connection{}, contracts.Errorf(contracts.CodeSelectorNotFound,
			"the project declares no trees; a write session needs a declared source (`git context-tree connect <dir>`)")
	}
	return sources.Connection{}, operations.ChooseOne(conns, "`git context-tree write prepare <selector>`")
}

// pinDirectory pins a directory source's checkout: it must be in git, have
// a commit, and its subtree must be clean.
func pinDirectory(ctx context.Context, env operations.Env, c sources.Connection, s *contracts.Session) error {
	d, err := sources.ResolveDirectory(ctx, env.Git, c.Dir)
	if err != nil {
		return err
	}
	if !d.InGit() || d.Head == "" {
		why := "is not in a git repository"
		if d.InGit() {
			why = "is in a repository without commits"
		}
		return contracts.Errorf(contracts.CodeNoRepository,
			"%s %s, so it cannot host a write session; edit it directly and check it with `git context-tree verify`", c.Dir, why).
			WithDetails(map[string]any{"path": c.Dir})
	}
	if err := requireCleanSubtree(ctx, env, d.RepositoryRoot, d.Subtree); err != nil {
		return err
	}
	common, err := env.Git.CommonDir(ctx, git.Isolated, d.RepositoryRoot)
	if err != nil {
		return operations.GitError(err)
	}
	s.Repository = contracts.SessionRepository{Kind: contracts.SourceDirectory, Root: d.RepositoryRoot, CommonDir: common}
	s.Subtree, s.TargetBranch, s.Base = d.Subtree, d.Branch, d.Head
	return nil
}

// pinGitSource pins a git source's current snapshot commit in its cache.
func pinGitSource(ctx context.Context, env operations.Env, c sources.Connection, s *contracts.Session) error {
	snap, err := env.Managed().Current(ctx, c)
	if err != nil {
		return err
	}
	s.Repository = contracts.SessionRepository{Kind: contracts.SourceGit, Root: snap.Cache, CommonDir: snap.Cache, Origin: sources.OriginURL(snap.Repository)}
	s.Subtree, s.TargetBranch, s.Base = c.Source.Path, c.Source.Ref, snap.Commit
	return nil
}

// requireCleanSubtree refuses tracked changes, untracked and ignored files
// under the subtree.
func requireCleanSubtree(ctx context.Context, env operations.Env, repoRoot, subtree string) error {
	entries, err := env.Git.Status(ctx, repoRoot, subtree)
	if err != nil {
		return operations.GitError(err)
	}
	if len(entries) == 0 {
		return nil
	}
	paths := make([]string, len(entries))
	for i, e := range entries {
		paths[i] = e.Path
	}
	return contracts.Errorf(contracts.CodeSubtreeDirty,
		"%s has %d uncommitted, untracked or ignored paths (%s); commit, remove or move them before opening a session", subtree, len(paths), idprefix.ListSome(paths, 5)).
		WithDetails(map[string]any{"paths": paths})
}

func joinRel(root, rel string) string {
	if rel == "." {
		return root
	}
	return filepath.Join(root, filepath.FromSlash(rel))
}
