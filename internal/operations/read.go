package operations

import (
	"context"
	"path"
	"path/filepath"
	"sync"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
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
	t, ref, err := openTreeTarget(ctx, env, treeArg, access)
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
	if err := served.Check(ctx, env, t); err != nil {
		return nil, err
	}
	return &contracts.ReadResult{SchemaVersion: contracts.CLIVersion, Tree: ref, Node: nr.Node, Children: nr.Children}, nil
}

// ServedBlobs are the blob ids of the documents a reader of a snapshot
// parsed, taken from the bytes it parsed. The snapshot was found intact
// when it was opened, but files can change between that check and the
// reads: Check holds every one to the commit's blob at its path, so what
// is served is the synced commit's content or an error, never a file put
// there in the meantime.
type ServedBlobs struct {
	like string // an id of the repository: its length is its hash's
	mu   sync.Mutex
	ids  map[string]string // tree-relative path -> blob id of the bytes read
}

// ServedBlobs starts the record for a reader of t: nil (nothing to hold
// to) unless t is a git source's snapshot.
func (t *TreeTarget) ServedBlobs() *ServedBlobs {
	if t.Snapshot == nil || t.Conn == nil {
		return nil
	}
	return &ServedBlobs{like: t.Snapshot.Commit, ids: map[string]string{}}
}

// Observer records each document read (nil for a nil record).
func (b *ServedBlobs) Observer() tree.Observer {
	if b == nil {
		return nil
	}
	return func(docRel string, data []byte) {
		id := git.BlobID(b.like, data)
		b.mu.Lock()
		b.ids[docRel] = id
		b.mu.Unlock()
	}
}

// maxListedPaths is how many paths Check names to ls-tree; more, and it
// lists the tree's whole subtree once instead.
const maxListedPaths = 256

// Check compares the ids with the commit's blobs (one ls-tree in the
// cache); a document that differs, or that the commit does not hold, is
// SNAPSHOT_CORRUPT as an integrity check failing before the read is.
func (b *ServedBlobs) Check(ctx context.Context, env Env, t TreeTarget) error {
	if b == nil || len(b.ids) == 0 {
		return nil
	}
	s := t.Snapshot
	prefix, err := filepath.Rel(s.Path, t.Root)
	if err != nil || !filepath.IsLocal(prefix) && prefix != "." {
		return contracts.Errorf(contracts.CodeSnapshotCorrupt, "the tree %s is not inside its snapshot %s", t.Root, s.Path)
	}
	prefix = filepath.ToSlash(prefix)
	repoPath := func(rel string) string { return path.Join(prefix, rel) }
	var paths []string
	if len(b.ids) <= maxListedPaths {
		for rel := range b.ids {
			paths = append(paths, repoPath(rel))
		}
	} else if prefix != "." {
		paths = []string{prefix}
	}
	entries, err := env.Git.LsTree(ctx, s.Cache, s.Commit, len(b.ids) > maxListedPaths, paths...)
	if err != nil {
		return GitError(err)
	}
	want := make(map[string]string, len(entries))
	for _, e := range entries {
		want[e.Path] = e.ID
	}
	for rel, id := range b.ids {
		if id == "" || want[repoPath(rel)] != id {
			return contracts.Errorf(contracts.CodeSnapshotCorrupt,
				"the snapshot %s of %s changed while it was read (%s is not the commit's); `git context-tree sync` rebuilds it", s.Path, t.Conn.Exact, rel).
				WithDetails(map[string]any{"snapshot": s.Path, "selector": t.Conn.Exact, "path": rel})
		}
	}
	return nil
}
