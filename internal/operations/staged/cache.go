package staged

// The cache keeps verify --staged fast on large trees: what one
// document yields on its own (tree.DocResult: its findings, its soft
// links and the paths its sources cite) depends only on its tree-relative path and its bytes, so it is
// kept per (path, blob id) in <git common dir>/context-tree/staged-cache
// and a commit that stages one document parses one document. Everything
// that depends on the rest of the tree (directory indexes, symlinks,
// gitlinks, whether a soft link's target exists) is still checked over the
// whole index on every run, so the report equals a full verify of the
// index (TestStagedCacheEqualsFullVerify).
//
// The file is a cache, never a source of truth: it is replaced atomically
// (atomicfile.WriteCache, no fsync: a torn or foreign file fails its
// CRC-32C and is ignored) and keyed to the binary that wrote it (format
// version, build version, executable size and modification time: other
// rules, other results). A run that parsed documents adds their records to
// a journal beside it (staged-cache.journal); when the journal grows past
// an eighth of the file, the file is rewritten with exactly the documents
// that run saw and the journal dropped. Any file and journal may be paired
// (every record is a function of its key). Failing to read or write them
// only costs time.

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/buildinfo"
	"github.com/git-context-tree/git-context-tree/internal/cachefile"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

const (
	cacheDir   = "context-tree"
	cacheName  = "staged-cache"
	cacheMagic = "git-context-tree staged cache 2\n"
)

// doc is a document of a tree in the index.
type doc struct {
	rel string // tree-relative
	id  string // blob id
}

type cacheKey struct{ rel, id string }

func (k cacheKey) compare(rel, id string) int {
	return cmp.Or(strings.Compare(k.rel, rel), strings.Compare(k.id, id))
}

// compareKey orders a record's key (bytes of the file) against a path and
// blob id, allocating nothing.
func compareKey(rel, id []byte, docRel, docID string) int {
	switch {
	case string(rel) < docRel:
		return -1
	case string(rel) > docRel:
		return 1
	case string(id) < docID:
		return -1
	case string(id) > docID:
		return 1
	}
	return 0
}

type cacheRecord struct {
	key cacheKey
	res tree.DocResult
}

type cache struct {
	file        string // "" when there is nowhere to keep it
	fingerprint string
	records     []byte // the file's records, validated, sorted by (rel, id)
	count       int    // records in it
	// journal holds the records added since the file was last written
	// whole, sorted: a commit that stages a few documents writes a few
	// records, not the whole tree's.
	journal []cacheRecord
	added   []cacheRecord // this run's new records
	// seenDocs and seenResults are the documents of each tree this run
	// verified and their results: what save writes.
	seenDocs    [][]doc
	seenResults [][]tree.DocResult
	parsed      int // documents this run parsed (cache misses)
}

// openCache loads the cache of the repository whose common git dir is
// commonDir; an unreadable, foreign or stale file is an empty cache.
func openCache(commonDir string) *cache {
	c := &cache{fingerprint: cacheFingerprint()}
	if commonDir == "" {
		return c
	}
	c.file = filepath.Join(commonDir, cacheDir, cacheName)
	if data, err := os.ReadFile(c.file); err == nil {
		c.records, c.count, _ = openCacheRecords(data, c.fingerprint)
	}
	if data, err := os.ReadFile(c.file + journalSuffix); err == nil {
		c.journal, _ = decodeCache(data, c.fingerprint)
	}
	return c
}

// cacheFingerprint identifies the rules that computed the results: the
// cache format and the binary (buildinfo.Fingerprint).
func cacheFingerprint() string {
	return cacheMagic + "|" + buildinfo.Fingerprint()
}

