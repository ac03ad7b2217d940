package operations

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// nodeFromDir interprets a relative node path given from a directory dir
// inside the tree below its root (`cd docs/arch && read layers.md`): a
// path beginning with ./ or ../ (or . and ..) is relative to dir; any
// other is tree-relative when that node exists, else relative to dir when
// that one does. Outside the tree, at its root, and for absolute paths the
// node is returned as given, unless it is a path from the command's
// directory outside the tree that lies inside it. The result is still
// checked by tree.Read.
func nodeFromDir(root, dir, node string) string {
	if node == "" || filepath.IsAbs(node) {
		return node
	}
	at, ok := tree.Inside(root, tree.RealPath(dir))
	if !ok {
		// From outside the tree (the project root, say): a path that,
		// taken from the command's directory, lies inside the tree
		// (`read docs/ctx/arch/cart.md`) names that node.
		if rel, inside := tree.Inside(root, filepath.Join(tree.RealPath(dir), filepath.FromSlash(node))); inside && !existsIn(root, node) &&
			(existsIn(root, filepath.ToSlash(rel)) || existsIn(root, filepath.ToSlash(rel)+".md")) {
			return filepath.ToSlash(rel)
		}
		return node
	}
	if at == "." {
		return node
	}
	fromDir := path.Join(filepath.ToSlash(at), node)
	if node == "." || node == ".." || strings.HasPrefix(node, "./") || strings.HasPrefix(node, "../") {
		return fromDir
	}
	if existsIn(root, node) || !existsIn(root, fromDir) {
		return node
	}
	return fromDir
}

// existsIn reports whether a tree-relative path names something inside
// root (never following a final symlink; tree.Read refuses those anyway).
func existsIn(root, rel string) bool {
	rel = path.Clean(rel)
	if rel == ".." || strings.HasPrefix(rel, "../") || path.IsAbs(rel) {
		return false
	}
	_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil
}

// withExtension is a node path given without its .md (`read arch/cart`)
// when only the document exists under that name.
func withExtension(root, node string) string {
	if node == "" || strings.HasSuffix(node, ".md") || existsIn(root, node) || !existsIn(root, node+".md") {
		return node
	}
	return node + ".md"
}
