// Package search is ranked full-text search over one tree's titles,
// descriptions and bodies: an in-memory inverted index built from the
// documents tree.ListDocuments lists and tree.LoadDocument reads, so it
// follows exactly the tree's containment, symlink and content-class rules.
// It knows nothing of git, MCP or project configuration.
package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxTokenBytes bounds a term: longer runs (hashes, base64) are cut.
const maxTokenBytes = 64

// tokens calls fn with every term of s: maximal runs of letters and digits,
// lowercased. It allocates only for terms that are not already lowercase.
func tokens(s string, fn func(term string, at int)) {
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		t := s[start:end]
		if len(t) > maxTokenBytes {
			t = t[:maxTokenBytes]
			for !utf8.ValidString(t) {
				t = t[:len(t)-1]
			}
		}
		fn(lower(t), start)
		start = -1
	}
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(s))
}

// lower lowercases t, without allocating when it is lowercase ASCII.
func lower(t string) string {
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return strings.ToLower(t)
		}
	}
	return t
}

// queryTerms is the distinct terms of a query, in order.
func queryTerms(q string) []string {
	var terms []string
	seen := map[string]bool{}
	tokens(q, func(t string, _ int) {
		if !seen[t] {
			seen[t] = true
			terms = append(terms, t)
		}
	})
	return terms
}
