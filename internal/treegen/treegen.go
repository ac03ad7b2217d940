// Package treegen writes deterministic synthetic Context Trees for tests and
// benchmarks. The same Options always produce the same bytes: content comes
// from a small seeded generator, never from the clock or global randomness.
//
// A generated tree is valid (tree.Verify reports nothing): every directory
// has a NODE.md, the root NODE.md declares schemaVersion: 1 and stays small,
// every document has a title and description, soft_links name documents or
// indexed directories that exist, and Markdown links stay inside the tree.
// Links that would escape are only ever written inside code spans and
// code blocks (fenced and indented), where they are not links.
package treegen

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// WideDir is the tree-relative directory that holds Options.WideChildren
// child documents.
const WideDir = "wide"

// maxRootBytes is the size limit of a root NODE.md (DESIGN §4).
const maxRootBytes = 16384

// Options describe a tree to generate.
type Options struct {
	// Seed selects the content; the same seed gives the same bytes.
	Seed uint64
	// Docs is the total number of documents (every *.md file, each
	// directory's NODE.md included). It must be at least 1 plus what
	// WideChildren and MemberDocs need.
	Docs int
	// FanOut is the number of subdirectories a directory gets while
	// documents remain (default 6).
	FanOut int
	// DocsPerDir is the number of documents besides NODE.md in each
	// directory (default 10).
	DocsPerDir int
	// MemberDocs is the number of documents under members/ (default
	// Docs/20; -1 for none).
	MemberDocs int
	// WideChildren, when positive, adds the directory WideDir at the root
	// with exactly this many child documents and no subdirectories.
	WideChildren int
	// EscapesInCode is the percentage of documents whose code spans and
	// code blocks show links that would leave the tree (harmless, being
	// code, but only a real Markdown parser can tell); other documents'
	// code shows links inside the tree. Default 5; -1 for none.
	EscapesInCode int
}

func (o *Options) normalize() error {
	if o.FanOut <= 0 {
		o.FanOut = 6
	}
	if o.DocsPerDir <= 0 {
		o.DocsPerDir = 10
	}
	switch {
	case o.MemberDocs < 0:
		o.MemberDocs = 0
	case o.MemberDocs == 0:
		o.MemberDocs = o.Docs / 20
	}
	switch {
	case o.EscapesInCode < 0:
		o.EscapesInCode = 0
	case o.EscapesInCode == 0:
		o.EscapesInCode = 5
	}
	if o.MemberDocs == 1 {
		o.MemberDocs = 0 // members/NODE.md alone says nothing
	}
	wide := 0
	if o.WideChildren > 0 {
		wide = o.WideChildren + 1
	}
	if o.Docs < 1+wide+o.MemberDocs {
		return fmt.Errorf("treegen: %d documents cannot hold the root, %d wide and %d member documents", o.Docs, wide, o.MemberDocs)
	}
	return nil
}

// doc is one planned document.
type doc struct {
	rel  string // tree-relative path of the file
	dir  string // tree-relative directory ("." for the root)
	node bool   // the directory's NODE.md
}

// layout is the planned tree: directories in creation order (parents first)
// and documents in index order.
type layout struct {
	dirs     []string
	docs     []doc
	children map[string][]string // directory -> child directories
	dirDocs  map[string][]int    // directory -> indexes of its documents
	assets   map[string]bool     // directories holding figure.svg
}

// Generate writes the tree described by opts into dir, which must be empty
// or not exist yet.
func Generate(dir string, opts Options) error {
	if err := opts.normalize(); err != nil {
		return err
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("treegen: %s is not empty", dir)
	}
	l := plan(opts)
	for _, d := range l.dirs {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
			return err
		}
		if l.assets[d] {
			if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(d), "figure.svg"), []byte(figure), 0o644); err != nil {
				return err
			}
		}
	}
	workers := runtime.GOMAXPROCS(0)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf strings.Builder
			for i := w; i < len(l.docs); i += workers {
				buf.Reset()
				l.render(&buf, opts, i)
				d := l.docs[i]
				if d.rel == "NODE.md" && buf.Len() > maxRootBytes {
					errs[w] = fmt.Errorf("treegen: root NODE.md would be %d bytes", buf.Len())
					return
				}
				if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(d.rel)), []byte(buf.String()), 0o644); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// plan lays out directories and documents breadth first: the root, then
