package tree

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// FixPlan is what fix would change in a tree, and what would remain.
type FixPlan struct {
	Changes []FileChange // sorted by path
	// Remaining is the verification of the tree with the changes made.
	Remaining []contracts.Finding
	// Skipped are paths with a repair that FixOptions.Ignored excluded.
	Skipped []string
}

// FileChange is one file fix writes.
type FileChange struct {
	Path    string // tree-relative, "/"-separated
	Create  bool   // a new NODE.md; else Old is the file's current content
	Old     []byte
	New     []byte
	Repairs []contracts.FixRepair
}

// FixOptions tune PlanFix.
type FixOptions struct {
	// Ignored, when set, is asked once which of the paths fix would write
	// must be left alone (git-ignored content, which is never committed).
	Ignored func(paths []string) (map[string]bool, error)
	// RootTitle is the title of a root NODE.md fix creates (default:
	// DefaultTitle of the root directory).
	RootTitle string
}

// fixDir is one content directory as fix sees it.
type fixDir struct {
	rel      string
	hasNode  bool     // a NODE.md entry of any type exists
	docs     []string // its regular documents other than NODE.md
	subdirs  []string
	nodeFile bool // its NODE.md is a regular file
}

// fixWalk lists the content of a tree without following symlinks:
// directories (parents before children) and the regular documents fix may
// rewrite (single-linked, so the content is the tree's own).
type fixWalk struct {
	root     string
	dirs     []*fixDir
	docs     []string
	linkable map[string]bool
}

// PlanFix plans the safe mechanical repairs of the tree at root (from
// OpenRoot): FixDocument on every document, and a NODE.md for every
// content directory without one, listing its children with their titles
// (the root's with schemaVersion: 1). It never plans a change to a
// symlink, a hard-linked or unreadable file, or infrastructure, and it
// writes nothing.
func PlanFix(root string, opts FixOptions) (*FixPlan, error) {
	w := &fixWalk{root: root, linkable: map[string]bool{}}
	if err := w.walk("."); err != nil {
		return nil, err
	}
	for _, d := range w.dirs {
		if !d.hasNode {
			w.linkable[d.rel] = true // it will be indexed
		}
	}
	changes, titles := w.fixDocuments()
	for _, d := range slices.Backward(w.dirs) {
		if d.hasNode {
			continue
		}
		node := joinEntry(d.rel, NodeFile)
		title := dirTitle(root, d.rel, opts.RootTitle)
		doc, err := IndexDocument(title, d.rel == ".", w.indexEntries(d, titles))
		if err != nil {
			return nil, err
		}
		titles[node] = title
		msg := fmt.Sprintf("create the directory's index titled %q, listing its children", title)
		code := contracts.FindingDirectoryNodeMissing
		if d.rel == "." {
			code = contracts.FindingRootMissing
		}
		changes[node] = &FileChange{Path: node, Create: true, New: doc, Repairs: []contracts.FixRepair{{Code: code, Message: msg}}}
	}
	w.fixWikilinks(changes)
	plan := &FixPlan{}
	if err := plan.keep(changes, opts.Ignored); err != nil {
		return nil, err
	}
	plan.Remaining = verifyContent(newFixContent(root, plan.Changes), len(w.docs), VerifyOptions{}).Findings
	return plan, nil
}

// fixDocuments runs FixDocument on every document, on all cores, and
// returns the changes and the titles the new indexes list (of the
// documents in directories without NODE.md, after the fix).
func (w *fixWalk) fixDocuments() (map[string]*FileChange, map[string]string) {
	needTitle := map[string]bool{}
	for _, d := range w.dirs {
		if d.hasNode {
			continue
		}
		for _, doc := range d.docs {
			needTitle[doc] = true
		}
		for _, sub := range d.subdirs {
			needTitle[joinEntry(sub, NodeFile)] = true
		}
	}
	type result struct {
		change *FileChange
		title  string
	}
	results := make([]result, len(w.docs))
	linkable := func(p string) bool { return w.linkable[p] }
	treeName := filepath.Base(w.root)
	workers := min(runtime.GOMAXPROCS(0), len(w.docs)/16+1)
	var wg sync.WaitGroup
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte // reused: only a changed document's bytes are kept
			for i := k; i < len(w.docs); i += workers {
				rel := w.docs[i]
				data, err := readDocumentInto(&buf, filepath.Join(w.root, filepath.FromSlash(rel)), contracts.MaxDocumentBytes)
				if err != nil {
					continue // verification reports it
				}
				out, repairs := FixDocument(rel, data, FixContext{Root: rel == NodeFile, TreeName: treeName, Linkable: linkable})
				if len(repairs) > 0 {
					results[i].change = &FileChange{Path: rel, Old: slices.Clone(data), New: out, Repairs: repairs}
				}
				if needTitle[rel] {
					results[i].title = ParseDocument(rel, out, rel == NodeFile).Meta.Title
				}
			}
		}()
	}
	wg.Wait()
	changes, titles := map[string]*FileChange{}, map[string]string{}
	for i, r := range results {
		if r.change != nil {
			changes[w.docs[i]] = r.change
		}
		if r.title != "" {
			titles[w.docs[i]] = r.title
		}
	}
	return changes, titles
}

