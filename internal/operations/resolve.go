package operations

import (
	"context"
	"errors"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// Resolve performs directory resolution (S7) for the selected declared
// source, or for every one. It never touches the network. A source that
// cannot be resolved is reported with its error; the others still are.
func Resolve(ctx context.Context, env Env, selector string) (*contracts.ResolveResult, error) {
	p, conns, err := OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	if selector != "" {
		c, err := sources.Select(conns, selector, env.Dir)
		if err != nil {
			return nil, err
		}
		conns = []sources.Connection{c}
	}
	res := &contracts.ResolveResult{SchemaVersion: contracts.CLIVersion, Project: p.Ref(), Resolutions: []contracts.Resolution{}}
	for _, c := range conns {
		r, err := ResolveConnection(ctx, env, c)
		if err != nil {
			var ce *contracts.Error
			if !errors.As(err, &ce) {
				return nil, err
			}
			r = contracts.Resolution{Connection: c.Ref(), Error: ce}
		}
		res.Resolutions = append(res.Resolutions, r)
	}
	return res, nil
}

// ResolveConnection resolves one declared source's directory (S7): a git
// source's snapshot must be one sync verified.
func ResolveConnection(ctx context.Context, env Env, c sources.Connection) (contracts.Resolution, error) {
	t, err := ConnTarget(ctx, env, c)
	if err != nil {
		return contracts.Resolution{}, err
	}
	if err := t.ServeVerified(ctx, env); err != nil {
		return contracts.Resolution{}, err
	}
	d, err := t.Resolution(ctx, env)
	if err != nil {
		return contracts.Resolution{}, err
	}
	r := contracts.Resolution{OK: true, Connection: c.Ref(), ContentRoot: d.ContentRoot}
	if d.InGit() {
		dirty := d.Dirty
		r.RepositoryRoot, r.Subtree, r.Branch, r.Detached, r.Head, r.Dirty = d.RepositoryRoot, d.Subtree, d.Branch, d.Detached, d.Head, &dirty
	}
	if t.Stale != nil {
		r.Staleness = *t.Stale
	}
	return r, nil
}
