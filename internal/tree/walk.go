package tree

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// walker lists a tree's content without following any symlink. Entry types
// come from the directory listing (lstat semantics), so symlink targets are
// never read.
type walker struct {
	root     string
	jobs     chan<- docJob
	findings []contracts.Finding
	scanned  contracts.Scanned
	docs     map[string]bool // every regular content document
	dirNodes map[string]bool // every content directory with a regular NODE.md
}

type docJob struct {
	rel  string
	abs  string
	size int64
	root bool
}

func (w *walker) add(code contracts.FindingCode, rel, msg string) {
	w.findings = append(w.findings, contracts.Finding{Code: code, Message: msg, Path: rel})
}

// walkDir lists one content directory and recurses into its subdirectories.
func (w *walker) walkDir(rel string) {
	abs := filepath.Join(w.root, filepath.FromSlash(rel))
	entries, err := os.ReadDir(abs)
	w.scanned.Directories++
	if err != nil {
		w.add(contracts.FindingDocumentUnreadable, rel, fmt.Sprintf("directory cannot be read: %v", unwrapPathError(err)))
		return
	}
	hasNode := false
	var subdirs []string
	for _, e := range entries {
		name := e.Name()
		child := path.Join(rel, name)
		if ClassOf(child) == contracts.ClassInfrastructure {
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
			w.docs[child] = true
			w.scanned.Documents++
			if ClassOf(child) == contracts.ClassMember {
				w.scanned.Member++
			} else {
				w.scanned.Normal++
			}
			var size int64
			if info, err := e.Info(); err == nil {
				size = info.Size()
			}
			w.jobs <- docJob{rel: child, abs: filepath.Join(abs, name), size: size, root: rel == "." && name == NodeFile}
		default:
			w.scanned.Assets++
		}
	}
	switch {
	case hasNode:
		w.dirNodes[rel] = true
	case rel == ".":
		w.add(contracts.FindingRootMissing, ".", "the tree root has no regular NODE.md")
	default:
		w.add(contracts.FindingDirectoryNodeMissing, rel, "directory has no NODE.md index")
	}
	for _, d := range subdirs {
		w.walkDir(d)
	}
}