// keep fills in the changes, sorted, without those opts.Ignored excludes.
func (p *FixPlan) keep(changes map[string]*FileChange, ignored func([]string) (map[string]bool, error)) error {
	paths := make([]string, 0, len(changes))
	for path := range changes {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	skip := map[string]bool{}
	if ignored != nil && len(paths) > 0 {
		var err error
		if skip, err = ignored(paths); err != nil {
			return err
		}
	}
	p.Changes = []FileChange{}
	for _, path := range paths {
		if skip[path] {
			p.Skipped = append(p.Skipped, path)
			continue
		}
		p.Changes = append(p.Changes, *changes[path])
	}
	return nil
}

func (w *fixWalk) walk(rel string) error {
	entries, err := os.ReadDir(filepath.Join(w.root, filepath.FromSlash(rel)))
	if err != nil {
		if rel == "." {
			return contracts.Errorf(contracts.CodeIO, "cannot list %s: %v", w.root, unwrapPathError(err))
		}
		return nil // verification reports it
	}
	d := &fixDir{rel: rel}
	w.dirs = append(w.dirs, d)
	for _, e := range entries {
		name := e.Name()
		child := joinEntry(rel, name)
		if ClassOf(child) == contracts.ClassInfrastructure || !utf8.ValidString(name) {
			continue
		}
		typ := e.Type()
		if name == NodeFile {
			d.hasNode = true
			d.nodeFile = typ.IsRegular()
		}
		switch {
		case typ.IsDir():
			d.subdirs = append(d.subdirs, child)
		case typ.IsRegular() && IsDocumentName(name):
			w.linkable[child] = true
			if name != NodeFile {
				d.docs = append(d.docs, child)
			}
			if fi, err := e.Info(); err == nil && hardLinks(fi) == 1 {
				w.docs = append(w.docs, child)
			}
		}
	}
	if d.nodeFile {
		w.linkable[rel] = true
	}
	for _, s := range d.subdirs {
		if err := w.walk(s); err != nil {
			return err
		}
	}
	return nil
}

// indexEntries are the children a new index of d lists, with their titles.
func (w *fixWalk) indexEntries(d *fixDir, titles map[string]string) []IndexLink {
	var links []IndexLink
	for _, doc := range d.docs {
		links = append(links, IndexLink{Name: filepath.Base(doc), Title: cmpOr(titles[doc], NameTitle(strings.TrimSuffix(filepath.Base(doc), ".md")))})
	}
	for _, s := range d.subdirs {
		links = append(links, IndexLink{Name: filepath.Base(s), Dir: true, Title: cmpOr(titles[joinEntry(s, NodeFile)], NameTitle(filepath.Base(s)))})
	}
	slices.SortFunc(links, func(a, b IndexLink) int { return strings.Compare(a.Name, b.Name) })
	return links
}

// dirTitle is the title of a new index: the root's from rootTitle or the
// tree's directory name, any other's from its directory name.
func dirTitle(root, rel, rootTitle string) string {
	if rel == "." {
		return cmpOr(rootTitle, DefaultTitle(root))
	}
	base := filepath.Base(rel)
	return cmpOr(NameTitle(base), base)
}

func cmpOr(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}

// fixContent is a tree on disk as it will be once the changes are made.
type fixContent struct {
	diskContent
	files   map[string][]byte // path → new content
	created map[string]bool   // directories that get a NODE.md
}

func newFixContent(root string, changes []FileChange) *fixContent {
	c := &fixContent{diskContent: diskContent{root: root}, files: map[string][]byte{}, created: map[string]bool{}}
	for _, ch := range changes {
		c.files[ch.Path] = ch.New
		if ch.Create {
			dir, _ := splitPath(ch.Path)
			c.created[dir] = true
		}
	}
	return c
}

func (c *fixContent) readDir(rel string) ([]fs.DirEntry, error) {
	entries, err := c.diskContent.readDir(rel)
	if err != nil || !c.created[rel] {
		return entries, err
	}
	entries = append(entries, &indexEntry{name: NodeFile, size: int64(len(c.files[joinEntry(rel, NodeFile)]))})
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

func (c *fixContent) readFile(buf *[]byte, rel string, limit int64) ([]byte, error) {
	if data, ok := c.files[rel]; ok {
		if int64(len(data)) > limit {
			return nil, &tooLargeError{size: int64(len(data))}
		}
		return data, nil
	}
	return c.diskContent.readFile(buf, rel, limit)
}
