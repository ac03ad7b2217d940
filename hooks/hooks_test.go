package hooks

import (
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/internal/buildinfo"
)

func TestVersion(t *testing.T) {
	if v := CurrentVersion(); v != 4 {
		t.Fatalf("embedded shim version = %d", v)
	}
	if _, ok := Version([]byte("#!/bin/sh\nnpx lint-staged\n")); ok {
		t.Error("a foreign hook was taken for ours")
	}
	if v, ok := Version([]byte("#!/bin/sh\n# git-context-tree pre-commit hook, version 0\n")); !ok || v != 0 {
		t.Errorf("old shim: %d %v", v, ok)
	}
}

// TestShimNamesTheInstallCommand: a shim that finds no binary names the
// command that installs it from anywhere, the one doctor names too.
func TestShimNamesTheInstallCommand(t *testing.T) {
	s := string(PreCommit)
	if !strings.Contains(s, buildinfo.InstallCommand) || strings.Contains(s, "./cmd/") {
		t.Errorf("the shim does not name %q (or names a clone-only path):\n%s", buildinfo.InstallCommand, s)
	}
}
