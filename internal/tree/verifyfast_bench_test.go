package tree

import (
	"testing"

	"github.com/git-context-tree/git-context-tree/internal/treegen"
)

// Slow-path twins of the verify benchmarks in bench_test.go: the same trees
// verified with verifyFastPaths off, every document through ParseDocument
// and the CommonMark link extractor, so that the fast paths' gain can be
// re-measured whenever the parsers or the fast paths change (docs/decisions.md
// records the figures and the rule for keeping them). Compare in one run:
//
//	go test -run='^$' -bench='Verify10k(SlowPath)?$' -count=5 ./internal/tree/

func BenchmarkVerify10kSlowPath(b *testing.B) { benchVerifySlow(b, generatedTree(b, 10_000)) }

func BenchmarkVerify100kSlowPath(b *testing.B) {
	if testing.Short() {
		b.Skip("100,000 documents: skipped under -short")
	}
	benchVerifySlow(b, generatedTree(b, 100_000))
}

// BenchmarkVerify10kAllCodeSlowPath is the slow path on the fast paths'
// worst case (BenchmarkVerify10kAllCode): what they cost when they never
// settle a body.
func BenchmarkVerify10kAllCodeSlowPath(b *testing.B) {
	benchVerifySlow(b, generatedTreeOf(b, treegen.Options{Seed: 1, Docs: 10_000, WideChildren: benchWideChildren, EscapesInCode: 100}))
}

func benchVerifySlow(b *testing.B, t *benchTree) {
	verifyFastPaths = false
	defer func() { verifyFastPaths = true }()
	benchVerify(b, t)
}
