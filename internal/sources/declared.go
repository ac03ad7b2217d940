package sources

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// A declared directory tree is reached without symlinks inside the project
// (issue 11, break 3): a configuration naming docs/context, where docs or
// docs/context is a symlink, would otherwise have every command follow it,
// into another directory or another repository, and open a write session
// there. So a connection's Dir is the declared path resolved only through
// symlinks that lie outside the project (the OS's own, such as /tmp on
// macOS, or a symlinked home); from the first symlink inside the project,
// and for the root itself wherever it is, the path stays as declared. Dir
// is then not a real path, and OpenDirectoryRoot, which every use of a
// directory source goes through (ResolveDirectory included), refuses it
// with TREE_ROOT_SYMLINK, naming the symlink.

// declaredDir is where a directory source's path leads: see above. path is
// the configuration's value (relative to projectRoot, a real path, or
// absolute).
func declaredDir(projectRoot, path string) string {
	cur, rest := projectRoot, path
	if filepath.IsAbs(path) {
		cur, rest = string(filepath.Separator), strings.TrimPrefix(filepath.Clean(path), string(filepath.Separator))
	}
	segs := strings.Split(filepath.ToSlash(rest), "/")
	for i, seg := range segs {
		if seg == "" || seg == "." {
			continue
		}
		next := filepath.Join(cur, seg)
		fi, err := os.Lstat(next)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			if err != nil {
				// Missing (or unreadable): the rest stays as written.
				return filepath.Join(append([]string{cur}, segs[i:]...)...)
			}
			cur = next
			continue
		}
		_, inProject := tree.Inside(projectRoot, cur)
		if inProject || i == len(segs)-1 {
			return filepath.Join(append([]string{cur}, segs[i:]...)...)
		}
		target, err := filepath.EvalSymlinks(next)
		if err != nil {
			return filepath.Join(append([]string{cur}, segs[i:]...)...)
		}
		cur = target
	}
	return cur
}

// firstSymlink returns the first component of the absolute path p that is
// a symlink, "" when none is.
func firstSymlink(p string) string {
	p = filepath.Clean(p)
	cur := string(filepath.Separator)
	for _, seg := range strings.Split(strings.TrimPrefix(p, cur), string(filepath.Separator)) {
		if seg == "" {
			continue
		}
		cur = filepath.Join(cur, seg)
		fi, err := os.Lstat(cur)
		if err != nil {
			return ""
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return cur
		}
	}
	return ""
}

// OpenDirectoryRoot opens a tree root that must be reached without any
// symlink: dir is absolute and every component of it is a real directory
// (a connection's Dir, or a real path). It returns the root, or
// TREE_ROOT_SYMLINK naming the symlink on the way, TREE_NOT_FOUND or
// NOT_A_TREE as tree.OpenRoot does.
func OpenDirectoryRoot(dir string) (string, error) {
	root, err := tree.OpenRoot(dir)
	if err != nil {
		return "", err
	}
	abs, _ := filepath.Abs(dir)
	if root == abs {
		return root, nil
	}
	link := firstSymlink(abs)
	if link == "" {
		return root, nil // resolved differently but through no symlink (a race): the real path is what we use
	}
	target, _ := os.Readlink(link)
	return "", contracts.Errorf(contracts.CodeRootSymlink,
		"%s lies below the symlink %s (-> %s); a declared tree root must be reached without symlinks, so nothing follows it", abs, link, target).
		WithDetails(map[string]any{"path": abs, "symlink": link})
}
