// Command vocabgen writes vocab/, tiktoken-go's token vocabularies as
// compact data for package export; run it through
// `go generate ./internal/export`.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/internal/export/internal/gen"
)

func main() {
	dir := flag.String("o", "vocab", "directory to write")
	flag.Parse()
	if err := run(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "vocabgen:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	version, licence, err := gen.Locate()
	if err != nil {
		return err
	}
	files, err := gen.Files(version, licence)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	return nil
}
