package operations

import (
	"context"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Read reads one node of a tree with its immediate children. The tree is
// treeArg (a selector or a directory), or the default tree. Reads allow
// working changes (S7); when the tree lies in a git checkout the result
// names the commit and whether the tree has uncommitted changes, so a
// reader can say what it read.
func Read(ctx context.Context, env Env, node, treeArg string) (*contracts.ReadResult, error) {
	_, conns, err := openProject(ctx, env)
	if err != nil {
		return nil, err
	}
	var t treeTarget
	if treeArg != "" {
		t, err = targetFor(ctx, env, conns, treeArg)
	} else {
		t, err = defaultTarget(ctx, env, conns)
	}
	if err != nil {
		return nil, err
	}
	if t.Snapshot != nil {
		// A snapshot that sync rejected is not read as if it were valid.
		if err := env.managed().RequireVerified(*t.Conn, t.Snapshot); err != nil {
			return nil, err
		}
	}
	nr, err := tree.Read(t.Root, nodeFromDir(t.Root, env.Dir, node))
	if err != nil {
		return nil, err
	}
	ref := contracts.TreeRef{Root: t.Root, Selector: t.selector()}
	res, err := sources.ResolveDirectory(ctx, env.Git, t.Root)
	if err != nil {
		return nil, err
	}
	if res.InGit() {
		dirty := res.Dirty
		ref.Head, ref.Dirty = res.Head, &dirty
	}
	return &contracts.ReadResult{SchemaVersion: contracts.CLIVersion, Tree: ref, Node: nr.Node, Children: nr.Children}, nil
}
