package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-context-tree/git-context-tree/internal/cli"
	"github.com/git-context-tree/git-context-tree/internal/treegen"
)

func BenchmarkZZWide(b *testing.B) {
	wide := filepath.Join("/tmp/h16", "wide")
	if _, err := os.Stat(wide); err != nil {
		if err := treegen.Generate(wide, treegen.Options{Seed: 1, Docs: 1_100, WideChildren: 1_000}); err != nil {
			b.Fatal(err)
		}
	}
	os.Chdir(wide)
	for b.Loop() {
		if cli.Main([]string{"read", treegen.WideDir}, nil, io.Discard, io.Discard) != 0 {
			b.Fatal("fail")
		}
	}
}