// results returns the DocResult of every document of one tree (docs in
// path order, as the index lists them; results[i] is docs[i]'s), from the
// cache or computed from its blob: from the work tree below root where the
// file there is the blob (fromWorkTree), else read through objects' Stream,
// parsed on all cores as blobs arrive. The cache is read alongside docs,
// record after record: no map of it is built.
func (c *cache) results(docs []doc, root string, objects *git.Batch) ([]tree.DocResult, error) {
	var misses []int // indexes into docs
	found := make([]tree.DocResult, len(docs))
	d := &cachefile.Decoder{B: c.records}
	left := c.count
	var rel, id []byte // the record under the cursor, when have
	have := false
	j := 0 // the journal's cursor
	for i, doc := range docs {
		for j < len(c.journal) && c.journal[j].key.compare(doc.rel, doc.id) < 0 {
			j++
		}
		if j < len(c.journal) && c.journal[j].key.compare(doc.rel, doc.id) == 0 {
			found[i] = c.journal[j].res
			continue
		}
		for {
			if !have {
				if left == 0 {
					break
				}
				rel, id = d.Bytes(), d.Bytes()
				have, left = true, left-1
			}
			if compareKey(rel, id, doc.rel, doc.id) >= 0 {
				break
			}
			skipResult(d)
			have = false
		}
		if have && compareKey(rel, id, doc.rel, doc.id) == 0 {
			found[i] = decodeResult(d)
			have = false
		} else {
			misses = append(misses, i)
		}
		if d.Err != nil { // cannot happen: the records were validated
			return nil, d.Err
		}
	}
	if len(misses) > 0 {
		// The rest through git on every core, each document parsed as its
		// blob arrives.
		rest := fromWorkTree(root, docs, misses, found)
		ids := make([]string, len(rest))
		for k, i := range rest {
			ids[k] = docs[i].id
		}
		err := objects.Stream(ids, func(k int, id string, data []byte) error {
			doc := docs[rest[k]]
			if id == "" {
				return fmt.Errorf("blob %s of %s is missing", doc.id, doc.rel)
			}
			found[rest[k]] = tree.CheckDocument(doc.rel, data)
			return nil
		})
		if err != nil {
			return nil, err
		}
		c.parsed += len(misses)
		for _, i := range misses {
			c.added = append(c.added, cacheRecord{cacheKey{docs[i].rel, docs[i].id}, found[i]})
		}
	}
	c.seenDocs, c.seenResults = append(c.seenDocs, docs), append(c.seenResults, found)
	return found, nil
}

// journalSuffix names the journal beside the cache file.
const journalSuffix = ".journal"

// save records what this run parsed, when it parsed anything: in the
// journal while it stays small (at most an eighth of the file, or 256
// records), else by writing the file whole with exactly the documents
// this run saw, and no journal.
func (c *cache) save() {
	if c.file == "" || c.parsed == 0 {
		return
	}
	if journal := append(slices.Clone(c.journal), c.added...); c.count > 0 && len(journal) <= max(256, c.count/8) {
		cachefile.Write(c.file+journalSuffix, encodeCache(c.fingerprint, journal))
		return
	}
	var records []cacheRecord
	for t, docs := range c.seenDocs {
		for i, doc := range docs {
			records = append(records, cacheRecord{cacheKey(doc), c.seenResults[t][i]})
		}
	}
	if cachefile.Write(c.file, encodeCache(c.fingerprint, records)) {
		os.Remove(c.file + journalSuffix)
	}
}

// The file (and the journal): magic, fingerprint, record count, records sorted by path then
// blob id (path, blob id, findings, soft links, cited paths), CRC-32C of all that
// (big-endian). Strings and numbers are uvarint-length-prefixed and
// uvarints.