// WideDir, then members/, then normal content.
func plan(o Options) *layout {
	l := &layout{children: map[string][]string{}, dirDocs: map[string][]int{}, assets: map[string]bool{}}
	budget := o.Docs - 1 // the root NODE.md
	if o.WideChildren > 0 {
		budget -= o.WideChildren + 1
	}
	budget -= o.MemberDocs
	l.addDir(".")
	l.addDoc(".", NodeName)
	if o.WideChildren > 0 {
		l.addChild(".", WideDir)
		l.addDoc(WideDir, NodeName)
		for i := range o.WideChildren {
			l.addDoc(WideDir, fmt.Sprintf("item-%05d.md", i+1))
		}
	}
	if o.MemberDocs > 0 {
		l.addChild(".", "members")
		l.addDoc("members", NodeName)
		l.grow(o, "members", o.MemberDocs-1, memberName)
	}
	l.fill(o, ".", budget)
	return l
}

// NodeName is every directory's index document.
const NodeName = "NODE.md"

func (l *layout) addDir(d string) { l.dirs = append(l.dirs, d) }

func (l *layout) addChild(parent, name string) string {
	d := path.Join(parent, name)
	l.addDir(d)
	l.children[parent] = append(l.children[parent], d)
	if len(l.dirs)%5 == 0 {
		l.assets[d] = true
	}
	return d
}

func (l *layout) addDoc(dir, name string) {
	l.dirDocs[dir] = append(l.dirDocs[dir], len(l.docs))
	l.docs = append(l.docs, doc{rel: path.Join(dir, name), dir: dir, node: name == NodeName})
}

// fill gives base (whose NODE.md exists) DocsPerDir documents and then
// grows subdirectories breadth first until budget documents are placed.
func (l *layout) fill(o Options, base string, budget int) {
	n := min(o.DocsPerDir, budget)
	for i := range n {
		l.addDoc(base, docName(base, i))
	}
	l.grow(o, base, budget-n, areaName)
}

// grow adds subdirectories below base breadth first, each with a NODE.md
// and up to DocsPerDir documents, until budget documents are placed. A
// directory is only created once it gets its NODE.md.
func (l *layout) grow(o Options, base string, budget int, name func(depth, i int) string) {
	queue := []string{base}
	for len(queue) > 0 && budget > 0 {
		parent := queue[0]
		queue = queue[1:]
		depth := strings.Count(parent, "/") + 1
		if parent == "." {
			depth = 0
		}
		for i := 0; i < o.FanOut && budget > 0; i++ {
			d := l.addChild(parent, name(depth, i))
			l.addDoc(d, NodeName)
			budget--
			n := min(o.DocsPerDir, budget)
			for j := range n {
				l.addDoc(d, docName(d, j))
			}
			budget -= n
			queue = append(queue, d)
		}
	}
}

func areaName(depth, i int) string {
	return fmt.Sprintf("%s-%d", dirWords[(depth*7+i)%len(dirWords)], i+1)
}

func memberName(depth, i int) string {
	if depth == 1 {
		return memberNames[i%len(memberNames)] + fmt.Sprintf("-%d", i+1)
	}
	return areaName(depth, i)
}

func docName(dir string, i int) string {
	h := fnv(dir) + uint64(i)
	return fmt.Sprintf("%s-%03d.md", docWords[h%uint64(len(docWords))], i+1)
}

func fnv(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

const figure = `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>
`
