package tree

import (
	"bytes"
	"runtime"
	"sync"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Citing is a document that has a sources list: its well-formed entries
// and the findings of its malformed ones.
type Citing struct {
	Path     string
	Sources  []Source
	Findings []contracts.Finding
}

// CitingDocuments lists the documents of the tree at root (from OpenRoot)
// that have a sources list, in tree order, walking by Documents' rules.
// Documents are read on all cores; only those whose bytes hold
// "sources:" are parsed.
func CitingDocuments(root string) ([]Citing, error) {
	return CitingDocumentsObserved(root, nil)
}

// CitingDocumentsObserved is CitingDocuments showing observe (nil: none)
// every document's bytes as read, those without a sources list too (see
// Observer).
func CitingDocumentsObserved(root string, observe Observer) ([]Citing, error) {
	src := diskContent{root: root}
	var paths []string
	if err := listDocuments(src, ".", 0, func(rel string, _ int) { paths = append(paths, rel) }); err != nil {
		return nil, err
	}
	found := make([]*Citing, len(paths))
	var next sync.Mutex
	i := 0
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for {
				next.Lock()
				k := i
				i++
				next.Unlock()
				if k >= len(paths) {
					return
				}
				found[k] = citing(src, paths[k], &buf, observe)
			}
		}()
	}
	wg.Wait()
	var out []Citing
	for _, c := range found {
		if c != nil {
			out = append(out, *c)
		}
	}
	return out, nil
}

var sourcesKey = []byte("sources:")

func citing(src diskContent, rel string, buf *[]byte, observe Observer) *Citing {
	data, err := src.readFile(buf, rel, contracts.MaxDocumentBytes)
	if err != nil {
		return nil // verify reports unreadable documents
	}
	if observe != nil {
		observe(rel, data)
	}
	if !bytes.Contains(data, sourcesKey) {
		return nil
	}
	return CitingOf(rel, data)
}

// CitingOf parses one document's sources, nil when it has none.
func CitingOf(rel string, data []byte) *Citing {
	doc := ParseDocument(rel, data, rel == NodeFile)
	var bad []contracts.Finding
	for _, f := range doc.Findings {
		if f.Code == contracts.FindingEvidenceInvalid {
			bad = append(bad, f)
		}
	}
	if len(doc.Meta.Sources) == 0 && len(bad) == 0 {
		return nil
	}
	return &Citing{Path: rel, Sources: doc.Meta.Sources, Findings: bad}
}
