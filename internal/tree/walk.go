package tree

import (
	"fmt"
	"io/fs"
	"unicode/utf8"
	"unsafe"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// walker lists a tree's content without following any symlink. Entry types
// come from the directory listing (lstat semantics), so symlink targets are
// never read.
type walker struct {
	src      content
	jobs     chan<- []docJob // the documents of one directory at a time
	findings []contracts.Finding
	scanned  contracts.Scanned
	// linkable is what a soft link may name: every regular content
	// document and every content directory with a regular NODE.md (a
	// path is never both).
	linkable map[string]struct{}
	// links asks every document's Markdown links to be listed, for the
	// existence check (VerifyOptions.Links).
	links bool
	dents []byte // getdents64's buffer (openDir)
}

type docJob struct {
	rel   string
	root  bool
	links bool        // list its local Markdown links (VerifyOptions.Links)
	entry fs.DirEntry // its entry in the directory listing
	// dir is its directory, kept open by the walk so that the document is
	// opened relative to it (diskContent on Linux; nil elsewhere). Every
	// job of a batch shares it; the worker closes it after the batch.
	dir *dirHandle
}

func (w *walker) add(code contracts.FindingCode, rel, msg string) {
	w.findings = append(w.findings, contracts.Finding{Code: code, Message: msg, Path: rel})
}

// walkDir lists one content directory and recurses into its subdirectories.
func (w *walker) walkDir(rel string) {
	var entries []fs.DirEntry
	var dir *dirHandle
	var err error
	if disk, ok := w.src.(diskContent); ok && openAtDirs {
		if w.dents == nil {
			w.dents = make([]byte, 32<<10)
		}
		var listed []dirEntry
		listed, dir, err = disk.openDir(rel, w.dents)
		entries = make([]fs.DirEntry, len(listed))
		for i := range listed {
			entries[i] = &listed[i]
		}
	} else {
		entries, err = w.src.readDir(rel)
	}
	w.scanned.Directories++
	if err != nil {
		w.add(contracts.FindingDocumentUnreadable, rel, fmt.Sprintf("directory cannot be read: %v", unwrapPathError(err)))
		return
	}
	hasNode := false
	var subdirs []string
	var batch []docJob
	for _, e := range entries {
		name := e.Name()
		var child string
		if de, ok := e.(*dirEntry); ok {
			child = de.child
		} else {
			child = joinEntry(rel, name)
		}
		class := ClassOf(child)
		if class == contracts.ClassInfrastructure {
			continue
		}
		if !utf8.ValidString(name) {
			// JSON, selectors and links cannot name it: report it, skip it.
			w.add(contracts.FindingDocumentUnreadable, child, "the name is not valid UTF-8, so the tree cannot refer to it; rename it")
			continue
		}
		typ := e.Type()
		switch {
		case typ&fs.ModeSymlink != 0:
			w.add(contracts.FindingSymlinkUnsupported, child, "symlinks are not supported in tree content; its target was not read")
		case typ.IsDir():
			subdirs = append(subdirs, child)
		case !typ.IsRegular():
			w.add(contracts.FindingNotRegular, child, "not a regular file or directory")
		case IsDocumentName(name):
			if name == NodeFile {
				hasNode = true
			}
			w.linkable[child] = struct{}{}
			w.scanned.Documents++
			if class == contracts.ClassMember {
				w.scanned.Member++
			} else {
				w.scanned.Normal++
			}
			batch = append(batch, docJob{rel: child, root: rel == "." && name == NodeFile, links: w.links, entry: e, dir: dir})
		default:
			w.scanned.Assets++
		}
	}
	if len(batch) > 0 {
		w.jobs <- batch // the worker closes dir
	} else if dir != nil {
		_ = dir.Close()
	}
	switch {
	case hasNode:
		w.linkable[rel] = struct{}{}
	case rel == ".":
		w.add(contracts.FindingRootMissing, ".", "the tree root has no regular NODE.md")
	default:
		w.add(contracts.FindingDirectoryNodeMissing, rel, "directory has no NODE.md index")
	}
	for _, d := range subdirs {
		w.walkDir(d)
	}
}

// joinEntryBytes is joinEntry of a name given as bytes, in one allocation.
func joinEntryBytes(dir string, name []byte) string {
	if dir == "." {
		return string(name)
	}
	b := make([]byte, 0, len(dir)+1+len(name))
	b = append(append(append(b, dir...), '/'), name...)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// joinEntry is path.Join(dir, name) for a clean directory and a name from
// its listing (never "", "." or "..", never holding "/"), without Clean.
func joinEntry(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}
