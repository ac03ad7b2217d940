package tree

import (
	"fmt"
	"os"
	"path"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// ReadAsset reads a file of the tree at root by its tree path, as a site
// may copy it: a clean path inside the tree, outside infrastructure,
// reached through no symlink (no directory above it may be one, and the
// file itself is opened without following one), a regular file with one
// link, at most limit bytes.
func ReadAsset(root, rel string, limit int64) ([]byte, error) {
	if rel == "" || rel == "." || path.Clean(rel) != rel || path.IsAbs(rel) || rel == ".." || len(rel) > 2 && rel[:3] == "../" {
		return nil, fmt.Errorf("%q is not a path inside the tree", rel)
	}
	if ClassOf(rel) == contracts.ClassInfrastructure {
		return nil, fmt.Errorf("%s is infrastructure", rel)
	}
	for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
		fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("%s is not reached through directories only", rel)
		}
	}
	var buf []byte
	data, err := readDocumentInto(&buf, filepath.Join(root, filepath.FromSlash(rel)), limit)
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), data...), nil
}
