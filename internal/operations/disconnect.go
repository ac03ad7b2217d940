package operations

import (
	"context"
	"slices"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// Disconnect removes one declaration from the project configuration and
// nothing else: caches, snapshots, sessions and schedules stay (S5).
func Disconnect(ctx context.Context, env Env, selector string) (*contracts.ConnectionChange, error) {
	p, conns, err := OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	target, err := sources.Select(conns, selector, env.Dir)
	if err != nil {
		return nil, err
	}
	_, err = p.UpdateConfig(env.ConfigLockWait(), func(cfg *contracts.Config) (bool, error) {
		// Find it again by identity: the file may have changed since discovery.
		i := slices.IndexFunc(cfg.Trees, func(s contracts.Source) bool {
			return sources.NewConnection(p.Root, s).Identity == target.Identity
		})
		if i < 0 {
			return false, contracts.Errorf(contracts.CodeSelectorNotFound, "%s is no longer declared", target.Exact)
		}
		cfg.Trees = slices.Delete(cfg.Trees, i, i+1)
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	return &contracts.ConnectionChange{SchemaVersion: contracts.CLIVersion, Changed: true, Project: p.Ref(), Connection: target.Ref()}, nil
}
