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

// loadCites reads the index of a tree, ok false when there is none that
// this binary wrote whole.
func loadCites(gitDir, id string) ([]citingDoc, bool) {
	data, err := os.ReadFile(citesFile(gitDir, id))
	if err != nil {
		return nil, false
	}
	docs, err := decodeCites(data, id)
	return docs, err == nil
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

func decodeCites(data []byte, id string) ([]citingDoc, error) {
	d, err := cachefile.Open(data, citesMagic, citesFingerprint())
	if err != nil {
		return nil, err
	}
	if d.String() != id {
		return nil, cachefile.ErrCorrupt
	}
	docs := make([]citingDoc, d.Count())
	for i := range docs {
		docs[i] = citingDoc{rel: d.String(), title: d.String(), description: d.String()}
		docs[i].sources = make([]tree.Source, d.Count())
		for k := range docs[i].sources {
			s := &docs[i].sources[k]
			s.Index, s.Line = int(d.Uvarint()), int(d.Uvarint())
			s.Path, s.Lines, s.Commit, s.Sha256, s.Repository = d.String(), d.String(), d.String(), d.String(), d.String()
			if s.Lines != "" {
				r, err := tree.ParseLineRange(s.Lines)
				if err != nil {
					return nil, cachefile.ErrCorrupt
				}
				s.Range = r
			}
		}
	}
	if !d.Done() {
		return nil, cachefile.ErrCorrupt
	}
	return docs, nil
}
