package tree

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// IndexEntry is one file of a tree as a git index records it: a
// tree-relative path and its git mode ("100644", "100755", "120000" for a
// symlink, "160000" for a gitlink).
type IndexEntry struct {
	Path string
	Mode string
}

// indexContent serves a tree's content from index entries and blob bytes,
// so verification can check exactly what is staged without the work tree.
type indexContent struct {
	dirs  map[string][]fs.DirEntry // directory → its entries, sorted
	blobs map[string][]byte        // document path → staged bytes
}

// newIndexContent builds the directory structure the entries imply.
// blobs holds the content of every entry that is a document.
func newIndexContent(entries []IndexEntry, blobs map[string][]byte) *indexContent {
	c := &indexContent{dirs: map[string][]fs.DirEntry{".": nil}, blobs: blobs}
	seen := map[string]bool{}
	add := func(dir string, e fs.DirEntry) {
		key := path.Join(dir, e.Name())
		if !seen[key] {
			seen[key] = true
			c.dirs[dir] = append(c.dirs[dir], e)
		}
	}
	for _, e := range entries {
		p := e.Path
		dir := path.Dir(p)
		for d := dir; d != "."; d = path.Dir(d) {
			if _, ok := c.dirs[d]; !ok {
				c.dirs[d] = nil
			}
			add(path.Dir(d), indexEntry{name: path.Base(d), mode: fs.ModeDir})
		}
		add(dir, indexEntry{name: path.Base(p), mode: gitMode(e.Mode), size: int64(len(blobs[p]))})
	}
	for _, list := range c.dirs {
		slices.SortFunc(list, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	}
	return c
}

// gitMode maps a git mode to the file type a directory listing would give.
func gitMode(mode string) fs.FileMode {
	switch mode {
	case "120000":
		return fs.ModeSymlink
	case "160000":
		return fs.ModeIrregular // a gitlink: another repository's commit
	default:
		return 0
	}
}

func (c *indexContent) path() string { return "" }

func (c *indexContent) readDir(rel string) ([]fs.DirEntry, error) {
	list, ok := c.dirs[rel]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return list, nil
}

func (c *indexContent) readFile(_ *[]byte, rel string, limit int64) ([]byte, error) {
	data, ok := c.blobs[rel]
	if !ok {
		return nil, fmt.Errorf("%s: %w", rel, fs.ErrNotExist)
	}
	if int64(len(data)) > limit {
		return nil, &tooLargeError{size: int64(len(data))}
	}
	return data, nil
}

// indexEntry is a directory entry of indexContent.
type indexEntry struct {
	name string
	mode fs.FileMode
	size int64
}

func (e indexEntry) Name() string               { return e.name }
func (e indexEntry) IsDir() bool                { return e.mode.IsDir() }
func (e indexEntry) Type() fs.FileMode          { return e.mode.Type() }
func (e indexEntry) Info() (fs.FileInfo, error) { return nil, fs.ErrInvalid }

// VerifyIndex verifies a tree exactly as a git index holds it (S16 for
// what is being committed): entries are the tree's index entries with
// tree-relative paths, and blobs the staged bytes of every document among
// them. Symlink entries are TREE_SYMLINK_UNSUPPORTED and gitlinks
// TREE_ENTRY_UNSUPPORTED; files only in the work tree do not exist.
func VerifyIndex(entries []IndexEntry, blobs map[string][]byte) *Report {
	return verifyContent(newIndexContent(entries, blobs))
}

// WantsBlob reports whether VerifyIndex needs the content of an entry:
// regular documents outside infrastructure.
func WantsBlob(e IndexEntry) bool {
	return gitMode(e.Mode) == 0 && IsDocumentName(path.Base(e.Path)) && ClassOf(e.Path) != contracts.ClassInfrastructure
}
