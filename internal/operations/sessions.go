package operations

import (
	"context"
	"os"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// ShowSession reports one session with its worktree's current HEAD.
func ShowSession(ctx context.Context, env Env, id string) (*contracts.SessionResult, error) {
	s, err := loadSession(env, id)
	if err != nil {
		return nil, err
	}
	s.Head = currentHead(ctx, env, s)
	return &contracts.SessionResult{SchemaVersion: contracts.CLIVersion, Session: s, Commit: s.Commit}, nil
}

// ListSessions reports every session on this machine, for every project.
func ListSessions(ctx context.Context, env Env) (*contracts.SessionList, error) {
	ids, err := listSessionIDs(env)
	if err != nil {
		return nil, err
	}
	res := &contracts.SessionList{SchemaVersion: contracts.CLIVersion, Sessions: []*contracts.Session{}}
	for _, id := range ids {
		s, err := loadSession(env, id)
		if err != nil {
			return nil, err
		}
		s.Head = currentHead(ctx, env, s)
		res.Sessions = append(res.Sessions, s)
	}
	return res, nil
}

// currentHead reads the worktree's HEAD, "" when the worktree is gone.
func currentHead(ctx context.Context, env Env, s *contracts.Session) string {
	if gf, err := os.Lstat(s.Worktree + "/.git"); err != nil || !gf.Mode().IsRegular() {
		return ""
	}
	st, err := env.Git.InspectWorktree(ctx, s.Worktree)
	if err != nil {
		return ""
	}
	return st.Head
}

func lstat(p string) (os.FileInfo, error) { return os.Lstat(p) }
