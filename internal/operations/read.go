package operations

import (
	"context"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/sources"
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
	t, ref, err := OpenTreeTarget(ctx, env, treeArg, access)
	if err != nil {
		return nil, err
	}
	if fromDir {
		node = nodeFromDir(ref.Root, env.Dir, node)
	}
	node = withExtension(ref.Root, node)
	served := t.ServedBlobs()
	nr, err := tree.ReadObserved(ref.Root, node, served.Observer())
	if err != nil {
		return nil, err
	}
	if err := served.Check(ctx, env.Git); err != nil {
		return nil, err
	}
	return &contracts.ReadResult{SchemaVersion: contracts.CLIVersion, Tree: ref, Node: nr.Node, Children: nr.Children}, nil
}

// ServedBlobs is what a reader of a git source's snapshot parsed, held to
// the commit by Check (sources.HeldReads).
type ServedBlobs = sources.HeldReads

// ServedBlobs starts the record for a reader of t: nil (nothing to hold
// to) unless t is a git source's snapshot.
func (t *TreeTarget) ServedBlobs() *ServedBlobs {
	if t.Snapshot == nil || t.Conn == nil {
		return nil
	}
	return t.Snapshot.HoldReads(*t.Conn, t.Root)
}
