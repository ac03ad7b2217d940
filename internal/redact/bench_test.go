package redact

import (
	"os"
	"strings"
	"testing"

	"github.com/zricethezav/gitleaks/v8/config"
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

func BenchmarkParseRules(b *testing.B) {
	for b.Loop() {
		if _, err := parseRules(config.DefaultConfig); err != nil {
			b.Fatal(err)
		}
	}
}
