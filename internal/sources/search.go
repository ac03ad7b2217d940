package sources

import (
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// SearchDirs is the one rule for "the nearest X at or above start" (S5):
// start and its ancestors, nearest first, up to and including checkout,
// the git work tree root, which the search never crosses, so a nested
// repository never sees its parent's files. Outside git (checkout "") it
// goes up to the filesystem root. A start that is not below checkout
// (GIT_WORK_TREE naming another directory) searches checkout alone. Both
// paths must be real (tree.RealPath), as git prints its toplevel resolved.
func SearchDirs(start, checkout string) []string {
	start = filepath.Clean(start)
	if checkout != "" {
		checkout = filepath.Clean(checkout)
		if _, ok := tree.Inside(checkout, start); !ok {
			return []string{checkout}
		}
	}
	var dirs []string
	for d := start; ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if d == checkout || d == filepath.Dir(d) {
			return dirs
		}
	}
}

// ConfigCandidates lists where the project configuration of a command
// started in start may be, nearest first; the first that exists (on disk,
// or in the index for verify --staged) is the project's.
func ConfigCandidates(start, checkout string) []string {
	dirs := SearchDirs(start, checkout)
	for i, d := range dirs {
		dirs[i] = filepath.Join(d, contracts.ConfigFile)
	}
	return dirs
}