func encodeCache(fingerprint string, records []cacheRecord) []byte {
	records = slices.Clone(records)
	slices.SortFunc(records, func(a, b cacheRecord) int { return a.key.compare(b.key.rel, b.key.id) })
	records = slices.CompactFunc(records, func(a, b cacheRecord) bool { return a.key == b.key })
	b := make([]byte, 0, 64+len(records)*128)
	b = append(b, cacheMagic...)
	b = cachefile.AppendString(b, fingerprint)
	b = binary.AppendUvarint(b, uint64(len(records)))
	for _, rec := range records {
		b = cachefile.AppendString(b, rec.key.rel)
		b = cachefile.AppendString(b, rec.key.id)
		b = binary.AppendUvarint(b, uint64(len(rec.res.Findings)))
		for _, f := range rec.res.Findings {
			b = cachefile.AppendString(b, string(f.Code))
			b = cachefile.AppendString(b, f.Message)
			b = cachefile.AppendString(b, f.Path)
			b = binary.AppendUvarint(b, uint64(f.Line))
			b = cachefile.AppendString(b, f.Target)
		}
		b = binary.AppendUvarint(b, uint64(len(rec.res.SoftLinks)))
		for _, sl := range rec.res.SoftLinks {
			b = cachefile.AppendString(b, sl.Value)
			b = binary.AppendUvarint(b, uint64(sl.Line))
		}
		b = binary.AppendUvarint(b, uint64(len(rec.res.Cites)))
		for _, p := range rec.res.Cites {
			b = cachefile.AppendString(b, p)
		}
	}
	return cachefile.Seal(b)
}

// openCacheRecords checks a cache file (its CRC, its fingerprint, that
// every record decodes and that they are in order) and returns its records.
func openCacheRecords(data []byte, fingerprint string) (records []byte, count int, err error) {
	d, err := cachefile.Open(data, cacheMagic, fingerprint)
	if err != nil {
		return nil, 0, err
	}
	n := d.Count()
	records = d.B
	var prevRel, prevID []byte
	for i := range n {
		rel, id := d.Bytes(), d.Bytes()
		skipResult(d)
		if d.Err != nil || (i > 0 && cmp.Or(bytes.Compare(prevRel, rel), bytes.Compare(prevID, id)) >= 0) {
			return nil, 0, cachefile.ErrCorrupt
		}
		prevRel, prevID = rel, id
	}
	if len(d.B) != 0 {
		return nil, 0, cachefile.ErrCorrupt
	}
	return records, n, nil
}

// decodeCache reads every record of a cache file (for tests).
func decodeCache(data []byte, fingerprint string) ([]cacheRecord, error) {
	records, n, err := openCacheRecords(data, fingerprint)
	if err != nil {
		return nil, err
	}
	d := &cachefile.Decoder{B: records}
	out := make([]cacheRecord, n)
	for i := range out {
		out[i].key = cacheKey{rel: d.String(), id: d.String()}
		out[i].res = decodeResult(d)
	}
	return out, d.Err
}

// result reads a record's findings, soft links and cited paths.
func decodeResult(d *cachefile.Decoder) tree.DocResult {
	var r tree.DocResult
	if n := d.Count(); n > 0 {
		r.Findings = make([]contracts.Finding, n)
		for i := range r.Findings {
			r.Findings[i] = contracts.Finding{Code: contracts.FindingCode(d.String()), Message: d.String(), Path: d.String(), Line: int(d.Uvarint()), Target: d.String()}
		}
	}
	if n := d.Count(); n > 0 {
		r.SoftLinks = make([]tree.SoftLink, n)
		for i := range r.SoftLinks {
			r.SoftLinks[i] = tree.SoftLink{Value: d.String(), Line: int(d.Uvarint())}
		}
	}
	if n := d.Count(); n > 0 {
		r.Cites = make([]string, n)
		for i := range r.Cites {
			r.Cites[i] = d.String()
		}
	}
	return r
}

// skipResult steps over a record's findings, soft links and cited paths.
func skipResult(d *cachefile.Decoder) {
	for range d.Count() {
		d.Bytes()
		d.Bytes()
		d.Bytes()
		d.Uvarint()
		d.Bytes()
	}
	for range d.Count() {
		d.Bytes()
		d.Uvarint()
	}
	for range d.Count() {
		d.Bytes()
	}
}
