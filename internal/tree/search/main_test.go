package search

import (
	"os"
	"testing"
)

var tmpDirs []string

// tempDir is a directory TestMain removes: benchmark trees outlive one
// benchmark, so testing.B's TempDir cannot hold them.
func tempDir() (string, error) {
	d, err := os.MkdirTemp("", "search-bench-")
	if err == nil {
		tmpDirs = append(tmpDirs, d)
	}
	return d, err
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range tmpDirs {
		_ = os.RemoveAll(d)
	}
	os.Exit(code)
}
