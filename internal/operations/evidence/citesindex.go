package evidence

// The cites index answers `cites` without reading every document: which
// document of a tree cites what depends only on the tree's content, which
// its tree object id names, so the citations of a tree are kept per tree
// id, built once from the tree's objects (never from a work tree or a
// snapshot's files, which an agent may have edited) in
// <git dir holding the tree>/context-tree/cites/<tree id>. Files are
// framed by cachefile (keyed to the binary: other rules, other
// citations) and replaced atomically; a torn, foreign or stale file is
// rebuilt. The newest citesKeep files are kept.

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/buildinfo"
	"github.com/git-context-tree/git-context-tree/internal/cachefile"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

const (
	citesDir   = "context-tree/cites"
	citesMagic = "git-context-tree cites 1\n"
	citesKeep  = 32
)

// citingDoc is a document with a sources list, as the index holds it.
type citingDoc struct {
	rel         string // tree-relative
	title       string
	description string
	sources     []tree.Source
}

var citesFingerprint = sync.OnceValue(func() string { return citesMagic + "|" + buildinfo.Fingerprint() })

// citesFile is where the index of tree id lives for the repository whose
// git directory is gitDir.
func citesFile(gitDir, id string) string {
	return filepath.Join(gitDir, filepath.FromSlash(citesDir), id)
}

// wantSource chooses the entries a caller needs (nil: all): decoding
// only those keeps a warm call from allocating the whole index.
type wantSource func(path, repository []byte) bool

// loadCites reads the index of a tree, ok false when there is none that
// this binary wrote whole; only the documents with an entry want keeps
// are returned, with those entries.
func loadCites(gitDir, id string, want wantSource) ([]citingDoc, bool) {
	data, err := os.ReadFile(citesFile(gitDir, id))
	if err != nil {
		return nil, false
	}
	docs, err := decodeCites(data, id, want)
	return docs, err == nil
}

// filterCites keeps what want keeps of docs built whole.
func filterCites(docs []citingDoc, want wantSource) []citingDoc {
	if want == nil {
		return docs
	}
	var out []citingDoc
	for _, d := range docs {
		d.sources = slices.DeleteFunc(slices.Clone(d.sources), func(s tree.Source) bool { return !want([]byte(s.Path), []byte(s.Repository)) })
		if len(d.sources) > 0 {
			out = append(out, d)
		}
	}
	return out
}

// buildCites reads every document of the tree object id through objects
// (the documents by Documents' rules: regular .md files outside
// infrastructure) and keeps those with a sources list, then stores the
// index; failing to store it only costs the next call the same work.
func buildCites(objects *git.Batch, gitDir, id string) ([]citingDoc, error) {
	entries, err := objects.ListTree(id)
	if err != nil {
		return nil, err
	}
	var rels, ids []string
	for _, e := range entries {
		if tree.WantsBlob(tree.IndexEntry{Path: e.Path, Mode: e.Mode}) {
			rels, ids = append(rels, e.Path), append(ids, e.ID)
		}
	}
	found := make([]*citingDoc, len(ids))
	err = objects.Stream(ids, func(i int, _ string, data []byte) error {
		found[i] = parseCiting(rels[i], data) // each index once: no lock
		return nil
	})
	if err != nil {
		return nil, err
	}
	var docs []citingDoc
	for _, d := range found {
		if d != nil {
			docs = append(docs, *d)
		}
	}
	storeCites(gitDir, id, docs)
	return docs, nil
}

// parseCiting reads one document's title, description and well-formed
// sources; nil when it cites nothing.
func parseCiting(rel string, data []byte) *citingDoc {
	if !bytes.Contains(data, []byte("sources:")) {
		return nil
	}
	doc := tree.ParseDocument(rel, data, rel == tree.NodeFile)
	if len(doc.Meta.Sources) == 0 {
		return nil
	}
	return &citingDoc{rel: rel, title: doc.Meta.Title, description: doc.Meta.Description, sources: doc.Meta.Sources}
}

func storeCites(gitDir, id string, docs []citingDoc) {
	if gitDir == "" {
		return
	}
	if cachefile.Write(citesFile(gitDir, id), encodeCites(id, docs)) {
		pruneCites(filepath.Dir(citesFile(gitDir, id)))
	}
}

