package tree

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// IndexEntry is one file of a tree as a git index records it: a
// tree-relative path and its git mode ("100644", "100755", "120000" for a
// symlink, "160000" for a gitlink).
type IndexEntry struct {
	Path string
	Mode string
}

// indexContent serves a tree's content from index entries and blob bytes,
// so verification can check exactly what is staged without the work tree.
type indexContent struct {
	dirs  map[string][]fs.DirEntry // directory → its entries, sorted
	blobs map[string][]byte        // document path → staged bytes
}

// newIndexContent builds the directory structure the entries imply.
// blobs holds the content of every entry that is a document. Entry paths
// are unique, as in a git index (stage 0); should a path be both a file
// and a directory, the first in entry order is listed.
func newIndexContent(entries []IndexEntry, blobs map[string][]byte, results []DocResult) *indexContent {
	c := &indexContent{dirs: map[string][]fs.DirEntry{".": nil}, blobs: blobs}
	files := make([]indexEntry, len(entries)) // one allocation for every file's listing
	// listed holds the directories listed in their parent. Not c.dirs: a
	// directory has a listing as soon as a child is added to it, which
	// may come before it is listed in its own parent (a/.notes/x.md
	// sorts before a/NODE.md).
	listed := map[string]bool{".": true}
	for i, e := range entries {
		p := e.Path
		dir, name := splitPath(p)
		for d := dir; !listed[d]; {
			listed[d] = true // and so, after this loop, every directory above it
			parent, base := splitPath(d)
			c.dirs[parent] = append(c.dirs[parent], &indexEntry{name: base, mode: fs.ModeDir})
			d = parent
		}
		files[i] = indexEntry{name: name, mode: gitMode(e.Mode), size: int64(len(blobs[p]))}
		if results != nil {
			files[i].result = &results[i]
		}
		c.dirs[dir] = append(c.dirs[dir], &files[i])
	}
	for d, list := range c.dirs {
		slices.SortStableFunc(list, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
		c.dirs[d] = slices.CompactFunc(list, func(a, b fs.DirEntry) bool { return a.Name() == b.Name() })
	}
	return c
}

// splitPath is path.Dir and path.Base of a clean relative path, without
// allocating.
func splitPath(p string) (dir, name string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ".", p
	}
	return p[:i], p[i+1:]
}

// gitMode maps a git mode to the file type a directory listing would give.
func gitMode(mode string) fs.FileMode {
	switch mode {
	case "120000":
		return fs.ModeSymlink
	case "160000":
		return fs.ModeIrregular // a gitlink: another repository's commit
	default:
		return 0
	}
}

func (c *indexContent) readDir(rel string) ([]fs.DirEntry, error) {
	list, ok := c.dirs[rel]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return list, nil
}

func (c *indexContent) readFile(_ *[]byte, rel string, limit int64) ([]byte, error) {
	data, ok := c.blobs[rel]
	if !ok {
		return nil, fmt.Errorf("%s: %w", rel, fs.ErrNotExist)
	}
	if int64(len(data)) > limit {
		return nil, &tooLargeError{size: int64(len(data))}
	}
	return data, nil
}

// indexEntry is a directory entry of indexContent.
type indexEntry struct {
	name string
	mode fs.FileMode
	size int64
	// result, when set, is the document's precomputed DocResult: it is
	// not read or parsed (see VerifyIndexResults).
	result *DocResult
}

func (e indexEntry) Name() string               { return e.name }
func (e indexEntry) IsDir() bool                { return e.mode.IsDir() }
func (e indexEntry) Type() fs.FileMode          { return e.mode.Type() }
func (e indexEntry) Info() (fs.FileInfo, error) { return nil, fs.ErrInvalid }

// VerifyIndex verifies a tree exactly as a git index holds it (S16 for
// what is being committed): entries are the tree's index entries with
// tree-relative paths, and blobs the staged bytes of every document among
// them. Symlink entries are TREE_SYMLINK_UNSUPPORTED and gitlinks
// TREE_ENTRY_UNSUPPORTED; files only in the work tree do not exist.
func VerifyIndex(entries []IndexEntry, blobs map[string][]byte) *Report {
	return verifyContent(newIndexContent(entries, blobs, nil), len(entries), VerifyOptions{})
}

// WantsBlob reports whether VerifyIndex needs the content of an entry:
// regular documents outside infrastructure.
func WantsBlob(e IndexEntry) bool {
	return gitMode(e.Mode) == 0 && IsDocumentName(path.Base(e.Path)) && ClassOf(e.Path) != contracts.ClassInfrastructure
}

// DocResult is what verification finds in one document on its own: its
// findings (metadata, Markdown links leaving the tree) and its soft links,
// which are resolved against the whole tree later. It depends only on the
// document's tree-relative path and bytes, so callers may cache it by path
// and content (verify --staged keys it by path and blob id).
type DocResult struct {
	Findings  []contracts.Finding
	SoftLinks []SoftLink
	// Cites are the repository-relative paths the document's well-formed
	// sources entries cite in the project's own repository (entries with
	// a repository are left out), each once: what verify --staged's
	// evidence notes compare with the commit's changes.
	Cites []string
}

// CheckDocument computes the DocResult of the document at the
// tree-relative path rel with content data, exactly as VerifyIndex would.
// It may be called from many goroutines at once.
func CheckDocument(rel string, data []byte) DocResult {
	var err error
	if len(data) > contracts.MaxDocumentBytes {
		data, err = nil, &tooLargeError{size: int64(len(data))}
	}
	x := extractors.Get().(*LinkExtractor)
	r := checkBytes(x, docJob{rel: rel, root: rel == NodeFile}, data, err)
	extractors.Put(x)
	return DocResult{Findings: r.findings, SoftLinks: r.softLinks, Cites: r.cites}
}

// extractors keeps CheckDocument's link extractors (a CommonMark parser
// each) for reuse.
var extractors = sync.Pool{New: func() any { return NewLinkExtractor() }}

// VerifyIndexResults is VerifyIndex with every document's DocResult given
// instead of its bytes: results[i] is that of entries[i], for every entry
// WantsBlob accepts (the others are not looked at). The report is the
// same as VerifyIndex's over the same bytes.
func VerifyIndexResults(entries []IndexEntry, results []DocResult) *Report {
	return verifyContent(newIndexContent(entries, nil, results), len(entries), VerifyOptions{})
}

// precomputed returns a document's DocResult given to VerifyIndexResults.
func (c *indexContent) precomputed(j docJob) (docResult, bool) {
	e, ok := j.entry.(*indexEntry)
	if !ok || e.result == nil {
		return docResult{}, false
	}
	return docResult{rel: j.rel, findings: e.result.Findings, softLinks: e.result.SoftLinks}, true
}
