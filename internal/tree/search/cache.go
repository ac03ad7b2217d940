package search

import (
	"slices"
	"sync"

	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Cache keeps one index per tree root for a long-running process (the MCP
// server). An index is built on first use and rebuilt, reusing unchanged
// documents, when a search finds the tree's documents changed (a file's
// size, modification time or inode, a document added or removed) or its
// commit moved. It holds at most maxRoots trees, dropping the least
// recently searched: a git source's snapshot root changes with every
// synced commit, and a long-running server must not keep them all.
//
// A git source's snapshot is indexed under a Hold: every document a build
// reads is shown to it, and the build is kept and used only when Check
// passes. A held index therefore holds only bytes checked against the
// commit (documents reused from an earlier held build were checked then),
// whatever the snapshot's files hold meanwhile; a stat unchanged on disk
// proves nothing about them, and is only a reason not to read them again.
type Cache struct {
	mu      sync.Mutex
	entries map[string]*cached
	clock   uint64
}

const maxRoots = 16

type cached struct {
	used  uint64     // c.clock when last asked for, under c.mu
	mu    sync.Mutex // one build of a root at a time
	head  string
	stats []tree.DocStat
	index *Index
}

// Hold is what a snapshot's index is held to (see Cache).
type Hold struct {
	Observe tree.Observer // shown every document a build reads
	Check   func() error  // after the build: nil lets it be used
}

// Index returns the current index of the tree at root, whose commit is
// head ("" outside git), held to hold when it is not nil. Listing the
// tree's documents (lstat only) is the cost of a search on an unchanged
// tree.
func (c *Cache) Index(root, head string, hold *Hold) (*Index, error) {
	key := root
	var observe tree.Observer
	if hold != nil {
		// Apart from any index of the same directory built unheld.
		key, observe = "held\x00"+root, hold.Observe
	}
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]*cached{}
	}
	e := c.entries[key]
	if e == nil {
		c.evict()
		e = &cached{}
		c.entries[key] = e
	}
	c.clock++
	e.used = c.clock
	c.mu.Unlock()

	stats, err := tree.ListDocuments(root)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.index != nil && e.head == head && slices.Equal(e.stats, stats) {
		return e.index, nil
	}
	ix := Build(root, stats, e.index, observe)
	if hold != nil {
		if err := hold.Check(); err != nil {
			return nil, err // the entry keeps its last held build
		}
	}
	e.index, e.head, e.stats = ix, head, stats
	return ix, nil
}

// evict drops the least recently used root when the cache is full. The
// caller holds c.mu; a search still using the dropped index keeps it.
func (c *Cache) evict() {
	if len(c.entries) < maxRoots {
		return
	}
	oldest := ""
	for key, e := range c.entries {
		if oldest == "" || e.used < c.entries[oldest].used {
			oldest = key
		}
	}
	delete(c.entries, oldest)
}
