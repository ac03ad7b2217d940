package redact

import "sync"

// keywordIndex finds which rule keywords occur in a lowercase line in one
// pass, indexing keywords by their first two bytes (the shortest has two),
// instead of searching the line once per keyword.
type keywordIndex struct {
	words []string
	ids   map[string]int
	// The keywords beginning with the byte pair (a, b) are
	// byPair[rows[rowOf[a]-1][b]-1] (a zero on the way: none). Tables,
	// since a line asks at every byte; two levels, since the keywords
	// begin with a few dozen bytes and a table of every pair (128 KiB)
	// cost more to build than the rest of a short command's output.
	rowOf  [256]uint16
	rows   []*[256]uint16
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
		slot := ix.slot(k[0], k[1])
		if *slot == 0 {
			ix.byPair = append(ix.byPair, nil)
			*slot = uint16(len(ix.byPair))
		}
		ix.byPair[*slot-1] = append(ix.byPair[*slot-1], id)
	}
	return ix
}

// slot is the table entry of the pair (a, b), its row added if missing.
func (ix *keywordIndex) slot(a, b byte) *uint16 {
	if ix.rowOf[a] == 0 {
		ix.rows = append(ix.rows, new([256]uint16))
		ix.rowOf[a] = uint16(len(ix.rows))
	}
	return &ix.rows[ix.rowOf[a]-1][b]
}

// at is 1 + the index in byPair of the keywords beginning at s[i], or 0.
func (ix *keywordIndex) at(s string, i int) uint16 {
	r := ix.rowOf[s[i]]
	if r == 0 {
		return 0
	}
	return ix.rows[r-1][s[i+1]]
}

// any reports whether lower contains a keyword, stopping at the first.
func (ix *keywordIndex) any(lower string) bool {
	for i := 0; i+1 < len(lower); i++ {
		f := ix.at(lower, i)
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
		f := ix.at(lower, i)
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
