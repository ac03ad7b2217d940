package tree

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// DocStat is one Markdown document of a tree as a directory listing shows
// it, for indexes that must notice when a document changes.
type DocStat struct {
	Rel     string // tree-relative path of the file (…/NODE.md for an index)
	Size    int64
	ModTime int64 // nanoseconds
	Inode   uint64
}

// ListDocuments lists every content document of the tree at root, sorted
// by path, with the walk verification uses: no symlink is followed or
// listed, infrastructure is skipped, names that are not UTF-8 are skipped.
// Only lstat information is read, never a document's bytes.
func ListDocuments(root string) ([]DocStat, error) {
	var docs []DocStat
	var walk func(rel string) error
	walk = func(rel string) error {
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return contracts.Errorf(contracts.CodeIO, "cannot list %s: %v", rel, unwrapPathError(err))
		}
		for _, e := range entries {
			child := joinEntry(rel, e.Name())
			typ := e.Type()
			if ClassOf(child) == contracts.ClassInfrastructure || !utf8.ValidString(e.Name()) || typ&fs.ModeSymlink != 0 {
				continue
			}
			switch {
			case typ.IsDir():
				if err := walk(child); err != nil {
					return err
				}
			case typ.IsRegular() && IsDocumentName(e.Name()):
				fi, err := e.Info()
				if err != nil {
					continue // removed since the listing
				}
				docs = append(docs, DocStat{Rel: child, Size: fi.Size(), ModTime: fi.ModTime().UnixNano(), Inode: inode(fi)})
			}
		}
		return nil
	}
	if err := walk("."); err != nil {
		return nil, err
	}
	slices.SortFunc(docs, func(a, b DocStat) int { return strings.Compare(a.Rel, b.Rel) })
	return docs, nil
}

// LoadedDocument is one document read for indexing: its node path (a
// directory for NODE.md), metadata and body, and the file line the body
// starts on.
type LoadedDocument struct {
	Node        string
	Kind        contracts.NodeKind
	Class       contracts.Class
	Title       string
	Description string
	Body        []byte
	BodyLine    int
}

// LoadDocument reads the document rel (a path ListDocuments returned) with
// read's guarantees: no symlink followed, a regular file with a single
// link, at most MaxDocumentBytes. buf is reused between calls; the result
// keeps none of it. observe (nil: none) is shown the bytes parsed (see
// Observer).
func LoadDocument(root, rel string, buf *[]byte, observe Observer) (*LoadedDocument, error) {
	if ClassOf(rel) == contracts.ClassInfrastructure || !IsDocumentName(filepath.Base(rel)) {
		return nil, readErr(contracts.CodeReadNotMarkdown, rel, "is not a content document")
	}
	if _, err := lstatChain(root, rel, rel); err != nil {
		return nil, err
	}
	data, err := readDocumentInto(buf, filepath.Join(root, filepath.FromSlash(rel)), contracts.MaxDocumentBytes)
	var hard *hardLinkedError
	var large *tooLargeError
	switch {
	case errors.As(err, &hard):
		return nil, readErr(contracts.CodeReadNotRegular, rel, "has several hard links, and another may lie outside the tree")
	case errors.As(err, &large):
		return nil, readErr(contracts.CodeReadTooLarge, rel, fmt.Sprintf("is %d bytes; the limit is %d", large.size, contracts.MaxDocumentBytes))
	case err != nil:
		return nil, contracts.Errorf(contracts.CodeIO, "cannot read %q: %v", rel, unwrapPathError(err))
	}
	if observe != nil {
		observe(rel, data)
	}
	doc := ParseDocument(rel, data, rel == NodeFile)
	node, kind := rel, contracts.KindDocument
	if dir, name := splitPath(rel); name == NodeFile {
		node, kind = dir, contracts.KindDirectory
	}
	return &LoadedDocument{
		Node: node, Kind: kind, Class: ClassOf(node),
		Title: doc.Meta.Title, Description: doc.Meta.Description,
		Body: slices.Clone(doc.Body), BodyLine: max(doc.BodyLine, 1),
	}, nil
}

// String names a loaded document in test failures.
func (d *LoadedDocument) String() string { return fmt.Sprintf("%s %q", d.Node, d.Title) }

// inode is a file's inode number, 0 when the platform does not say; with
// size and modification time it tells a replaced file from the old one.
func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}

// ReadDocumentFile reads a document file as verifying a tree on disk
// does (readDocumentInto, at most MaxDocumentBytes) into *buf, which it
// grows and reuses.
func ReadDocumentFile(buf *[]byte, name string) ([]byte, error) {
	return readDocumentInto(buf, name, contracts.MaxDocumentBytes)
}
