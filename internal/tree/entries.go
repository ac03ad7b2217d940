package tree

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Entry is one document of a tree as exports see it: its metadata and its
// body with the frontmatter removed.
type Entry struct {
	Path        string // tree-relative, "/"-separated
	Class       contracts.Class
	Depth       int  // 0 for documents in the root directory
	Index       bool // a directory's NODE.md
	Title       string
	Description string
	// SoftLinks are the valid soft_links entries as written (resolve
	// them with ResolveTarget from the root).
	SoftLinks []string
	// LLMS is the frontmatter's llms value (optional or exclude), if any.
	LLMS string
	Body string
	// Unreadable says why the document's body could not be read (a
	// hard-linked or oversized file, a header that does not parse); such
	// an entry has no body and exports leave it out.
	Unreadable string
}

// Documents lists every content document of the tree at root (from
// OpenRoot) in tree order: each directory's NODE.md, then its other
// documents by name, then its subdirectories by name, depth first. It
// walks by verify's rules: infrastructure and symlinks are skipped unread,
// documents are opened without following links, and a hard-linked or
// oversized one is listed as unreadable. A directory that cannot be listed
// fails the whole listing, since an export that silently lost a directory
// would look complete.
func Documents(root string) ([]Entry, error) {
	return DocumentsObserved(root, nil)
}

// DocumentsObserved is Documents showing observe (nil: none) each
// document's bytes as read (see Observer).
func DocumentsObserved(root string, observe Observer) ([]Entry, error) {
	var out []Entry
	var buf []byte
	src := diskContent{root: root}
	visit := func(rel string, depth int) { out = append(out, readEntry(src, rel, depth, &buf, observe)) }
	if err := listDocuments(src, ".", 0, visit); err != nil {
		return nil, err
	}
	return out, nil
}

// listDocuments calls visit with every content document below rel, in
// tree order (see Documents).
func listDocuments(src diskContent, rel string, depth int, visit func(rel string, depth int)) error {
	entries, err := src.readDir(rel)
	if err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot list %s: %v", rel, unwrapPathError(err))
	}
	var docs, dirs []string
	for _, e := range entries {
		name := e.Name()
		child := joinEntry(rel, name)
		typ := e.Type()
		switch {
		case ClassOf(child) == contracts.ClassInfrastructure, !utf8.ValidString(name), typ&fs.ModeSymlink != 0:
			continue
		case typ.IsDir():
			dirs = append(dirs, child)
		case typ.IsRegular() && IsDocumentName(name) && name == NodeFile:
			docs = append([]string{child}, docs...)
		case typ.IsRegular() && IsDocumentName(name):
			docs = append(docs, child)
		}
	}
	for _, d := range docs {
		visit(d, depth)
	}
	for _, d := range dirs {
		if err := listDocuments(src, d, depth+1, visit); err != nil {
			return err
		}
	}
	return nil
}

// readEntry reads and parses one document. The title falls back to the
// file name (or the directory's, for an index) so every entry can be named.
func readEntry(src diskContent, rel string, depth int, buf *[]byte, observe Observer) Entry {
	isIndex := path.Base(rel) == NodeFile
	e := Entry{Path: rel, Class: ClassOf(rel), Depth: depth, Index: isIndex, Title: fallbackTitle(rel)}
	data, err := src.readFile(buf, rel, contracts.MaxDocumentBytes)
	if err != nil {
		e.Unreadable = fmt.Sprintf("cannot be read: %v", unwrapPathError(err))
		return e
	}
	if observe != nil {
		observe(rel, data)
	}
	doc := ParseDocument(rel, data, rel == NodeFile)
	if doc.Meta.Title != "" {
		e.Title = doc.Meta.Title
	}
	e.Description, e.LLMS = doc.Meta.Description, doc.Meta.LLMS
	for _, sl := range doc.Meta.SoftLinks {
		e.SoftLinks = append(e.SoftLinks, sl.Value)
	}
	if doc.Body == nil {
		e.Unreadable = "its frontmatter cannot be parsed"
		return e
	}
	if !utf8.Valid(doc.Body) {
		e.Unreadable = "its body is not UTF-8 text"
		return e
	}
	e.Body = string(doc.Body) // a copy: buf is reused
	return e
}

func fallbackTitle(rel string) string {
	if path.Base(rel) == NodeFile {
		rel = path.Dir(rel)
		if rel == "." {
			return "Root"
		}
	}
	return strings.TrimSuffix(path.Base(rel), ".md")
}
