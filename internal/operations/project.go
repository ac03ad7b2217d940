package operations

import (
	"context"

	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// OpenProject discovers the project of the command's directory and its
// declared connections.
func OpenProject(ctx context.Context, env Env) (*sources.Project, []sources.Connection, error) {
	p, err := sources.Discover(ctx, env.Git, env.Dir)
	if err != nil {
		return nil, nil, err
	}
	conns, err := p.Connections()
	if err != nil {
		return nil, nil, err
	}
	return p, conns, nil
}