// pruneCites keeps the newest citesKeep indexes of a directory.
func pruneCites(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) <= citesKeep {
		return
	}
	type aged struct {
		name string
		mod  int64
	}
	var files []aged
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() {
			files = append(files, aged{e.Name(), fi.ModTime().UnixNano()})
		}
	}
	slices.SortFunc(files, func(a, b aged) int { return int(b.mod>>20 - a.mod>>20) })
	for _, f := range files[min(citesKeep, len(files)):] {
		os.Remove(filepath.Join(dir, f.name))
	}
}

// The file: magic, fingerprint, the tree id, the document count, then per
// document its path, title, description and sources (each: position in
// the list, file line, path, lines, commit, sha256, repository).

func encodeCites(id string, docs []citingDoc) []byte {
	b := cachefile.Begin(citesMagic, citesFingerprint())
	b = cachefile.AppendString(b, id)
	b = binary.AppendUvarint(b, uint64(len(docs)))
	for _, d := range docs {
		b = cachefile.AppendString(b, d.rel)
		b = cachefile.AppendString(b, d.title)
		b = cachefile.AppendString(b, d.description)
		b = binary.AppendUvarint(b, uint64(len(d.sources)))
		for _, s := range d.sources {
			b = binary.AppendUvarint(b, uint64(s.Index))
			b = binary.AppendUvarint(b, uint64(s.Line))
			for _, v := range []string{s.Path, s.Lines, s.Commit, s.Sha256, s.Repository} {
				b = cachefile.AppendString(b, v)
			}
		}
	}
	return cachefile.Seal(b)
}

func decodeCites(data []byte, id string, want wantSource) ([]citingDoc, error) {
	d, err := cachefile.Open(data, citesMagic, citesFingerprint())
	if err != nil {
		return nil, err
	}
	if d.String() != id {
		return nil, cachefile.ErrCorrupt
	}
	var docs []citingDoc
	for n := d.Count(); n > 0 && d.Err == nil; n-- {
		rel, title, desc := d.Bytes(), d.Bytes(), d.Bytes()
		var kept []tree.Source
		for k := d.Count(); k > 0 && d.Err == nil; k-- {
			index, line := int(d.Uvarint()), int(d.Uvarint())
			path, lines, commit, digest, repo := d.Bytes(), d.Bytes(), d.Bytes(), d.Bytes(), d.Bytes()
			if want != nil && !want(path, repo) {
				continue
			}
			s := tree.Source{Index: index, Line: line}
			s.Path, s.Lines, s.Commit, s.Sha256, s.Repository = string(path), string(lines), string(commit), string(digest), string(repo)
			if s.Lines != "" {
				r, err := tree.ParseLineRange(s.Lines)
				if err != nil {
					return nil, cachefile.ErrCorrupt
				}
				s.Range = r
			}
			kept = append(kept, s)
		}
		if len(kept) > 0 {
			docs = append(docs, citingDoc{rel: string(rel), title: string(title), description: string(desc), sources: kept})
		}
	}
	if !d.Done() {
		return nil, cachefile.ErrCorrupt
	}
	return docs, nil
}

// The tree ids of commits' subtrees are kept beside the indexes
// (tree-<commit>: lines "<tree id> <subtree>"), so a warm call asks git
// nothing to find its index. A commit's trees never change; a line that
// is not a well-formed id is ignored.

func treeIDFile(gitDir, commit string) string {
	return filepath.Join(gitDir, filepath.FromSlash(citesDir), "tree-"+commit)
}

func cachedTreeID(gitDir, commit, subtree string) string {
	if gitDir == "" || !validOID(commit) {
		return ""
	}
	data, err := os.ReadFile(treeIDFile(gitDir, commit))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if id, sub, ok := strings.Cut(line, " "); ok && sub == subtree && validOID(id) {
			return id
		}
	}
	return ""
}

func storeTreeID(gitDir, commit, subtree, id string) {
	if gitDir == "" || !validOID(commit) || strings.ContainsAny(subtree, "\n") {
		return
	}
	file := treeIDFile(gitDir, commit)
	old, _ := os.ReadFile(file)
	if cachefile.Write(file, append(old, []byte(id+" "+subtree+"\n")...)) {
		pruneCites(filepath.Dir(file))
	}
}
