package tree

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
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

// openDir lists a directory as readDir does, each entry with its
// tree-relative path, and keeps it open, so that its documents are read
// relative to it (readFileIn). buf is getdents64's buffer.
func (d diskContent) openDir(rel string, buf []byte) ([]dirEntry, *dirHandle, error) {
	// Not os.Open nor os.NewFile: they offer a directory to the network
	// poller or cost an fcntl, a finalizer and a DirEntry per entry.
	name := filepath.Join(d.root, filepath.FromSlash(rel))
	fd, err := openDirectory(name)
	if err != nil {
		return nil, nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	var entries []dirEntry
	err = listDirectory(fd, name, buf, func(base []byte, typ fs.FileMode) {
		entries = append(entries, dirEntry{child: joinEntryBytes(rel, base), typ: typ, dir: name})
	})
	if err != nil {
		_ = syscall.Close(fd)
		return nil, nil, &os.PathError{Op: "readdirent", Path: name, Err: err}
	}
	slices.SortFunc(entries, func(a, b dirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, &dirHandle{fd: fd}, nil
}

// dirHandle is a directory openDir keeps open.
type dirHandle struct{ fd int }

func (h *dirHandle) Close() error { return syscall.Close(h.fd) }

// dirEntry is an entry openDir lists: an fs.DirEntry that also knows its
// tree-relative path.
type dirEntry struct {
	child string      // tree-relative path
	typ   fs.FileMode // type bits only
	dir   string      // the directory's path, for Info
}

func (e *dirEntry) Name() string {
	return e.child[strings.LastIndexByte(e.child, '/')+1:]
}
func (e *dirEntry) IsDir() bool       { return e.typ.IsDir() }
func (e *dirEntry) Type() fs.FileMode { return e.typ }
func (e *dirEntry) Info() (fs.FileInfo, error) {
	return os.Lstat(filepath.Join(e.dir, e.Name()))
}

// readFileIn is readFile of the document rel, the entry base of the
// directory dir that openDir opened.
func (d diskContent) readFileIn(buf *[]byte, dir *dirHandle, base, rel string, limit int64) ([]byte, error) {
	return readDocumentAt(buf, dir.fd, base, docPath{dir: d.root, rel: filepath.FromSlash(rel)}, limit)
}

func (diskContent) precomputed(docJob) (docResult, bool) { return docResult{}, false }
