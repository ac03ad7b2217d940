package redact

import "sync"

// keywordIndex finds which rule keywords occur in a lowercase line in one
// pass, indexing keywords by their first two bytes (the shortest has two),
// instead of searching the line once per keyword.
type keywordIndex struct {
	words []string
	ids   map[string]int
	// byPair[first[p]-1] are the keywords that begin with the byte pair p
	// (first[p] == 0: none): a table, since a line asks it at every byte.
	first  [1 << 16]uint16
	byPair [][]int
}

// ruleKeywords indexes the keywords of the gitleaks rules: a text holding
// none of them cannot match any rule, so most commands never build the
// rule set.
var ruleKeywords = sync.OnceValue(func() *keywordIndex {
	var words []string
	for _, r := range gitleaksRules {
		words = append(words, r.keywords...)
	}
	return newKeywordIndex(words)
})

func newKeywordIndex(words []string) *keywordIndex {
	ix := &keywordIndex{ids: map[string]int{}}
	for _, k := range words {
		if _, ok := ix.ids[k]; ok || len(k) < 2 {
			continue
		}
		id := len(ix.words)
		ix.ids[k] = id
		ix.words = append(ix.words, k)
		p := pair(k, 0)
		if ix.first[p] == 0 {
			ix.byPair = append(ix.byPair, nil)
			ix.first[p] = uint16(len(ix.byPair))
		}
		ix.byPair[ix.first[p]-1] = append(ix.byPair[ix.first[p]-1], id)
	}
	return ix
}

func pair(s string, i int) uint16 { return uint16(s[i])<<8 | uint16(s[i+1]) }

// any reports whether lower contains a keyword, stopping at the first.
func (ix *keywordIndex) any(lower string) bool {
	for i := 0; i+1 < len(lower); i++ {
		f := ix.first[pair(lower, i)]
		if f == 0 {
			continue
		}
		for _, id := range ix.byPair[f-1] {
			if w := ix.words[id]; len(lower)-i >= len(w) && lower[i:i+len(w)] == w {
				return true
			}
		}
	}
	return false
}

// hits marks in found (len(words)) the keywords lower contains.
func (ix *keywordIndex) hits(lower string, found []bool) bool {
	clear(found)
	any := false
	for i := 0; i+1 < len(lower); i++ {
		f := ix.first[pair(lower, i)]
		if f == 0 {
			continue
		}
		for _, id := range ix.byPair[f-1] {
			if !found[id] && len(lower)-i >= len(ix.words[id]) && lower[i:i+len(ix.words[id])] == ix.words[id] {
				found[id], any = true, true
			}
		}
	}
	return any
}
