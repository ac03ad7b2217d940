package staged

// The citations index keeps the evidence notes of a commit that stages
// no document free: which document of a tree cites which path depends
// only on the tree's content, which its tree object id names, so the
// citations of the trees HEAD holds are kept by tree id in <git common
// dir>/context-tree/citations. A commit that leaves every declared tree
// alone (the common code-only commit) finds HEAD's tree ids in the index
// (head.go reads them anyway) and looks them up here: no document blob
// is read, no index listed. The file holds the newest citationsKeep trees
// (several declared trees, a branch switched to and back), keyed to the
// binary as the staged cache is (its fingerprint: other rules, other
// citations), replaced atomically (atomicfile.WriteCache) and checked by
// CRC-32C: a torn, foreign or stale file is an empty index and costs one
// run the work of computing the citations again (from the staged cache,
// else from the blobs).

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"

	"github.com/git-context-tree/git-context-tree/internal/cachefile"
)

const (
	citationsName  = "citations"
	citationsMagic = "git-context-tree citations 1\n"
	citationsKeep  = 16
)

// citation is one path a document of a tree cites: doc tree-relative,
// path repository-relative.
type citation struct{ doc, path string }

type citedTree struct {
	id     string // the tree's object id
	citing []citation
}

type citations struct {
	file        string // "" when there is nowhere to keep it
	fingerprint string
	trees       []citedTree // oldest first
	dirty       bool
}

// openCitations loads the index of the repository whose common git dir
// is commonDir; an unreadable, foreign or torn file is an empty index.
func openCitations(commonDir string) *citations {
	c := &citations{fingerprint: cacheFingerprint()}
	if commonDir == "" {
		return c
	}
	c.file = filepath.Join(commonDir, cacheDir, citationsName)
	if data, err := os.ReadFile(c.file); err == nil {
		c.trees, _ = decodeCitations(data, c.fingerprint)
	}
	return c
}

// lookup returns the citations of the tree with object id id, ok false
// when the index does not hold it.
func (c *citations) lookup(id string) ([]citation, bool) {
	for _, t := range c.trees {
		if t.id == id {
			return t.citing, true
		}
	}
	return nil, false
}

// put records the citations of a tree (none is a record too: the tree
// cites nothing), as the newest. A tree held already is left as it is:
// its citations are a function of its id.
func (c *citations) put(id string, citing []citation) {
	if _, held := c.lookup(id); held || !validObjectID(id) {
		return
	}
	c.trees = slices.DeleteFunc(c.trees, func(t citedTree) bool { return t.id == id })
	c.trees = append(c.trees, citedTree{id: id, citing: citing})
	if len(c.trees) > citationsKeep {
		c.trees = c.trees[len(c.trees)-citationsKeep:]
	}
	c.dirty = true
}

// save writes the file when something was put; failing to is harmless.
func (c *citations) save() {
	if c.file == "" || !c.dirty {
		return
	}
	cachefile.Write(c.file, encodeCitations(c.fingerprint, c.trees))
}

// The file: magic, fingerprint, tree count, then per tree its id, its
// citation count and each citation (document, cited path), CRC-32C of all
// that (big-endian); strings and numbers uvarint-prefixed and uvarints,
// as in the staged cache.

func encodeCitations(fingerprint string, trees []citedTree) []byte {
	b := cachefile.Begin(citationsMagic, fingerprint)
	b = binary.AppendUvarint(b, uint64(len(trees)))
	for _, t := range trees {
		b = cachefile.AppendString(b, t.id)
		b = binary.AppendUvarint(b, uint64(len(t.citing)))
		for _, ct := range t.citing {
			b = cachefile.AppendString(b, ct.doc)
			b = cachefile.AppendString(b, ct.path)
		}
	}
	return cachefile.Seal(b)
}

func decodeCitations(data []byte, fingerprint string) ([]citedTree, error) {
	d, err := cachefile.Open(data, citationsMagic, fingerprint)
	if err != nil {
		return nil, err
	}
	trees := make([]citedTree, d.Count())
	for i := range trees {
		trees[i].id = d.String()
		if n := d.Count(); n > 0 {
			trees[i].citing = make([]citation, n)
			for k := range trees[i].citing {
				trees[i].citing[k] = citation{doc: d.String(), path: d.String()}
			}
		}
	}
	if !d.Done() {
		return nil, cachefile.ErrCorrupt
	}
	return trees, nil
}
