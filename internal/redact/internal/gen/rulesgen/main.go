// Command rulesgen writes rules_gen.go, gitleaks' default rules as Go data
// for package redact; run it through `go generate ./internal/redact`.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/git-context-tree/git-context-tree/internal/redact/internal/gen"
)

func main() {
	out := flag.String("o", "rules_gen.go", "file to write")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "rulesgen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	version, licence, err := gen.Locate()
	if err != nil {
		return err
	}
	src, err := gen.Source(version, licence)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, src, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	return nil
}
