package operations

import (
	"context"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Read reads one node of a tree with its immediate children. The tree is
// treeArg (a selector or a directory), or the default tree; node may also
// be a path relative to the command's directory inside the tree. Reads
// allow working changes (S7); when the tree lies in a git checkout the
// result names the commit and whether the tree has uncommitted changes, so
// a reader can say what it read.
func Read(ctx context.Context, env Env, node, treeArg string) (*contracts.ReadResult, error) {
	return readNode(ctx, env, node, treeArg, TreeAccess{}, true)
}

// ReadAs is Read for a reader restricted by access (the MCP server), whose
// node paths are always tree-relative.
func ReadAs(ctx context.Context, env Env, node, treeArg string, access TreeAccess) (*contracts.ReadResult, error) {
	return readNode(ctx, env, node, treeArg, access, false)
}

func readNode(ctx context.Context, env Env, node, treeArg string, access TreeAccess, fromDir bool) (*contracts.ReadResult, error) {
	ref, err := OpenTree(ctx, env, treeArg, access)
	if err != nil {
		return nil, err
	}
	if fromDir {
		node = nodeFromDir(ref.Root, env.Dir, node)
	}
	node = withExtension(ref.Root, node)
	nr, err := tree.Read(ref.Root, node)
	if err != nil {
		return nil, err
	}
	return &contracts.ReadResult{SchemaVersion: contracts.CLIVersion, Tree: ref, Node: nr.Node, Children: nr.Children}, nil
}
