// Package sources finds trees: project discovery, source identities and
// selectors, directory resolution, git caches and snapshots.
package sources

import (
	"context"
	"os"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// FindTreeRoot returns the tree root for a command run in start with no
// tree named: the nearest directory at or above start whose NODE.md declares
// schemaVersion, searched as SearchDirs says. If there is none but start
// itself has a NODE.md, start is the root (verification then says what is
// wrong with it).
func FindTreeRoot(ctx context.Context, g *git.Git, start string) (string, error) {
	dir, err := filepath.EvalSymlinks(start)
	if err != nil {
		return "", contracts.Errorf(contracts.CodeIO, "cannot resolve %s: %v", start, err)
	}
	top, err := g.Toplevel(ctx, git.Isolated, dir)
	if err != nil {
		return "", contracts.Errorf(contracts.CodeGit, "%v", err)
	}
	if top != "" {
		top = tree.RealPath(top)
	}
	for _, d := range SearchDirs(dir, top) {
		if declaresRoot(filepath.Join(d, tree.NodeFile)) {
			return tree.OpenRoot(d)
		}
	}
	if tree.IsTreeRoot(dir) {
		return tree.OpenRoot(dir)
	}
	return "", contracts.Errorf(contracts.CodeNotATree,
		"no tree root (a NODE.md with schemaVersion) at or above %s; name a tree directory, or create one with `git context-tree init`", start).
		WithDetails(map[string]any{"path": dir})
}

// declaresRoot reports whether name is a regular NODE.md whose frontmatter
// has a schemaVersion key.
func declaresRoot(name string) bool {
	fi, err := os.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > contracts.MaxDocumentBytes {
		return false
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return false
	}
	fm, err := tree.ParseFrontmatter(data)
	if err != nil {
		return false
	}
	for i := 0; i+1 < len(fm.Mapping.Content); i += 2 {
		if fm.Mapping.Content[i].Value == "schemaVersion" {
			return true
		}
	}
	return false
}
