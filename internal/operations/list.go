package operations

import (
	"context"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// List reports the project and every declared source with its selectors.
func List(ctx context.Context, env Env) (*contracts.ListResult, error) {
	p, conns, err := OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	res := &contracts.ListResult{SchemaVersion: contracts.CLIVersion, Project: p.Ref(), Connections: []contracts.ConnectionRef{}}
	for _, c := range conns {
		res.Connections = append(res.Connections, c.Ref())
	}
	return res, nil
}
