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
	r, err := OpenTreeReader(ctx, env, treeArg, access)
	if err != nil {
		return nil, err
	}
	if fromDir {
		node = nodeFromDir(r.Ref.Root, env.Dir, node)
	}
	nr, err := r.Read(node)
	if err != nil {
		return nil, err
	}
	if err := r.Check(ctx, env); err != nil {
		return nil, err
	}
	return &contracts.ReadResult{SchemaVersion: contracts.CLIVersion, Tree: r.Ref, Node: nr.Node, Children: nr.Children}, nil
}

// TreeReader reads nodes of one opened tree for a reader that serves
// several of them at once (read, outline). Every document it reads of a
// git source's snapshot is held to the commit, and Check must pass before
// anything read is served.
type TreeReader struct {
	Ref    contracts.TreeRef
	served *ServedBlobs
}

// OpenTreeReader opens the tree as OpenTree does, for reading nodes.
func OpenTreeReader(ctx context.Context, env Env, treeArg string, access TreeAccess) (*TreeReader, error) {
	t, ref, err := OpenTreeTarget(ctx, env, treeArg, access)
	if err != nil {
		return nil, err
	}
	return NewTreeReader(t, ref), nil
}

// NewTreeReader reads the opened target t, which ref names.
func NewTreeReader(t TreeTarget, ref contracts.TreeRef) *TreeReader {
	return &TreeReader{Ref: ref, served: t.ServedBlobs()}
}

// Read reads the tree-relative node (".md" may be left off) with its
// immediate children, by read's rules (tree.Read).
func (r *TreeReader) Read(node string) (*tree.NodeRead, error) {
	return tree.ReadObserved(r.Ref.Root, withExtension(r.Ref.Root, node), r.served.Observer())
}

// Check holds every document read so far to a snapshot's commit (one
// ls-tree): SNAPSHOT_CORRUPT when one is not the commit's.
func (r *TreeReader) Check(ctx context.Context, env Env) error {
	return r.served.Check(ctx, env.Git)
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
