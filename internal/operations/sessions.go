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

// currentHead reads the session repository's HEAD, "" when its work tree
// or repository is gone.
func currentHead(ctx context.Context, env Env, s *contracts.Session) string {
	if gd, err := os.Lstat(sessionGitDir(s)); err != nil || !gd.IsDir() {
		return ""
	}
	head, _, err := env.Git.HeadRef(ctx, sessionGitDir(s))
	if err != nil {
		return ""
	}
	return head
}
