package sources

import (
	"context"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// HeldReads are the blob ids of the documents a reader of a snapshot
// parsed, taken from the bytes it parsed, and the names it listed. The
// snapshot was found intact when it was opened, but files can change
// between that check and the reads: Check holds every one to the
// commit's blob at its path, so what is served, published or recorded is
// the synced commit's content or an error, never a file put there in the
// meantime.
type HeldReads struct {
	snap  *Snapshot
	exact string // the source's exact selector, for the refusal
	root  string // the tree read: the snapshot or a subtree of it
	mu    sync.Mutex
	ids   map[string]string // tree-relative path -> blob id of the bytes read
	names map[string]bool   // tree-relative paths listed without being read
}

// HoldReads starts the record for a reader of the tree at root (the
// snapshot's tree root, or the last good snapshot's) of c's snapshot s.
func (s *Snapshot) HoldReads(c Connection, root string) *HeldReads {
	return &HeldReads{snap: s, exact: c.Exact, root: root, ids: map[string]string{}, names: map[string]bool{}}
}

// Observer records each document read (nil for a nil record, so readers
// of anything but a snapshot observe nothing).
func (h *HeldReads) Observer() tree.Observer {
	if h == nil {
		return nil
	}
	return func(docRel string, data []byte) {
		id := git.BlobID(h.snap.Commit, data)
		h.mu.Lock()
		h.ids[docRel] = id
		h.mu.Unlock()
	}
}

// Listed records a document a reader names without reading it (a
// listing): the commit must hold a file there.
func (h *HeldReads) Listed(docRel string) {
	if h == nil {
		return
	}
	h.mu.Lock()
	h.names[docRel] = true
	h.mu.Unlock()
}

// maxListedPaths is how many paths Check names to ls-tree; more, and it
// lists the tree's whole subtree once instead.
const maxListedPaths = 256

// Check compares what was recorded with the commit (one ls-tree in the
// cache): a document whose bytes differ from the commit's blob, or a
// path where the commit holds no regular file, is SNAPSHOT_CORRUPT, as an
// integrity check failing before the read is. Nothing recorded (or a nil
// record) checks nothing and runs no git.
func (h *HeldReads) Check(ctx context.Context, g *git.Git) error {
	return h.check(ctx, g, false)
}

// CheckWhole is Check for a reader of the whole tree (verification) that
// found nothing wrong: it also holds that the walk read every document,
// and the NODE.md of every directory, that the commit holds where the
// walk reaches, and met no entry it would have reported (a symlink, a
// submodule, a name that is not UTF-8). A clean report of a snapshot from
// which something was removed during the walk is then SNAPSHOT_CORRUPT,
// never a commit recorded as verifying that does not. It lists the whole
// subtree (one ls-tree -r).
func (h *HeldReads) CheckWhole(ctx context.Context, g *git.Git) error {
	return h.check(ctx, g, true)
}

func (h *HeldReads) check(ctx context.Context, g *git.Git, whole bool) error {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(h.ids) + len(h.names)
	if n == 0 && !whole {
		return nil
	}
	if whole {
		n = maxListedPaths + 1 // the whole subtree, listed once
	}
	s := h.snap
	prefix, err := filepath.Rel(s.Path, h.root)
	if err != nil || !filepath.IsLocal(prefix) && prefix != "." {
		return contracts.Errorf(contracts.CodeSnapshotCorrupt, "the tree %s is not inside its snapshot %s", h.root, s.Path)
	}
	prefix = filepath.ToSlash(prefix)
	repoPath := func(rel string) string { return path.Join(prefix, rel) }
	var paths []string
	switch {
	case n <= maxListedPaths:
		for rel := range h.ids {
			paths = append(paths, repoPath(rel))
		}
		for rel := range h.names {
			paths = append(paths, repoPath(rel))
		}
	case prefix != ".":
		paths = []string{prefix}
	}
	entries, err := g.LsTree(ctx, s.Cache, s.Commit, n > maxListedPaths, paths...)
	if err != nil {
		return gitError(err)
	}
	if err := h.compare(entries, repoPath); err != nil || !whole {
		return err
	}
	return h.complete(entries, prefix)
}

// compare holds what was recorded to the commit's entries.
func (h *HeldReads) compare(entries []git.TreeEntry, repoPath func(string) string) error {
	want := make(map[string]string, len(entries))
	for _, e := range entries {
		if e.Type == "blob" && (e.Mode == "100644" || e.Mode == "100755") {
			want[e.Path] = e.ID
		}
	}
	for rel, id := range h.ids {
		if id == "" || want[repoPath(rel)] != id {
			return h.changed(rel)
		}
	}
	for rel := range h.names {
		if want[repoPath(rel)] == "" {
			return h.changed(rel)
		}
	}
	return nil
}

func (h *HeldReads) changed(rel string) error {
	s := h.snap
	return contracts.Errorf(contracts.CodeSnapshotCorrupt,
		"the snapshot %s of %s changed while it was read (%s is not the commit's); `git context-tree sync` rebuilds it", s.Path, h.exact, rel).
		WithDetails(map[string]any{"snapshot": s.Path, "selector": h.exact, "path": rel})
}

// complete is CheckWhole's own part: every entry of the commit below
// prefix that the walk reaches was read (a document), has its NODE.md
// read (a directory; the root's too), or would have been reported.
func (h *HeldReads) complete(entries []git.TreeEntry, prefix string) error {
	if _, ok := h.ids[tree.NodeFile]; !ok {
		return h.changed(tree.NodeFile)
	}
	for _, e := range entries {
		rel := e.Path
		if prefix != "." {
			if rel == prefix || !strings.HasPrefix(rel, prefix+"/") {
				continue
			}
			rel = rel[len(prefix)+1:]
		}
		if !tree.WalkReaches(rel) {
			continue
		}
		read := func(p string) bool { _, ok := h.ids[p]; return ok }
		switch {
		case !utf8.ValidString(rel), e.Type == "commit", e.Mode == "120000":
			return h.changed(rel) // the walk would have reported it
		case e.Type == "tree" && !read(path.Join(rel, tree.NodeFile)):
			return h.changed(path.Join(rel, tree.NodeFile))
		case e.Type == "blob" && tree.IsDocumentName(path.Base(rel)) && !read(rel):
			return h.changed(rel)
		}
	}
	return nil
}
