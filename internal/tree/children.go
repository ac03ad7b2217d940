package tree

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// children summarises the immediate children of the content directory rel:
// non-infrastructure, non-symlink subdirectories (from their NODE.md) and
// Markdown documents other than rel's own NODE.md, sorted by path.
func children(root, rel string, observe Observer) ([]contracts.ChildNode, error) {
	dir := filepath.Join(root, filepath.FromSlash(rel))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot list %s: %v", rel, unwrapPathError(err))
	}
	var kids []contracts.ChildNode
	for _, e := range entries {
		child := path.Join(rel, e.Name())
		typ := e.Type()
		if ClassOf(child) == contracts.ClassInfrastructure || typ&fs.ModeSymlink != 0 {
			continue
		}
		switch {
		case typ.IsDir():
			kids = append(kids, contracts.ChildNode{Path: child, Kind: contracts.KindDirectory, Class: ClassOf(child)})
		case typ.IsRegular() && IsDocumentName(e.Name()) && e.Name() != NodeFile:
			kids = append(kids, contracts.ChildNode{Path: child, Kind: contracts.KindDocument, Class: ClassOf(child)})
		}
	}
	slices.SortFunc(kids, func(a, b contracts.ChildNode) int { return strings.Compare(a.Path, b.Path) })
	summarizeAll(root, kids, observe)
	if kids == nil {
		kids = []contracts.ChildNode{}
	}
	return kids, nil
}

// summarizeAll fills in every child's title and description, in parallel.
func summarizeAll(root string, kids []contracts.ChildNode, observe Observer) {
	workers := min(runtime.GOMAXPROCS(0), len(kids)/32+1)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte // reused: summaries keep no document bytes
			for i := w; i < len(kids); i += workers {
				summarize(root, &kids[i], &buf, observe)
			}
		}()
	}
	wg.Wait()
}

func summarize(root string, c *contracts.ChildNode, buf *[]byte, observe Observer) {
	docRel := c.Path
	if c.Kind == contracts.KindDirectory {
		docRel = path.Join(c.Path, NodeFile)
	}
	finding := func(code contracts.FindingCode, msg string) {
		c.Findings = append(c.Findings, contracts.Finding{Code: code, Path: docRel, Message: msg})
	}
	name := filepath.Join(root, filepath.FromSlash(docRel))
	fi, err := os.Lstat(name)
	switch {
	case err != nil && c.Kind == contracts.KindDirectory && os.IsNotExist(err):
		c.Findings = append(c.Findings, contracts.Finding{Code: contracts.FindingDirectoryNodeMissing, Path: c.Path, Message: "directory has no NODE.md index"})
		return
	case err != nil:
		finding(contracts.FindingDocumentUnreadable, fmt.Sprintf("document cannot be read: %v", unwrapPathError(err)))
		return
	case fi.Mode()&fs.ModeSymlink != 0:
		finding(contracts.FindingSymlinkUnsupported, "symlinks are not supported in tree content; its target was not read")
		return
	case hardLinks(fi) > 1:
		finding(contracts.FindingHardLinkUnsupported, fmt.Sprintf("document has %d hard links; read does not summarise hard-linked documents because another link may lie outside the tree", hardLinks(fi)))
		return
	}
	data, err := readDocumentInto(buf, name, contracts.MaxDocumentBytes)
	if err != nil {
		finding(contracts.FindingDocumentUnreadable, fmt.Sprintf("document cannot be read: %v", unwrapPathError(err)))
		return
	}
	if observe != nil {
		observe(docRel, data)
	}
	if verifyFastPaths {
		if m, ok := quickMeta(docRel, data); ok {
			c.Title, c.Description = m.Title, m.Description
			return
		}
	}
	doc := ParseDocument(docRel, data, false)
	c.Title, c.Description, c.Findings = doc.Meta.Title, doc.Meta.Description, doc.Findings
}

// hardLinks is a file's link count, 1 when the platform does not say.
func hardLinks(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
