package tree

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// localLink is a Markdown link to a path inside the tree.
type localLink struct {
	path string // tree-relative, clean ("." is the root)
	line int
	dest string // as written
}

// checkLocalLink reports a Markdown link whose target does not exist
// (VerifyOptions.Links). Any entry counts, documents, assets and
// directories alike: S16 leaves link targets to the author, so this only
// catches paths that name nothing. A link written from the tree root but
// resolved from its document gets a hint.
func (w *walker) checkLocalLink(rel string, l localLink) (contracts.Finding, bool) {
	if w.src.exists(l.path) {
		return contracts.Finding{}, false
	}
	msg := "Markdown link target " + l.path + " does not exist"
	dest := strings.TrimSpace(l.dest)
	if !strings.HasPrefix(dest, "/") {
		if p, v := ResolveTarget(".", dest, true); v == TargetInside && p != l.path && w.src.exists(p) {
			msg += "; " + p + " exists: a Markdown link is relative to its document (write /" + p + " for a path from the tree root)"
		}
	}
	return contracts.Finding{Code: contracts.FindingMarkdownLinkBroken, Path: rel, Line: l.line, Target: l.dest, Message: msg}, true
}

// exists reports whether a tree-relative path names an entry on disk
// (never following a final symlink).
func (d diskContent) exists(rel string) bool {
	_, err := os.Lstat(filepath.Join(d.root, filepath.FromSlash(rel)))
	return err == nil
}

// exists reports whether a tree-relative path is a staged entry or a
// directory holding one.
func (c *indexContent) exists(rel string) bool {
	if _, ok := c.dirs[rel]; ok {
		return true
	}
	dir, name := splitPath(rel)
	for _, e := range c.dirs[dir] {
		if e.Name() == name {
			return true
		}
	}
	return false
}
