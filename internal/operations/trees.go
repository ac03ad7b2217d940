package operations

import (
	"context"
	"errors"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// TreeAccess says which trees a reader may name and what it may see.
type TreeAccess struct {
	// DeclaredOnly restricts a named tree to the project's declared
	// sources: a selector, never an arbitrary directory (the MCP server).
	DeclaredOnly bool
	// Unverified serves a git snapshot that sync found invalid, for
	// verification to report its findings; reads never see one.
	Unverified bool
}

// OpenTree opens the tree a reader named (a selector, or a directory unless
// DeclaredOnly) or, when treeArg is "", the default tree as read chooses
// it. The reference names its root, its selector and, in a git checkout or
// snapshot, the commit and whether the tree has uncommitted changes. Git
// sources are served from their snapshot only: never the network.
func OpenTree(ctx context.Context, env Env, treeArg string, access TreeAccess) (contracts.TreeRef, error) {
	_, ref, err := OpenTreeTarget(ctx, env, treeArg, access)
	return ref, err
}

// OpenTreeTarget is OpenTree also returning the target the reference
// names, for a reader that holds what it reads of a snapshot to its
// commit (TreeTarget.ServedBlobs).
func OpenTreeTarget(ctx context.Context, env Env, treeArg string, access TreeAccess) (TreeTarget, contracts.TreeRef, error) {
	_, conns, err := OpenProject(ctx, env)
	if err != nil {
		return TreeTarget{}, contracts.TreeRef{}, err
	}
	var t TreeTarget
	switch {
	case treeArg != "" && access.DeclaredOnly:
		c, err := sources.Select(conns, treeArg, env.Dir)
		if err != nil {
			return TreeTarget{}, contracts.TreeRef{}, err
		}
		t, err = ConnTarget(ctx, env, c)
		if err != nil {
			return TreeTarget{}, contracts.TreeRef{}, err
		}
	case treeArg != "":
		t, err = TargetFor(ctx, env, conns, treeArg)
	default:
		how := "`--tree <selector>`"
		if access.DeclaredOnly {
			how = "the `tree` argument"
		}
		t, err = DefaultTarget(ctx, env, conns, how)
	}
	if err != nil {
		return TreeTarget{}, contracts.TreeRef{}, err
	}
	ref, err := openedRef(ctx, env, &t, access)
	return t, ref, err
}

// openedRef serves a git source's verified snapshot (or its last good
// one, marked stale) and names the tree.
func openedRef(ctx context.Context, env Env, t *TreeTarget, access TreeAccess) (contracts.TreeRef, error) {
	if !access.Unverified {
		if err := t.ServeVerified(ctx, env); err != nil {
			return contracts.TreeRef{}, err
		}
	}
	return t.Ref(ctx, env)
}

// OpenTrees opens every declared tree for a reader that covers them all
// (search). A tree that cannot be opened, such as a git source never
// synced, is skipped with the reason. With no declared tree it is the
// tree at or above the command's directory.
func OpenTrees(ctx context.Context, env Env) ([]contracts.TreeRef, []contracts.SkippedTree, error) {
	_, refs, skipped, err := OpenTreeTargets(ctx, env)
	return refs, skipped, err
}

// OpenTreeTargets is OpenTrees also returning the targets, one for each
// reference (see OpenTreeTarget).
func OpenTreeTargets(ctx context.Context, env Env) ([]TreeTarget, []contracts.TreeRef, []contracts.SkippedTree, error) {
	_, conns, err := OpenProject(ctx, env)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(conns) == 0 {
		t, ref, err := OpenTreeTarget(ctx, env, "", TreeAccess{})
		if err != nil {
			return nil, nil, nil, err
		}
		return []TreeTarget{t}, []contracts.TreeRef{ref}, nil, nil
	}
	var targets []TreeTarget
	var refs []contracts.TreeRef
	var skipped []contracts.SkippedTree
	for _, c := range conns {
		t, err := ConnTarget(ctx, env, c)
		var ref contracts.TreeRef
		if err == nil {
			ref, err = openedRef(ctx, env, &t, TreeAccess{})
		}
		var ce *contracts.Error
		switch {
		case errors.As(err, &ce):
			skipped = append(skipped, contracts.SkippedTree{Selector: c.Exact, Error: ce})
		case err != nil:
			return nil, nil, nil, err
		default:
			targets, refs = append(targets, t), append(refs, ref)
		}
	}
	return targets, refs, skipped, nil
}

// ListTrees reports every declared source with where its content is, its
// commit and dirtiness, and for a git source its last fetch on this
// machine. A source that cannot be opened is listed with its error.
func ListTrees(ctx context.Context, env Env) (*contracts.ListTreesResult, error) {
	p, conns, err := OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	res := &contracts.ListTreesResult{SchemaVersion: contracts.CLIVersion, Project: p.Ref(), Trees: []contracts.TreeListing{}}
	for _, c := range conns {
		ref := c.Ref()
		l := contracts.TreeListing{Selector: ref.Selector, Exact: ref.Exact, Source: ref.Source}
		if c.Source.Kind == contracts.SourceGit {
			if rec, ok := env.Managed().LastFetch(c.Source.Repository, c.Source.Ref); ok {
				at := rec.At
				l.LastSync = &at
			}
		}
		t, err := ConnTarget(ctx, env, c)
		var opened contracts.TreeRef
		if err == nil {
			opened, err = openedRef(ctx, env, &t, TreeAccess{})
		}
		var ce *contracts.Error
		switch {
		case errors.As(err, &ce):
			l.Error = ce
		case err != nil:
			return nil, err
		default:
			l.Root, l.Head, l.Dirty = opened.Root, opened.Head, opened.Dirty
		}
		res.Trees = append(res.Trees, l)
	}
	return res, nil
}
