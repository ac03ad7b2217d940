package redact

import (
	"os"
	"strings"
	"testing"
)

func BenchmarkStringLine(b *testing.B) {
	line := "docs/context/architecture/layers.md:12: TREE_SOFT_LINK_BROKEN soft link architecture/missing.md does not exist"
	for b.Loop() {
		String(line)
	}
}

func BenchmarkStringDocument(b *testing.B) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		b.Fatal(err)
	}
	doc := strings.Repeat(string(data), 1)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		String(doc)
	}
}

// BenchmarkLoadRules: building the rule set from the generated data, the
// cost the first text holding a rule keyword pays.
func BenchmarkLoadRules(b *testing.B) {
	for b.Loop() {
		newRuleSet(gitleaksGlobal, gitleaksRules, ruleKeywords())
	}
}
