package session

import (
	"context"
	"os"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// Show reports one session with where its work stands.
func Show(ctx context.Context, env operations.Env, id string) (*contracts.SessionResult, error) {
	s, err := loadSession(env, id)
	if err != nil {
		return nil, err
	}
	describe(ctx, env, s)
	return &contracts.SessionResult{SchemaVersion: contracts.CLIVersion, Session: s, Commit: s.Commit}, nil
}

// List reports every session on this machine, for every project. A
// record that cannot be read is reported among the unreadable and the
// others are listed all the same: one damaged record must not hide every
// session, nor be passed over in silence.
func List(ctx context.Context, env operations.Env) (*contracts.SessionList, error) {
	ids, err := listSessionIDs(env)
	if err != nil {
		return nil, err
	}
	res := &contracts.SessionList{SchemaVersion: contracts.CLIVersion, Sessions: []*contracts.Session{}}
	for _, id := range ids {
		s, err := loadListed(env, id, &res.Unreadable)
		if err != nil {
			return nil, err
		}
		if s == nil {
			continue
		}
		describe(ctx, env, s)
		res.Sessions = append(res.Sessions, s)
	}
	if res.Unknown, err = unknownWorktrees(env, ids); err != nil {
		return nil, err
	}
	return res, nil
}

// describe fills in what is computed when a session is shown: its
// repository's HEAD, the parts removed by hand, and its status. Nothing
// here is an error: a session whose parts are gone is still listed.
func describe(ctx context.Context, env operations.Env, s *contracts.Session) {
	s.Head, s.Missing = "", nil
	if gd, err := os.Lstat(sessionGitDir(s)); err == nil && gd.IsDir() {
		if head, _, err := git.ReadHead(sessionGitDir(s)); err == nil {
			s.Head = head
		}
	} else if s.ClosedAt == "" {
		s.Missing = append(s.Missing, "worktree")
	}
	broken := false
	if tip, err := env.Git.ResolveCommit(ctx, s.Repository.CommonDir, homeRef(s)); err == nil && tip == "" && s.ClosedAt == "" {
		s.Missing = append(s.Missing, "branch")
		// Without its branch the session's newest commit may be gone too
		// (sessions opened before keep refs): then it cannot be finished.
		at := s.Base
		if s.Commit != "" {
			at = s.Commit
		}
		found, err := env.Git.ResolveCommit(ctx, s.Repository.CommonDir, at)
		broken = err == nil && found == ""
	}
	s.Status = sessionStatus(ctx, env, s)
	if broken {
		s.Status = contracts.StatusBroken
	}
}

// sessionStatus says where a session's work stands: its commit published
// to the git source's branch (as last synced) or merged into the
// checkout's branch, refused at publication, only on its own branch, or
// not committed yet.
func sessionStatus(ctx context.Context, env operations.Env, s *contracts.Session) string {
	switch {
	case s.State == contracts.SessionPublished:
		return contracts.StatusPublished
	case s.State == contracts.SessionOpen || s.Commit == "":
		return contracts.StatusOpen
	}
	target := "refs/heads/" + s.TargetBranch
	status := contracts.StatusMerged
	if s.Repository.Kind == contracts.SourceGit {
		// The branch as the tool last fetched it, never the cache's ref.
		tip, err := env.Managed().Tip(ctx, originRepository(s.Repository.Origin), s.TargetBranch)
		if err != nil || tip == "" {
			tip = s.Base
		}
		target, status = tip, contracts.StatusPublished
	}
	if s.TargetBranch != "" {
		if in, err := env.Git.IsAncestor(ctx, s.Repository.CommonDir, s.Commit, target); err == nil && in {
			return status
		}
	}
	if s.Rejected {
		return contracts.StatusRejected
	}
	return contracts.StatusCommitted
}
