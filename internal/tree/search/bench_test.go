package search

// Search on a generated 10,000-document tree. Measure with
//
//	go test -run='^$' -bench=. -benchtime=20x ./internal/tree/search/
//
// BenchmarkSearchWarm10k is a warm server answering a query: listing the
// tree's documents to notice changes (lstat only) and ranking; the goal
// is under 100 ms. BenchmarkBuild10k is the first search of a tree.

import (
	"sync"
	"testing"

	"github.com/git-context-tree/git-context-tree/internal/treegen"
)

var (
	benchOnce sync.Once
	benchRoot string
	benchErr  error
)

func benchTree(b *testing.B) string {
	benchOnce.Do(func() {
		dir, err := tempDir()
		if err != nil {
			benchErr = err
			return
		}
		benchRoot, benchErr = dir, treegen.Generate(dir, treegen.Options{Seed: 17, Docs: 10000})
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchRoot
}

func BenchmarkSearchWarm10k(b *testing.B) {
	root := benchTree(b)
	var c Cache
	if _, err := c.Index(root, "", nil); err != nil {
		b.Fatal(err)
	}
	queries := []string{"release", "storage latency budget", "the", "nonexistentterm"}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		ix, err := c.Index(root, "", nil)
		if err != nil {
			b.Fatal(err)
		}
		q := queries[i%len(queries)]
		for _, h := range ix.Search(q, 10) {
			Snippets(h, q, 3, 240)
		}
	}
}

func BenchmarkBuild10k(b *testing.B) {
	root := benchTree(b)
	var c Cache
	for b.Loop() {
		c = Cache{}
		if _, err := c.Index(root, "", nil); err != nil {
			b.Fatal(err)
		}
	}
}
