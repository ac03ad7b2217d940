package search

import (
	"runtime"
	"sync"

	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Field weights: a term in a title says more about a document than one in
// its description, which says more than one in its body.
const (
	titleWeight       = 4
	descriptionWeight = 2
	bodyWeight        = 1
)

// Index is the search index of one tree at one moment. It is immutable
// once built, so concurrent searches need no lock.
type Index struct {
	root     string
	docs     []indexed
	postings map[string][]posting
	avgLen   float64
	count    int // documents read
}

type indexed struct {
	stat tree.DocStat
	doc  *tree.LoadedDocument // nil: could not be read, never matches
	len  float64              // weighted number of terms
}

type posting struct {
	doc int32
	tf  float32 // weighted term frequency
}

// Build indexes the documents stats lists (tree.ListDocuments of root).
// A document whose stat is unchanged since prev (an earlier index of the
// same root, or nil) is reused without being read again. A document that
// cannot be read (removed, replaced by a symlink, hard-linked) is left out.
// observe (nil: none) is shown every document read (see tree.Observer).
func Build(root string, stats []tree.DocStat, prev *Index, observe tree.Observer) *Index {
	old := map[string]*indexed{}
	if prev != nil && prev.root == root {
		for i := range prev.docs {
			old[prev.docs[i].stat.Rel] = &prev.docs[i]
		}
	}
	ix := &Index{root: root, docs: make([]indexed, len(stats)), postings: map[string][]posting{}}
	workers := runtime.GOMAXPROCS(0)
	local := make([]map[string][]posting, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			post := map[string][]posting{}
			for i := w; i < len(stats); i += workers {
				d := &ix.docs[i] // each worker writes its own documents
				d.stat = stats[i]
				if o := old[stats[i].Rel]; o != nil && o.stat == stats[i] {
					d.doc = o.doc
				} else if ld, err := tree.LoadDocument(root, stats[i].Rel, &buf, observe); err == nil {
					d.doc = ld
				}
				if d.doc != nil {
					d.len = analyze(d.doc, int32(i), post)
				}
			}
			local[w] = post
		}()
	}
	wg.Wait()
	total, n := 0.0, 0
	for _, d := range ix.docs {
		if d.doc != nil {
			total += d.len
			n++
		}
	}
	for _, post := range local {
		for t, ps := range post {
			ix.postings[t] = append(ix.postings[t], ps...)
		}
	}
	if n > 0 {
		ix.avgLen = total / float64(n)
	}
	ix.count = n
	return ix
}

// analyze adds a document's weighted term frequencies to post and returns
// its weighted length.
func analyze(d *tree.LoadedDocument, id int32, post map[string][]posting) float64 {
	tf := map[string]float32{}
	length := 0.0
	add := func(s string, w float32) {
		tokens(s, func(t string, _ int) {
			tf[t] += w
			length += float64(w)
		})
	}
	add(d.Title, titleWeight)
	add(d.Description, descriptionWeight)
	add(string(d.Body), bodyWeight)
	for t, f := range tf {
		post[t] = append(post[t], posting{doc: id, tf: f})
	}
	return length
}

// Documents is how many documents the index holds.
func (ix *Index) Documents() int { return ix.count }
