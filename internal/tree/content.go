package tree

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// openDir lists a directory as readDir does and keeps it open, so that
// its documents are read relative to it (readFileIn).
func (d diskContent) openDir(rel string) ([]fs.DirEntry, *os.File, error) {
	// Not os.Open: it would offer a directory to the network poller (an
	// epoll_ctl and four fcntl per directory); a descriptor os.NewFile
	// wraps costs one fcntl.
	name := filepath.Join(d.root, filepath.FromSlash(rel))
	fd, err := openDirectory(name)
	if err != nil {
		return nil, nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	f := os.NewFile(uintptr(fd), name)
	entries, err := f.ReadDir(-1)
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, f, nil
}

// readFileIn is readFile of the document rel, the entry base of the
// directory dir that openDir opened.
func (d diskContent) readFileIn(buf *[]byte, dir *os.File, base, rel string, limit int64) ([]byte, error) {
	return readDocumentAt(buf, int(dir.Fd()), base, filepath.Join(d.root, filepath.FromSlash(rel)), limit)
}

func (diskContent) precomputed(docJob) (docResult, bool) { return docResult{}, false }
