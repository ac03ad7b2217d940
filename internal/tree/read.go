package tree

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// NodeRead is one node with its immediate children (S16).
type NodeRead struct {
	Node     contracts.Node
	Children []contracts.ChildNode
}

// Read returns the node named by node (tree-relative; "" or "." is the root;
// a directory or its NODE.md names the directory's index) and summaries of
// its immediate children. It does not expand soft links, load the tree
// recursively or verify anything but the node itself. It refuses
// traversal outside the tree, infrastructure, non-Markdown targets and any
// symlink on the way to the target.
func Read(root, node string) (*NodeRead, error) {
	return ReadObserved(root, node, nil)
}

// Observer is shown every document a read parses, its tree-relative path
// and its bytes as read, so a caller can hold what was served to what it
// should be (a snapshot's commit). It may be called from several
// goroutines at once; data is valid only during the call.
type Observer func(docRel string, data []byte)

// ReadObserved is Read showing observe (nil: none) each document it reads.
func ReadObserved(root, node string, observe Observer) (*NodeRead, error) {
	rel, err := cleanNodePath(root, node)
	if err != nil {
		return nil, err
	}
	if ClassOf(rel) == contracts.ClassInfrastructure {
		return nil, readErr(contracts.CodeReadInfrastructure, node, "is repository infrastructure, not tree content")
	}
	fi, err := lstatChain(root, rel, node)
	if err != nil {
		return nil, err
	}
	kind, docRel := contracts.KindDocument, rel
	switch {
	case fi.IsDir():
		kind, docRel = contracts.KindDirectory, path.Join(rel, NodeFile)
		if fi, err = lstatChain(root, docRel, node); err != nil {
			return nil, missingIndex(err, node)
		}
	case path.Base(rel) == NodeFile:
		kind, rel = contracts.KindDirectory, path.Dir(rel)
	case !IsDocumentName(path.Base(rel)):
		return nil, readErr(contracts.CodeReadNotMarkdown, node, "is not a Markdown document (*.md)")
	}
	if !fi.Mode().IsRegular() {
		return nil, readErr(contracts.CodeReadNotRegular, node, "is not a regular file")
	}
	data, err := readDocument(filepath.Join(root, filepath.FromSlash(docRel)), node)
	if err != nil {
		return nil, err
	}
	if observe != nil {
		observe(docRel, data)
	}
	doc := ParseDocument(docRel, data, docRel == NodeFile)
	res := &NodeRead{Node: nodeOf(rel, kind, doc), Children: []contracts.ChildNode{}}
	if kind == contracts.KindDirectory {
		if res.Children, err = children(root, rel, observe); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// missingIndex words READ_NOT_FOUND for a directory that has no NODE.md.
func missingIndex(err error, node string) error {
	var ce *contracts.Error
	if errors.As(err, &ce) && ce.Code == contracts.CodeReadNotFound {
		return readErr(contracts.CodeReadNotFound, node, "is a directory without a NODE.md index")
	}
	return err
}

func readErr(code contracts.ErrorCode, node, why string) error {
	return contracts.Errorf(code, "cannot read %q: it %s", node, why).WithDetails(map[string]any{"node": node})
}

// cleanNodePath turns the requested node into a clean tree-relative path.
// An absolute path is accepted when it lies inside the tree root.
func cleanNodePath(root, node string) (string, error) {
	p := node
	if filepath.IsAbs(p) {
		r, ok := Inside(root, p)
		if !ok {
			return "", readErr(contracts.CodeReadPathEscape, node, "is outside the tree "+root)
		}
		p = filepath.ToSlash(r)
	}
	p = path.Clean("./" + p)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", readErr(contracts.CodeReadPathEscape, node, "leaves the tree")
	}
	return p, nil
}

// lstatChain lstats every component of rel below root, refusing symlinks
// at any depth, and returns the last component's info.
func lstatChain(root, rel, node string) (fs.FileInfo, error) {
	fi, err := os.Lstat(root)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot read tree root %s: %v", root, unwrapPathError(err))
	}
	if rel == "." {
		return fi, nil
	}
	cur := root
	for _, seg := range strings.Split(rel, "/") {
		cur = filepath.Join(cur, seg)
		fi, err = os.Lstat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
			return nil, readErr(contracts.CodeReadNotFound, node, "does not exist in the tree")
		case err != nil:
			return nil, contracts.Errorf(contracts.CodeIO, "cannot read %q: %v", node, unwrapPathError(err))
		case fi.Mode()&fs.ModeSymlink != 0:
			return nil, readErr(contracts.CodeReadSymlink, node, "is or lies behind a symlink, which tree content may not use")
		}
	}
	return fi, nil
}

// readDocument opens a document without following symlinks and refuses a
// file with several hard links, since another link may lie outside the tree.
func readDocument(name, node string) ([]byte, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, readErr(contracts.CodeReadSymlink, node, "is a symlink")
		}
		return nil, contracts.Errorf(contracts.CodeIO, "cannot read %q: %v", node, unwrapPathError(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot read %q: %v", node, unwrapPathError(err))
	}
	if !fi.Mode().IsRegular() {
		return nil, readErr(contracts.CodeReadNotRegular, node, "is not a regular file")
	}
	if n := hardLinks(fi); n > 1 {
		return nil, readErr(contracts.CodeReadNotRegular, node, fmt.Sprintf("has %d hard links; read refuses hard-linked documents because another link may lie outside the tree", n))
	}
	if fi.Size() > contracts.MaxDocumentBytes {
		return nil, readErr(contracts.CodeReadTooLarge, node, fmt.Sprintf("is %d bytes; the limit is %d", fi.Size(), contracts.MaxDocumentBytes))
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot read %q: %v", node, unwrapPathError(err))
	}
	return data, nil
}

func nodeOf(rel string, kind contracts.NodeKind, doc *Document) contracts.Node {
	n := contracts.Node{
		Path: rel, Kind: kind, Class: ClassOf(rel),
		Title: doc.Meta.Title, Description: doc.Meta.Description,
		Frontmatter: []byte("{}"), Body: string(doc.Body), Findings: doc.Findings,
	}
	for _, sl := range doc.Meta.SoftLinks {
		n.SoftLinks = append(n.SoftLinks, sl.Value)
	}
	for _, s := range doc.Meta.Sources {
		n.Sources = append(n.Sources, s.EvidenceSource)
	}
	if doc.Frontmatter != nil {
		// A header MappingJSON cannot render (an alias bomb) is already
		// a finding of the document (checkExpansion); it reads as {}.
		if fm, err := MappingJSON(doc.Frontmatter.Mapping); err == nil {
			n.Frontmatter = fm
		}
	}
	return n
}
