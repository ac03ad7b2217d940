package tree

import (
	"io/fs"
	"os"
	"path/filepath"
)

// content is where verification reads a tree from: a directory on disk, or
// the staged entries of a git index. Paths are tree-relative with "/".
type content interface {
	// readDir lists a directory with lstat file types (a symlink is a
	// symlink, never its target), sorted by name.
	readDir(rel string) ([]fs.DirEntry, error)
	// readFile returns a regular file's bytes, at most limit of them (a
	// *tooLargeError beyond), reusing *buf when it can.
	readFile(buf *[]byte, rel string, limit int64) ([]byte, error)
	// precomputed returns a document's result when the content already
	// holds it (VerifyIndexResults), so the document is not read.
	precomputed(j docJob) (docResult, bool)
	// exists reports whether a tree-relative path names an entry.
	exists(rel string) bool
}

// diskContent is a tree in a directory.
type diskContent struct{ root string }

func (d diskContent) readDir(rel string) ([]fs.DirEntry, error) {
	return os.ReadDir(filepath.Join(d.root, filepath.FromSlash(rel)))
}

func (d diskContent) readFile(buf *[]byte, rel string, limit int64) ([]byte, error) {
	return readDocumentInto(buf, filepath.Join(d.root, filepath.FromSlash(rel)), limit)
}

func (diskContent) precomputed(docJob) (docResult, bool) { return docResult{}, false }
