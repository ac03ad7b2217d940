package search

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// BM25 parameters (the usual ones).
const (
	k1 = 1.2
	b  = 0.75
)

// Hit is one ranked document of a search.
type Hit struct {
	Doc   *tree.LoadedDocument
	Score float64
}

// Search ranks the documents holding any term of query, best first (ties
// by path), at most max of them. Scores are BM25 over weighted term
// frequencies (title, description, body); a document matching more of the
// query's terms ranks above one matching fewer.
func (ix *Index) Search(query string, max int) []Hit {
	terms := queryTerms(query)
	if len(terms) == 0 || ix.count == 0 {
		return nil
	}
	scores := make([]float64, len(ix.docs))
	matched := make([]uint16, len(ix.docs))
	n := float64(ix.count)
	for _, t := range terms {
		ps := ix.postings[t]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range ps {
			tf := float64(p.tf)
			norm := k1 * (1 - b + b*ix.docs[p.doc].len/ix.avgLen)
			scores[p.doc] += idf * tf * (k1 + 1) / (tf + norm)
			matched[p.doc]++
		}
	}
	var hits []Hit
	for i, s := range scores {
		if s > 0 {
			// Coverage first: all terms beat some terms, whatever the counts.
			s *= float64(matched[i]) / float64(len(terms))
			hits = append(hits, Hit{Doc: ix.docs[i].doc, Score: s})
		}
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(a.Doc.Node, b.Doc.Node)
	})
	if len(hits) > max {
		hits = hits[:max]
	}
	for i := range hits {
		hits[i].Score = math.Round(hits[i].Score*1000) / 1000
	}
	return hits
}

// Snippets returns up to n lines of the hit's body holding the most query
// terms (earlier lines first among equals), in line order, each cut to at
// most width characters around its first match. A document that matched
// only in its title or description gets its first non-blank body line.
func Snippets(h Hit, query string, n, width int) []contracts.Snippet {
	want := map[string]bool{}
	for _, t := range queryTerms(query) {
		want[t] = true
	}
	type cand struct {
		line, count, at int
		text            string
	}
	var cands []cand
	first := cand{line: -1}
	body := string(h.Doc.Body)
	for i := 0; body != ""; i++ {
		line, rest, _ := strings.Cut(body, "\n")
		body = rest
		line = strings.TrimRight(line, "\r")
		if first.line < 0 && strings.TrimSpace(line) != "" {
			first = cand{line: i, text: line}
		}
		seen := map[string]bool{}
		at := -1
		tokens(line, func(t string, pos int) {
			if want[t] && !seen[t] {
				seen[t] = true
				if at < 0 {
					at = pos
				}
			}
		})
		if len(seen) > 0 {
			cands = append(cands, cand{line: i, count: len(seen), at: at, text: line})
		}
	}
	if len(cands) == 0 && first.line >= 0 {
		cands = append(cands, first)
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(b.count, a.count) })
	cands = cands[:min(n, len(cands))]
	slices.SortFunc(cands, func(a, b cand) int { return cmp.Compare(a.line, b.line) })
	out := make([]contracts.Snippet, len(cands))
	for i, c := range cands {
		out[i] = contracts.Snippet{Line: h.Doc.BodyLine + c.line, Text: window(c.text, max(c.at, 0), width)}
	}
	return out
}

// window cuts line to at most width runes, keeping the text around byte
// offset at, and trims surrounding blanks.
func window(line string, at, width int) string {
	r := []rune(line)
	if len(r) <= width {
		return strings.TrimSpace(line)
	}
	pos := len([]rune(line[:at]))
	start := max(0, min(pos-width/4, len(r)-width))
	return strings.TrimSpace(string(r[start : start+width]))
}
