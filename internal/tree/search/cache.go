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

// Index returns the current index of the tree at root, whose commit is
// head ("" outside git). Listing the tree's documents (lstat only) is the
// cost of a search on an unchanged tree.
func (c *Cache) Index(root, head string) (*Index, error) {
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]*cached{}
	}
	e := c.entries[root]
	if e == nil {
		c.evict()
		e = &cached{}
		c.entries[root] = e
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
	e.index, e.head, e.stats = Build(root, stats, e.index), head, stats
	return e.index, nil
}

// evict drops the least recently used root when the cache is full. The
// caller holds c.mu; a search still using the dropped index keeps it.
func (c *Cache) evict() {
	if len(c.entries) < maxRoots {
		return
	}
	oldest := ""
	for root, e := range c.entries {
		if oldest == "" || e.used < c.entries[oldest].used {
			oldest = root
		}
	}
	delete(c.entries, oldest)
}
