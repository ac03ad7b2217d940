package operations

import (
	"context"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Read reads one node of the tree treeDir (or the tree found from the
// command's directory) with its immediate children. When the tree lies in a
// git checkout the result names the commit and whether the tree has
// uncommitted changes, so a reader can say what it read.
func Read(ctx context.Context, env Env, node, treeDir string) (*contracts.ReadResult, error) {
	var dirs []string
	if treeDir != "" {
		dirs = []string{treeDir}
	}
	roots, err := treeRoots(ctx, env, dirs)
	if err != nil {
		return nil, err
	}
	root := roots[0]
	nr, err := tree.Read(root, node)
	if err != nil {
		return nil, err
	}
	ref := contracts.TreeRef{Root: root}
	co, err := sources.DescribeCheckout(ctx, env.Git, root)
	if err != nil {
		return nil, err
	}
	if co.Root != "" {
		dirty := co.Dirty
		ref.Head, ref.Dirty = co.Head, &dirty
	}
	return &contracts.ReadResult{SchemaVersion: contracts.CLIVersion, Tree: ref, Node: nr.Node, Children: nr.Children}, nil
}
