// Package hooks holds the git hook shims git-context-tree installs, embedded
// in the binary.
package hooks

import (
	_ "embed"
	"strconv"
	"strings"
)

// PreCommit is the hook shim, installed as pre-commit, pre-merge-commit,
// prepare-commit-msg and pre-applypatch: it chains a pre-existing hook
// kept as <hook>.local, honours GIT_CONTEXT_TREE_SKIP=1, fails loudly when
// git-context-tree is not on PATH, then runs `verify --staged --hook
// <hook>`.
//
//go:embed pre-commit
var PreCommit []byte

// markerPrefix begins the second line of every shim version.
const markerPrefix = "# git-context-tree pre-commit hook, version "

// Version reads the shim version from a hook file's content: ok is false
// when the file is not a git-context-tree shim.
func Version(content []byte) (version int, ok bool) {
	lines := strings.SplitN(string(content), "\n", 3)
	if len(lines) < 2 || !strings.HasPrefix(lines[1], markerPrefix) {
		return 0, false
	}
	v, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(lines[1], markerPrefix)))
	return v, err == nil
}

// CurrentVersion is the version of the embedded shim.
func CurrentVersion() int {
	v, _ := Version(PreCommit)
	return v
}
